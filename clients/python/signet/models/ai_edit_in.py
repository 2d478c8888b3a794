from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.ai_edit_in_source import AiEditInSource
    from ..models.ai_edit_in_variables_type_0_item import AiEditInVariablesType0Item


T = TypeVar("T", bound="AiEditIn")


@_attrs_define
class AiEditIn:
    """
    Attributes:
        request (str): The change wanted, in a person's words (up to 8,000 characters).
        source (AiEditInSource): The words to change, in the source model (what POST /documents takes).
        mode (None | str | Unset): `document` (the default) or `template`.
        variables (list[AiEditInVariablesType0Item] | None | Unset): The template's questions to propose answers for:
            objects with `name` (the
            `custom.<key>` key), and optionally `label` and `value`.
    """

    request: str
    source: AiEditInSource
    mode: None | str | Unset = UNSET
    variables: list[AiEditInVariablesType0Item] | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        request = self.request

        source = self.source.to_dict()

        mode: None | str | Unset
        if isinstance(self.mode, Unset):
            mode = UNSET
        else:
            mode = self.mode

        variables: list[dict[str, Any]] | None | Unset
        if isinstance(self.variables, Unset):
            variables = UNSET
        elif isinstance(self.variables, list):
            variables = []
            for variables_type_0_item_data in self.variables:
                variables_type_0_item = variables_type_0_item_data.to_dict()
                variables.append(variables_type_0_item)

        else:
            variables = self.variables

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "request": request,
                "source": source,
            }
        )
        if mode is not UNSET:
            field_dict["mode"] = mode
        if variables is not UNSET:
            field_dict["variables"] = variables

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.ai_edit_in_source import AiEditInSource
        from ..models.ai_edit_in_variables_type_0_item import AiEditInVariablesType0Item

        d = dict(src_dict)
        request = d.pop("request")

        source = AiEditInSource.from_dict(d.pop("source"))

        def _parse_mode(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        mode = _parse_mode(d.pop("mode", UNSET))

        def _parse_variables(
            data: object,
        ) -> list[AiEditInVariablesType0Item] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                variables_type_0 = []
                _variables_type_0 = data
                for variables_type_0_item_data in _variables_type_0:
                    variables_type_0_item = AiEditInVariablesType0Item.from_dict(
                        variables_type_0_item_data
                    )

                    variables_type_0.append(variables_type_0_item)

                return variables_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[AiEditInVariablesType0Item] | None | Unset, data)

        variables = _parse_variables(d.pop("variables", UNSET))

        ai_edit_in = cls(
            request=request,
            source=source,
            mode=mode,
            variables=variables,
        )

        return ai_edit_in
