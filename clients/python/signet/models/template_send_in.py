from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.email_options_in import EmailOptionsIn
    from ..models.party_in import PartyIn
    from ..models.template_send_in_metadata_type_0 import TemplateSendInMetadataType0


T = TypeVar("T", bound="TemplateSendIn")


@_attrs_define
class TemplateSendIn:
    """
    Attributes:
        parties (list[PartyIn]): One per seat of the template.
        template_id (str):
        email (EmailOptionsIn | None | Unset):
        embedded (list[str] | None | Unset): Seats signed inside your own app: nobody emails them.
        expiry_days (int | None | Unset):
        external_id (None | str | Unset):
        language (None | str | Unset):
        message (None | str | Unset):
        metadata (None | TemplateSendInMetadataType0 | Unset):
        subject (None | str | Unset):
        title (None | str | Unset): The document's title; the template's name when left out.
    """

    parties: list[PartyIn]
    template_id: str
    email: EmailOptionsIn | None | Unset = UNSET
    embedded: list[str] | None | Unset = UNSET
    expiry_days: int | None | Unset = UNSET
    external_id: None | str | Unset = UNSET
    language: None | str | Unset = UNSET
    message: None | str | Unset = UNSET
    metadata: None | TemplateSendInMetadataType0 | Unset = UNSET
    subject: None | str | Unset = UNSET
    title: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.email_options_in import EmailOptionsIn
        from ..models.template_send_in_metadata_type_0 import (
            TemplateSendInMetadataType0,
        )

        parties = []
        for parties_item_data in self.parties:
            parties_item = parties_item_data.to_dict()
            parties.append(parties_item)

        template_id = self.template_id

        email: dict[str, Any] | None | Unset
        if isinstance(self.email, Unset):
            email = UNSET
        elif isinstance(self.email, EmailOptionsIn):
            email = self.email.to_dict()
        else:
            email = self.email

        embedded: list[str] | None | Unset
        if isinstance(self.embedded, Unset):
            embedded = UNSET
        elif isinstance(self.embedded, list):
            embedded = self.embedded

        else:
            embedded = self.embedded

        expiry_days: int | None | Unset
        if isinstance(self.expiry_days, Unset):
            expiry_days = UNSET
        else:
            expiry_days = self.expiry_days

        external_id: None | str | Unset
        if isinstance(self.external_id, Unset):
            external_id = UNSET
        else:
            external_id = self.external_id

        language: None | str | Unset
        if isinstance(self.language, Unset):
            language = UNSET
        else:
            language = self.language

        message: None | str | Unset
        if isinstance(self.message, Unset):
            message = UNSET
        else:
            message = self.message

        metadata: dict[str, Any] | None | Unset
        if isinstance(self.metadata, Unset):
            metadata = UNSET
        elif isinstance(self.metadata, TemplateSendInMetadataType0):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

        subject: None | str | Unset
        if isinstance(self.subject, Unset):
            subject = UNSET
        else:
            subject = self.subject

        title: None | str | Unset
        if isinstance(self.title, Unset):
            title = UNSET
        else:
            title = self.title

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "parties": parties,
                "templateId": template_id,
            }
        )
        if email is not UNSET:
            field_dict["email"] = email
        if embedded is not UNSET:
            field_dict["embedded"] = embedded
        if expiry_days is not UNSET:
            field_dict["expiryDays"] = expiry_days
        if external_id is not UNSET:
            field_dict["externalId"] = external_id
        if language is not UNSET:
            field_dict["language"] = language
        if message is not UNSET:
            field_dict["message"] = message
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if subject is not UNSET:
            field_dict["subject"] = subject
        if title is not UNSET:
            field_dict["title"] = title

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.email_options_in import EmailOptionsIn
        from ..models.party_in import PartyIn
        from ..models.template_send_in_metadata_type_0 import (
            TemplateSendInMetadataType0,
        )

        d = dict(src_dict)
        parties = []
        _parties = d.pop("parties")
        for parties_item_data in _parties:
            parties_item = PartyIn.from_dict(parties_item_data)

            parties.append(parties_item)

        template_id = d.pop("templateId")

        def _parse_email(data: object) -> EmailOptionsIn | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                email_type_1 = EmailOptionsIn.from_dict(data)

                return email_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EmailOptionsIn | None | Unset, data)

        email = _parse_email(d.pop("email", UNSET))

        def _parse_embedded(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                embedded_type_0 = cast(list[str], data)

                return embedded_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        embedded = _parse_embedded(d.pop("embedded", UNSET))

        def _parse_expiry_days(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        expiry_days = _parse_expiry_days(d.pop("expiryDays", UNSET))

        def _parse_external_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        external_id = _parse_external_id(d.pop("externalId", UNSET))

        def _parse_language(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        language = _parse_language(d.pop("language", UNSET))

        def _parse_message(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        message = _parse_message(d.pop("message", UNSET))

        def _parse_metadata(data: object) -> None | TemplateSendInMetadataType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = TemplateSendInMetadataType0.from_dict(data)

                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TemplateSendInMetadataType0 | Unset, data)

        metadata = _parse_metadata(d.pop("metadata", UNSET))

        def _parse_subject(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        subject = _parse_subject(d.pop("subject", UNSET))

        def _parse_title(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        title = _parse_title(d.pop("title", UNSET))

        template_send_in = cls(
            parties=parties,
            template_id=template_id,
            email=email,
            embedded=embedded,
            expiry_days=expiry_days,
            external_id=external_id,
            language=language,
            message=message,
            metadata=metadata,
            subject=subject,
            title=title,
        )

        return template_send_in
