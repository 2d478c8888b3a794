from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.email_options_in import EmailOptionsIn
    from ..models.person_in import PersonIn
    from ..models.send_options_in import SendOptionsIn
    from ..models.template_document_in_facts_type_0 import TemplateDocumentInFactsType0
    from ..models.template_document_in_metadata_type_0 import (
        TemplateDocumentInMetadataType0,
    )
    from ..models.template_document_in_variable_values_type_0 import (
        TemplateDocumentInVariableValuesType0,
    )


T = TypeVar("T", bound="TemplateDocumentIn")


@_attrs_define
class TemplateDocumentIn:
    """
    Attributes:
        people (list[PersonIn]):
        email (EmailOptionsIn | None | Unset):
        embedded (list[str] | None | Unset):
        external_id (None | str | Unset):
        facts (None | TemplateDocumentInFactsType0 | Unset):
        metadata (None | TemplateDocumentInMetadataType0 | Unset):
        send (None | SendOptionsIn | Unset):
        send_now (bool | None | Unset):
        title (None | str | Unset):
        variable_values (None | TemplateDocumentInVariableValuesType0 | Unset): Answers to the template's questions, by
            key.
    """

    people: list[PersonIn]
    email: EmailOptionsIn | None | Unset = UNSET
    embedded: list[str] | None | Unset = UNSET
    external_id: None | str | Unset = UNSET
    facts: None | TemplateDocumentInFactsType0 | Unset = UNSET
    metadata: None | TemplateDocumentInMetadataType0 | Unset = UNSET
    send: None | SendOptionsIn | Unset = UNSET
    send_now: bool | None | Unset = UNSET
    title: None | str | Unset = UNSET
    variable_values: None | TemplateDocumentInVariableValuesType0 | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.email_options_in import EmailOptionsIn
        from ..models.send_options_in import SendOptionsIn
        from ..models.template_document_in_facts_type_0 import (
            TemplateDocumentInFactsType0,
        )
        from ..models.template_document_in_metadata_type_0 import (
            TemplateDocumentInMetadataType0,
        )
        from ..models.template_document_in_variable_values_type_0 import (
            TemplateDocumentInVariableValuesType0,
        )

        people = []
        for people_item_data in self.people:
            people_item = people_item_data.to_dict()
            people.append(people_item)

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

        external_id: None | str | Unset
        if isinstance(self.external_id, Unset):
            external_id = UNSET
        else:
            external_id = self.external_id

        facts: dict[str, Any] | None | Unset
        if isinstance(self.facts, Unset):
            facts = UNSET
        elif isinstance(self.facts, TemplateDocumentInFactsType0):
            facts = self.facts.to_dict()
        else:
            facts = self.facts

        metadata: dict[str, Any] | None | Unset
        if isinstance(self.metadata, Unset):
            metadata = UNSET
        elif isinstance(self.metadata, TemplateDocumentInMetadataType0):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

        send: dict[str, Any] | None | Unset
        if isinstance(self.send, Unset):
            send = UNSET
        elif isinstance(self.send, SendOptionsIn):
            send = self.send.to_dict()
        else:
            send = self.send

        send_now: bool | None | Unset
        if isinstance(self.send_now, Unset):
            send_now = UNSET
        else:
            send_now = self.send_now

        title: None | str | Unset
        if isinstance(self.title, Unset):
            title = UNSET
        else:
            title = self.title

        variable_values: dict[str, Any] | None | Unset
        if isinstance(self.variable_values, Unset):
            variable_values = UNSET
        elif isinstance(self.variable_values, TemplateDocumentInVariableValuesType0):
            variable_values = self.variable_values.to_dict()
        else:
            variable_values = self.variable_values

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "people": people,
            }
        )
        if email is not UNSET:
            field_dict["email"] = email
        if embedded is not UNSET:
            field_dict["embedded"] = embedded
        if external_id is not UNSET:
            field_dict["externalId"] = external_id
        if facts is not UNSET:
            field_dict["facts"] = facts
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if send is not UNSET:
            field_dict["send"] = send
        if send_now is not UNSET:
            field_dict["sendNow"] = send_now
        if title is not UNSET:
            field_dict["title"] = title
        if variable_values is not UNSET:
            field_dict["variableValues"] = variable_values

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.email_options_in import EmailOptionsIn
        from ..models.person_in import PersonIn
        from ..models.send_options_in import SendOptionsIn
        from ..models.template_document_in_facts_type_0 import (
            TemplateDocumentInFactsType0,
        )
        from ..models.template_document_in_metadata_type_0 import (
            TemplateDocumentInMetadataType0,
        )
        from ..models.template_document_in_variable_values_type_0 import (
            TemplateDocumentInVariableValuesType0,
        )

        d = dict(src_dict)
        people = []
        _people = d.pop("people")
        for people_item_data in _people:
            people_item = PersonIn.from_dict(people_item_data)

            people.append(people_item)

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

        def _parse_external_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        external_id = _parse_external_id(d.pop("externalId", UNSET))

        def _parse_facts(data: object) -> None | TemplateDocumentInFactsType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                facts_type_0 = TemplateDocumentInFactsType0.from_dict(data)

                return facts_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TemplateDocumentInFactsType0 | Unset, data)

        facts = _parse_facts(d.pop("facts", UNSET))

        def _parse_metadata(
            data: object,
        ) -> None | TemplateDocumentInMetadataType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = TemplateDocumentInMetadataType0.from_dict(data)

                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TemplateDocumentInMetadataType0 | Unset, data)

        metadata = _parse_metadata(d.pop("metadata", UNSET))

        def _parse_send(data: object) -> None | SendOptionsIn | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                send_type_1 = SendOptionsIn.from_dict(data)

                return send_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SendOptionsIn | Unset, data)

        send = _parse_send(d.pop("send", UNSET))

        def _parse_send_now(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        send_now = _parse_send_now(d.pop("sendNow", UNSET))

        def _parse_title(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        title = _parse_title(d.pop("title", UNSET))

        def _parse_variable_values(
            data: object,
        ) -> None | TemplateDocumentInVariableValuesType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                variable_values_type_0 = (
                    TemplateDocumentInVariableValuesType0.from_dict(data)
                )

                return variable_values_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TemplateDocumentInVariableValuesType0 | Unset, data)

        variable_values = _parse_variable_values(d.pop("variableValues", UNSET))

        template_document_in = cls(
            people=people,
            email=email,
            embedded=embedded,
            external_id=external_id,
            facts=facts,
            metadata=metadata,
            send=send,
            send_now=send_now,
            title=title,
            variable_values=variable_values,
        )

        return template_document_in
