from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="PlayDuplicateIn")


@_attrs_define
class PlayDuplicateIn:
    """
    Attributes:
        as_ (str): The new play's name: 2 to 64 lower-case letters, digits, `-` and `_`, starting with a
            letter.
    """

    as_: str

    def to_dict(self) -> dict[str, Any]:
        as_ = self.as_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "as": as_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        as_ = d.pop("as")

        play_duplicate_in = cls(
            as_=as_,
        )

        return play_duplicate_in
