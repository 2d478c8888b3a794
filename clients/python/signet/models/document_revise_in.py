from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.document_revise_in_facts_type_0 import DocumentReviseInFactsType0
    from ..models.document_revise_in_role_map_type_0 import DocumentReviseInRoleMapType0
    from ..models.document_revise_in_source import DocumentReviseInSource
    from ..models.document_revise_in_variable_values_type_0 import (
        DocumentReviseInVariableValuesType0,
    )


T = TypeVar("T", bound="DocumentReviseIn")


@_attrs_define
class DocumentReviseIn:
    """
    Attributes:
        source (DocumentReviseInSource):
        facts (DocumentReviseInFactsType0 | None | Unset):
        role_map (DocumentReviseInRoleMapType0 | None | Unset): Old role word to new role word, applied to the people's
            seats.
        variable_values (DocumentReviseInVariableValuesType0 | None | Unset):
    """

    source: DocumentReviseInSource
    facts: DocumentReviseInFactsType0 | None | Unset = UNSET
    role_map: DocumentReviseInRoleMapType0 | None | Unset = UNSET
    variable_values: DocumentReviseInVariableValuesType0 | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.document_revise_in_facts_type_0 import DocumentReviseInFactsType0
        from ..models.document_revise_in_role_map_type_0 import (
            DocumentReviseInRoleMapType0,
        )
        from ..models.document_revise_in_variable_values_type_0 import (
            DocumentReviseInVariableValuesType0,
        )

        source = self.source.to_dict()

        facts: dict[str, Any] | None | Unset
        if isinstance(self.facts, Unset):
            facts = UNSET
        elif isinstance(self.facts, DocumentReviseInFactsType0):
            facts = self.facts.to_dict()
        else:
            facts = self.facts

        role_map: dict[str, Any] | None | Unset
        if isinstance(self.role_map, Unset):
            role_map = UNSET
        elif isinstance(self.role_map, DocumentReviseInRoleMapType0):
            role_map = self.role_map.to_dict()
        else:
            role_map = self.role_map

        variable_values: dict[str, Any] | None | Unset
        if isinstance(self.variable_values, Unset):
            variable_values = UNSET
        elif isinstance(self.variable_values, DocumentReviseInVariableValuesType0):
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
        if role_map is not UNSET:
            field_dict["roleMap"] = role_map
        if variable_values is not UNSET:
            field_dict["variableValues"] = variable_values

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.document_revise_in_facts_type_0 import DocumentReviseInFactsType0
        from ..models.document_revise_in_role_map_type_0 import (
            DocumentReviseInRoleMapType0,
        )
        from ..models.document_revise_in_source import DocumentReviseInSource
        from ..models.document_revise_in_variable_values_type_0 import (
            DocumentReviseInVariableValuesType0,
        )

        d = dict(src_dict)
        source = DocumentReviseInSource.from_dict(d.pop("source"))

        def _parse_facts(data: object) -> DocumentReviseInFactsType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                facts_type_0 = DocumentReviseInFactsType0.from_dict(data)

                return facts_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DocumentReviseInFactsType0 | None | Unset, data)

        facts = _parse_facts(d.pop("facts", UNSET))

        def _parse_role_map(
            data: object,
        ) -> DocumentReviseInRoleMapType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                role_map_type_0 = DocumentReviseInRoleMapType0.from_dict(data)

                return role_map_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DocumentReviseInRoleMapType0 | None | Unset, data)

        role_map = _parse_role_map(d.pop("roleMap", UNSET))

        def _parse_variable_values(
            data: object,
        ) -> DocumentReviseInVariableValuesType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                variable_values_type_0 = DocumentReviseInVariableValuesType0.from_dict(
                    data
                )

                return variable_values_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DocumentReviseInVariableValuesType0 | None | Unset, data)

        variable_values = _parse_variable_values(d.pop("variableValues", UNSET))

        document_revise_in = cls(
            source=source,
            facts=facts,
            role_map=role_map,
            variable_values=variable_values,
        )

        return document_revise_in
