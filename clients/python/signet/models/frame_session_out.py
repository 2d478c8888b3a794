from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="FrameSessionOut")


@_attrs_define
class FrameSessionOut:
    """
    Attributes:
        expires_at (str):
        frame (str): `builder` or `scribe`.
        origin (str):
        url (str): The frame's page, for an iframe or `<signet-builder url="...">` /
            `<signet-scribe url="...">`. It works once, for an hour, on `origin` only. Never log
            it or put it in a URL your users can share.
        name (None | str | Unset):
    """

    expires_at: str
    frame: str
    origin: str
    url: str
    name: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        expires_at = self.expires_at

        frame = self.frame

        origin = self.origin

        url = self.url

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "expiresAt": expires_at,
                "frame": frame,
                "origin": origin,
                "url": url,
            }
        )
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        expires_at = d.pop("expiresAt")

        frame = d.pop("frame")

        origin = d.pop("origin")

        url = d.pop("url")

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        frame_session_out = cls(
            expires_at=expires_at,
            frame=frame,
            origin=origin,
            url=url,
            name=name,
        )

        frame_session_out.additional_properties = d
        return frame_session_out

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
