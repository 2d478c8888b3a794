from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="UsageCounterOut")


@_attrs_define
class UsageCounterOut:
    """
    Attributes:
        period_start (str): Start of the period (UTC, RFC 3339).
        resets_at (str): When the counter starts again from zero (UTC, RFC 3339).
        used (int): How many were used in this period.
        limit (int | None | Unset): The plan's allowance for the period; null when the plan has none.
    """

    period_start: str
    resets_at: str
    used: int
    limit: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        period_start = self.period_start

        resets_at = self.resets_at

        used = self.used

        limit: int | None | Unset
        if isinstance(self.limit, Unset):
            limit = UNSET
        else:
            limit = self.limit

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "periodStart": period_start,
                "resetsAt": resets_at,
                "used": used,
            }
        )
        if limit is not UNSET:
            field_dict["limit"] = limit

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        period_start = d.pop("periodStart")

        resets_at = d.pop("resetsAt")

        used = d.pop("used")

        def _parse_limit(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        limit = _parse_limit(d.pop("limit", UNSET))

        usage_counter_out = cls(
            period_start=period_start,
            resets_at=resets_at,
            used=used,
            limit=limit,
        )

        usage_counter_out.additional_properties = d
        return usage_counter_out

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
