from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.report_day_out import ReportDayOut


T = TypeVar("T", bound="ReportOut")


@_attrs_define
class ReportOut:
    """
    Attributes:
        completed (int): Real documents completed in the window: every seat signed and the record sealed.
        days (list[ReportDayOut]): The same counts for each day of the window, oldest first.
        from_ (str): First day of the window (YYYY-MM-DD), in `timeZone`.
        sent (int): Real documents sent in the window (voided or declined since or not).
        time_zone (str): The workspace's time zone, in which the days begin and end.
        to (str): Last day of the window, included.
        team (None | str | Unset): The team the counts are narrowed to: documents whose sender is one of its members.
    """

    completed: int
    days: list[ReportDayOut]
    from_: str
    sent: int
    time_zone: str
    to: str
    team: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        completed = self.completed

        days = []
        for days_item_data in self.days:
            days_item = days_item_data.to_dict()
            days.append(days_item)

        from_ = self.from_

        sent = self.sent

        time_zone = self.time_zone

        to = self.to

        team: None | str | Unset
        if isinstance(self.team, Unset):
            team = UNSET
        else:
            team = self.team

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "completed": completed,
                "days": days,
                "from": from_,
                "sent": sent,
                "timeZone": time_zone,
                "to": to,
            }
        )
        if team is not UNSET:
            field_dict["team"] = team

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.report_day_out import ReportDayOut

        d = dict(src_dict)
        completed = d.pop("completed")

        days = []
        _days = d.pop("days")
        for days_item_data in _days:
            days_item = ReportDayOut.from_dict(days_item_data)

            days.append(days_item)

        from_ = d.pop("from")

        sent = d.pop("sent")

        time_zone = d.pop("timeZone")

        to = d.pop("to")

        def _parse_team(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        team = _parse_team(d.pop("team", UNSET))

        report_out = cls(
            completed=completed,
            days=days,
            from_=from_,
            sent=sent,
            time_zone=time_zone,
            to=to,
            team=team,
        )

        report_out.additional_properties = d
        return report_out

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
