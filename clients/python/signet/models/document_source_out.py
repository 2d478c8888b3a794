from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.document_source_out_email import DocumentSourceOutEmail
    from ..models.document_source_out_facts import DocumentSourceOutFacts
    from ..models.document_source_out_metadata import DocumentSourceOutMetadata
    from ..models.document_source_out_people_item import DocumentSourceOutPeopleItem
    from ..models.document_source_out_send import DocumentSourceOutSend
    from ..models.document_source_out_source import DocumentSourceOutSource
    from ..models.document_source_out_variable_values import (
        DocumentSourceOutVariableValues,
    )


T = TypeVar("T", bound="DocumentSourceOut")


@_attrs_define
class DocumentSourceOut:
    """
    Attributes:
        email (DocumentSourceOutEmail):
        facts (DocumentSourceOutFacts):
        id (str):
        metadata (DocumentSourceOutMetadata):
        paper (str):
        people (list[DocumentSourceOutPeopleItem]):
        profile (str):
        send (DocumentSourceOutSend):
        source (DocumentSourceOutSource):
        title (str):
        variable_values (DocumentSourceOutVariableValues):
        description (None | str | Unset):
        external_id (None | str | Unset):
    """

    email: DocumentSourceOutEmail
    facts: DocumentSourceOutFacts
    id: str
    metadata: DocumentSourceOutMetadata
    paper: str
    people: list[DocumentSourceOutPeopleItem]
    profile: str
    send: DocumentSourceOutSend
    source: DocumentSourceOutSource
    title: str
    variable_values: DocumentSourceOutVariableValues
    description: None | str | Unset = UNSET
    external_id: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        email = self.email.to_dict()

        facts = self.facts.to_dict()

        id = self.id

        metadata = self.metadata.to_dict()

        paper = self.paper

        people = []
        for people_item_data in self.people:
            people_item = people_item_data.to_dict()
            people.append(people_item)

        profile = self.profile

        send = self.send.to_dict()

        source = self.source.to_dict()

        title = self.title

        variable_values = self.variable_values.to_dict()

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        external_id: None | str | Unset
        if isinstance(self.external_id, Unset):
            external_id = UNSET
        else:
            external_id = self.external_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "email": email,
                "facts": facts,
                "id": id,
                "metadata": metadata,
                "paper": paper,
                "people": people,
                "profile": profile,
                "send": send,
                "source": source,
                "title": title,
                "variableValues": variable_values,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description
        if external_id is not UNSET:
            field_dict["externalId"] = external_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.document_source_out_email import DocumentSourceOutEmail
        from ..models.document_source_out_facts import DocumentSourceOutFacts
        from ..models.document_source_out_metadata import DocumentSourceOutMetadata
        from ..models.document_source_out_people_item import DocumentSourceOutPeopleItem
        from ..models.document_source_out_send import DocumentSourceOutSend
        from ..models.document_source_out_source import DocumentSourceOutSource
        from ..models.document_source_out_variable_values import (
            DocumentSourceOutVariableValues,
        )

        d = dict(src_dict)
        email = DocumentSourceOutEmail.from_dict(d.pop("email"))

        facts = DocumentSourceOutFacts.from_dict(d.pop("facts"))

        id = d.pop("id")

        metadata = DocumentSourceOutMetadata.from_dict(d.pop("metadata"))

        paper = d.pop("paper")

        people = []
        _people = d.pop("people")
        for people_item_data in _people:
            people_item = DocumentSourceOutPeopleItem.from_dict(people_item_data)

            people.append(people_item)

        profile = d.pop("profile")

        send = DocumentSourceOutSend.from_dict(d.pop("send"))

        source = DocumentSourceOutSource.from_dict(d.pop("source"))

        title = d.pop("title")

        variable_values = DocumentSourceOutVariableValues.from_dict(
            d.pop("variableValues")
        )

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        def _parse_external_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        external_id = _parse_external_id(d.pop("externalId", UNSET))

        document_source_out = cls(
            email=email,
            facts=facts,
            id=id,
            metadata=metadata,
            paper=paper,
            people=people,
            profile=profile,
            send=send,
            source=source,
            title=title,
            variable_values=variable_values,
            description=description,
            external_id=external_id,
        )

        document_source_out.additional_properties = d
        return document_source_out

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
