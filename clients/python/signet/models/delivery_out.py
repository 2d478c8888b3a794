from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="DeliveryOut")


@_attrs_define
class DeliveryOut:
    """A delivery queued again by a replay.

    Attributes:
        created_at (str):
        event_type (str):
        id (str):
        replay (bool):
        state (str): `pending` (waiting for its next try), `sending`, `delivered`, `failed` (gave up),
            `cancelled` (the endpoint was removed or disabled), or `stored`
            (waiting in a relay feed).
        webhook_id (str):
    """

    created_at: str
    event_type: str
    id: str
    replay: bool
    state: str
    webhook_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at

        event_type = self.event_type

        id = self.id

        replay = self.replay

        state = self.state

        webhook_id = self.webhook_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "eventType": event_type,
                "id": id,
                "replay": replay,
                "state": state,
                "webhookId": webhook_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        created_at = d.pop("createdAt")

        event_type = d.pop("eventType")

        id = d.pop("id")

        replay = d.pop("replay")

        state = d.pop("state")

        webhook_id = d.pop("webhookId")

        delivery_out = cls(
            created_at=created_at,
            event_type=event_type,
            id=id,
            replay=replay,
            state=state,
            webhook_id=webhook_id,
        )

        delivery_out.additional_properties = d
        return delivery_out

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
