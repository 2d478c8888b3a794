from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.document_create_in_facts_type_0 import DocumentCreateInFactsType0
    from ..models.document_create_in_metadata_type_0 import (
        DocumentCreateInMetadataType0,
    )
    from ..models.document_create_in_source import DocumentCreateInSource
    from ..models.document_create_in_variable_values_type_0 import (
        DocumentCreateInVariableValuesType0,
    )
    from ..models.email_options_in import EmailOptionsIn
    from ..models.person_in import PersonIn
    from ..models.send_options_in import SendOptionsIn


T = TypeVar("T", bound="DocumentCreateIn")


@_attrs_define
class DocumentCreateIn:
    """
    Attributes:
        people (list[PersonIn]):
        source (DocumentCreateInSource): The rich-text source: `{"type": "doc", "content": [...]}`.
        title (str):
        description (None | str | Unset):
        email (EmailOptionsIn | None | Unset):
        embedded (list[str] | None | Unset): Seats signed inside the caller's own app (`POST /documents/{id}/embed-
            session`):
            nobody emails them.
        external_id (None | str | Unset):
        facts (DocumentCreateInFactsType0 | None | Unset): Merge facts: `{"org": {"name": "..."}}` or `{"org.name":
            "..."}`.
        metadata (DocumentCreateInMetadataType0 | None | Unset):
        paper (None | str | Unset): `letter` (default) or `a4`.
        profile (None | str | Unset): `typeset` (default) or `contract`.
        send (None | SendOptionsIn | Unset):
        send_now (bool | None | Unset):
        variable_values (DocumentCreateInVariableValuesType0 | None | Unset): Answers to `custom.<key>` chips, by key.
    """

    people: list[PersonIn]
    source: DocumentCreateInSource
    title: str
    description: None | str | Unset = UNSET
    email: EmailOptionsIn | None | Unset = UNSET
    embedded: list[str] | None | Unset = UNSET
    external_id: None | str | Unset = UNSET
    facts: DocumentCreateInFactsType0 | None | Unset = UNSET
    metadata: DocumentCreateInMetadataType0 | None | Unset = UNSET
    paper: None | str | Unset = UNSET
    profile: None | str | Unset = UNSET
    send: None | SendOptionsIn | Unset = UNSET
    send_now: bool | None | Unset = UNSET
    variable_values: DocumentCreateInVariableValuesType0 | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.document_create_in_facts_type_0 import DocumentCreateInFactsType0
        from ..models.document_create_in_metadata_type_0 import (
            DocumentCreateInMetadataType0,
        )
        from ..models.document_create_in_variable_values_type_0 import (
            DocumentCreateInVariableValuesType0,
        )
        from ..models.email_options_in import EmailOptionsIn
        from ..models.send_options_in import SendOptionsIn

        people = []
        for people_item_data in self.people:
            people_item = people_item_data.to_dict()
            people.append(people_item)

        source = self.source.to_dict()

        title = self.title

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

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
        elif isinstance(self.facts, DocumentCreateInFactsType0):
            facts = self.facts.to_dict()
        else:
            facts = self.facts

        metadata: dict[str, Any] | None | Unset
        if isinstance(self.metadata, Unset):
            metadata = UNSET
        elif isinstance(self.metadata, DocumentCreateInMetadataType0):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

        paper: None | str | Unset
        if isinstance(self.paper, Unset):
            paper = UNSET
        else:
            paper = self.paper

        profile: None | str | Unset
        if isinstance(self.profile, Unset):
            profile = UNSET
        else:
            profile = self.profile

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

        variable_values: dict[str, Any] | None | Unset
        if isinstance(self.variable_values, Unset):
            variable_values = UNSET
        elif isinstance(self.variable_values, DocumentCreateInVariableValuesType0):
            variable_values = self.variable_values.to_dict()
        else:
            variable_values = self.variable_values

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "people": people,
                "source": source,
                "title": title,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description
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
        if paper is not UNSET:
            field_dict["paper"] = paper
        if profile is not UNSET:
            field_dict["profile"] = profile
        if send is not UNSET:
            field_dict["send"] = send
        if send_now is not UNSET:
            field_dict["sendNow"] = send_now
        if variable_values is not UNSET:
            field_dict["variableValues"] = variable_values

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.document_create_in_facts_type_0 import DocumentCreateInFactsType0
        from ..models.document_create_in_metadata_type_0 import (
            DocumentCreateInMetadataType0,
        )
        from ..models.document_create_in_source import DocumentCreateInSource
        from ..models.document_create_in_variable_values_type_0 import (
            DocumentCreateInVariableValuesType0,
        )
        from ..models.email_options_in import EmailOptionsIn
        from ..models.person_in import PersonIn
        from ..models.send_options_in import SendOptionsIn

        d = dict(src_dict)
        people = []
        _people = d.pop("people")
        for people_item_data in _people:
            people_item = PersonIn.from_dict(people_item_data)

            people.append(people_item)

        source = DocumentCreateInSource.from_dict(d.pop("source"))

        title = d.pop("title")

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

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

        def _parse_facts(data: object) -> DocumentCreateInFactsType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                facts_type_0 = DocumentCreateInFactsType0.from_dict(data)

                return facts_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DocumentCreateInFactsType0 | None | Unset, data)

        facts = _parse_facts(d.pop("facts", UNSET))

        def _parse_metadata(
            data: object,
        ) -> DocumentCreateInMetadataType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = DocumentCreateInMetadataType0.from_dict(data)

                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DocumentCreateInMetadataType0 | None | Unset, data)

        metadata = _parse_metadata(d.pop("metadata", UNSET))

        def _parse_paper(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        paper = _parse_paper(d.pop("paper", UNSET))

        def _parse_profile(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        profile = _parse_profile(d.pop("profile", UNSET))

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

        def _parse_variable_values(
            data: object,
        ) -> DocumentCreateInVariableValuesType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                variable_values_type_0 = DocumentCreateInVariableValuesType0.from_dict(
                    data
                )

                return variable_values_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DocumentCreateInVariableValuesType0 | None | Unset, data)

        variable_values = _parse_variable_values(d.pop("variableValues", UNSET))

        document_create_in = cls(
            people=people,
            source=source,
            title=title,
            description=description,
            email=email,
            embedded=embedded,
            external_id=external_id,
            facts=facts,
            metadata=metadata,
            paper=paper,
            profile=profile,
            send=send,
            send_now=send_now,
            variable_values=variable_values,
        )

        return document_create_in
