from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="WebhookRotateIn")


@_attrs_define
class WebhookRotateIn:
    """
    Attributes:
        window_hours (int | None | Unset): Hours during which the old secret still signs too: 0 to 720, default 24.
    """

    window_hours: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        window_hours: int | None | Unset
        if isinstance(self.window_hours, Unset):
            window_hours = UNSET
        else:
            window_hours = self.window_hours

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if window_hours is not UNSET:
            field_dict["windowHours"] = window_hours

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_window_hours(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        window_hours = _parse_window_hours(d.pop("windowHours", UNSET))

        webhook_rotate_in = cls(
            window_hours=window_hours,
        )

        return webhook_rotate_in
