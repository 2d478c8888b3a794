from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="TestSignIn")


@_attrs_define
class TestSignIn:
    """
    Attributes:
        seat (str):
    """

    seat: str

    def to_dict(self) -> dict[str, Any]:
        seat = self.seat

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "seat": seat,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        seat = d.pop("seat")

        test_sign_in = cls(
            seat=seat,
        )

        return test_sign_in
