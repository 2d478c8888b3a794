from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.document_check_in_facts_type_0 import DocumentCheckInFactsType0
    from ..models.document_check_in_source import DocumentCheckInSource
    from ..models.document_check_in_variable_values_type_0 import (
        DocumentCheckInVariableValuesType0,
    )
    from ..models.person_in import PersonIn


T = TypeVar("T", bound="DocumentCheckIn")


@_attrs_define
class DocumentCheckIn:
    """
    Attributes:
        source (DocumentCheckInSource):
        facts (DocumentCheckInFactsType0 | None | Unset):
        for_template (bool | None | Unset):
        people (list[PersonIn] | None | Unset):
        require_signature (bool | None | Unset):
        variable_values (DocumentCheckInVariableValuesType0 | None | Unset):
    """

    source: DocumentCheckInSource
    facts: DocumentCheckInFactsType0 | None | Unset = UNSET
    for_template: bool | None | Unset = UNSET
    people: list[PersonIn] | None | Unset = UNSET
    require_signature: bool | None | Unset = UNSET
    variable_values: DocumentCheckInVariableValuesType0 | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.document_check_in_facts_type_0 import DocumentCheckInFactsType0
        from ..models.document_check_in_variable_values_type_0 import (
            DocumentCheckInVariableValuesType0,
        )

        source = self.source.to_dict()

        facts: dict[str, Any] | None | Unset
        if isinstance(self.facts, Unset):
            facts = UNSET
        elif isinstance(self.facts, DocumentCheckInFactsType0):
            facts = self.facts.to_dict()
        else:
            facts = self.facts

        for_template: bool | None | Unset
        if isinstance(self.for_template, Unset):
            for_template = UNSET
        else:
            for_template = self.for_template

        people: list[dict[str, Any]] | None | Unset
        if isinstance(self.people, Unset):
            people = UNSET
        elif isinstance(self.people, list):
            people = []
            for people_type_0_item_data in self.people:
                people_type_0_item = people_type_0_item_data.to_dict()
                people.append(people_type_0_item)

        else:
            people = self.people

        require_signature: bool | None | Unset
        if isinstance(self.require_signature, Unset):
            require_signature = UNSET
        else:
            require_signature = self.require_signature

        variable_values: dict[str, Any] | None | Unset
        if isinstance(self.variable_values, Unset):
            variable_values = UNSET
        elif isinstance(self.variable_values, DocumentCheckInVariableValuesType0):
            variable_values = self.variable_values.to_dict()
        else:
            variable_values = self.variable_values

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "source": source,
            }
        )
        if facts is not UNSET:
            field_dict["facts"] = facts
        if for_template is not UNSET:
            field_dict["forTemplate"] = for_template
        if people is not UNSET:
            field_dict["people"] = people
        if require_signature is not UNSET:
            field_dict["requireSignature"] = require_signature
        if variable_values is not UNSET:
            field_dict["variableValues"] = variable_values

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.document_check_in_facts_type_0 import DocumentCheckInFactsType0
        from ..models.document_check_in_source import DocumentCheckInSource
        from ..models.document_check_in_variable_values_type_0 import (
            DocumentCheckInVariableValuesType0,
        )
        from ..models.person_in import PersonIn

        d = dict(src_dict)
        source = DocumentCheckInSource.from_dict(d.pop("source"))

        def _parse_facts(data: object) -> DocumentCheckInFactsType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                facts_type_0 = DocumentCheckInFactsType0.from_dict(data)

                return facts_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DocumentCheckInFactsType0 | None | Unset, data)

        facts = _parse_facts(d.pop("facts", UNSET))

        def _parse_for_template(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        for_template = _parse_for_template(d.pop("forTemplate", UNSET))

        def _parse_people(data: object) -> list[PersonIn] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                people_type_0 = []
                _people_type_0 = data
                for people_type_0_item_data in _people_type_0:
                    people_type_0_item = PersonIn.from_dict(people_type_0_item_data)

                    people_type_0.append(people_type_0_item)

                return people_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[PersonIn] | None | Unset, data)

        people = _parse_people(d.pop("people", UNSET))

        def _parse_require_signature(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        require_signature = _parse_require_signature(d.pop("requireSignature", UNSET))

        def _parse_variable_values(
            data: object,
        ) -> DocumentCheckInVariableValuesType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                variable_values_type_0 = DocumentCheckInVariableValuesType0.from_dict(
                    data
                )

                return variable_values_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DocumentCheckInVariableValuesType0 | None | Unset, data)

        variable_values = _parse_variable_values(d.pop("variableValues", UNSET))

        document_check_in = cls(
            source=source,
            facts=facts,
            for_template=for_template,
            people=people,
            require_signature=require_signature,
            variable_values=variable_values,
        )

        return document_check_in
