from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.field_area_out import FieldAreaOut


T = TypeVar("T", bound="TemplateFieldOut")


@_attrs_define
class TemplateFieldOut:
    """
    Attributes:
        areas (list[FieldAreaOut]): Where the field is, for a template laid out when it was made (from HTML): its page
            and rectangle. Empty for a template made from words, which is laid out per document.
        name (str):
        required (bool):
        role (str): The seat that fills it in.
        type_ (str):
    """

    areas: list[FieldAreaOut]
    name: str
    required: bool
    role: str
    type_: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        areas = []
        for areas_item_data in self.areas:
            areas_item = areas_item_data.to_dict()
            areas.append(areas_item)

        name = self.name

        required = self.required

        role = self.role

        type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "areas": areas,
                "name": name,
                "required": required,
                "role": role,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.field_area_out import FieldAreaOut

        d = dict(src_dict)
        areas = []
        _areas = d.pop("areas")
        for areas_item_data in _areas:
            areas_item = FieldAreaOut.from_dict(areas_item_data)

            areas.append(areas_item)

        name = d.pop("name")

        required = d.pop("required")

        role = d.pop("role")

        type_ = d.pop("type")

        template_field_out = cls(
            areas=areas,
            name=name,
            required=required,
            role=role,
            type_=type_,
        )

        template_field_out.additional_properties = d
        return template_field_out

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
