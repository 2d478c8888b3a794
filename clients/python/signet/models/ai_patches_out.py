from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.ai_change_out import AiChangeOut
    from ..models.ai_value_out import AiValueOut


T = TypeVar("T", bound="AiPatchesOut")


@_attrs_define
class AiPatchesOut:
    """
    Attributes:
        applied (list[AiChangeOut]):
        notes (list[str]):
        values (list[AiValueOut]):
    """

    applied: list[AiChangeOut]
    notes: list[str]
    values: list[AiValueOut]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        applied = []
        for applied_item_data in self.applied:
            applied_item = applied_item_data.to_dict()
            applied.append(applied_item)

        notes = self.notes

        values = []
        for values_item_data in self.values:
            values_item = values_item_data.to_dict()
            values.append(values_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "applied": applied,
                "notes": notes,
                "values": values,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.ai_change_out import AiChangeOut
        from ..models.ai_value_out import AiValueOut

        d = dict(src_dict)
        applied = []
        _applied = d.pop("applied")
        for applied_item_data in _applied:
            applied_item = AiChangeOut.from_dict(applied_item_data)

            applied.append(applied_item)

        notes = cast(list[str], d.pop("notes"))

        values = []
        _values = d.pop("values")
        for values_item_data in _values:
            values_item = AiValueOut.from_dict(values_item_data)

            values.append(values_item)

        ai_patches_out = cls(
            applied=applied,
            notes=notes,
            values=values,
        )

        ai_patches_out.additional_properties = d
        return ai_patches_out

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
