from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PreviewFieldOut")


@_attrs_define
class PreviewFieldOut:
    """
    Attributes:
        height (float):
        name (str):
        page (int):
        role (str):
        type_ (str):
        width (float):
        x (float):
        y (float):
    """

    height: float
    name: str
    page: int
    role: str
    type_: str
    width: float
    x: float
    y: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        height = self.height

        name = self.name

        page = self.page

        role = self.role

        type_ = self.type_

        width = self.width

        x = self.x

        y = self.y

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "height": height,
                "name": name,
                "page": page,
                "role": role,
                "type": type_,
                "width": width,
                "x": x,
                "y": y,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        height = d.pop("height")

        name = d.pop("name")

        page = d.pop("page")

        role = d.pop("role")

        type_ = d.pop("type")

        width = d.pop("width")

        x = d.pop("x")

        y = d.pop("y")

        preview_field_out = cls(
            height=height,
            name=name,
            page=page,
            role=role,
            type_=type_,
            width=width,
            x=x,
            y=y,
        )

        preview_field_out.additional_properties = d
        return preview_field_out

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
