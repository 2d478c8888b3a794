from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="EmbedSessionIn")


@_attrs_define
class EmbedSessionIn:
    """
    Attributes:
        origin (str): The website the frame is shown on (`https://app.example.com`), one of the workspace's
            allowed websites.
        seat (str): The seat signed in your app: one listed in the document's `embedded`.
    """

    origin: str
    seat: str

    def to_dict(self) -> dict[str, Any]:
        origin = self.origin

        seat = self.seat

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "origin": origin,
                "seat": seat,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        origin = d.pop("origin")

        seat = d.pop("seat")

        embed_session_in = cls(
            origin=origin,
            seat=seat,
        )

        return embed_session_in
