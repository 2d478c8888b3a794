from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="FieldAreaOut")


@_attrs_define
class FieldAreaOut:
    """A field's place: its page (from 1) and rectangle in points from the page's top-left
    corner.

        Attributes:
            height (float):
            page (int):
            width (float):
            x (float):
            y (float):
    """

    height: float
    page: int
    width: float
    x: float
    y: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        height = self.height

        page = self.page

        width = self.width

        x = self.x

        y = self.y

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "height": height,
                "page": page,
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

        page = d.pop("page")

        width = d.pop("width")

        x = d.pop("x")

        y = d.pop("y")

        field_area_out = cls(
            height=height,
            page=page,
            width=width,
            x=x,
            y=y,
        )

        field_area_out.additional_properties = d
        return field_area_out

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
