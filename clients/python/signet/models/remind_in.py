from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="RemindIn")


@_attrs_define
class RemindIn:
    """
    Attributes:
        seat (None | str | Unset): Remind only this seat; omit to remind everyone who is up.
    """

    seat: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        seat: None | str | Unset
        if isinstance(self.seat, Unset):
            seat = UNSET
        else:
            seat = self.seat

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if seat is not UNSET:
            field_dict["seat"] = seat

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_seat(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        seat = _parse_seat(d.pop("seat", UNSET))

        remind_in = cls(
            seat=seat,
        )

        return remind_in
