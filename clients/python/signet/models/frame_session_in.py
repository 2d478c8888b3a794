from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="FrameSessionIn")


@_attrs_define
class FrameSessionIn:
    """
    Attributes:
        origin (str): The website the frame is shown on (`https://app.example.com`), one of the workspace's
            allowed websites.
        name (None | str | Unset): The builder: the new template's starting name. Scribe: the draft's title.
    """

    origin: str
    name: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        origin = self.origin

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "origin": origin,
            }
        )
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        origin = d.pop("origin")

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        frame_session_in = cls(
            origin=origin,
            name=name,
        )

        return frame_session_in
