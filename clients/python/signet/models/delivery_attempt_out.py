from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="DeliveryAttemptOut")


@_attrs_define
class DeliveryAttemptOut:
    """One attempt to deliver one event to one endpoint.

    Attributes:
        created_at (str):
        delivery_id (str): The delivery (one event to this endpoint) the attempt belongs to; replay takes it.
        duration_ms (int):
        event_type (str):
        id (str):
        result (str):
        succeeded (bool):
        try_ (int): Which try this was: 1 for the first.
        webhook_id (str): The `webhook-id` header, the same on every try and replay of the event.
        response_status (int | None | Unset):
    """

    created_at: str
    delivery_id: str
    duration_ms: int
    event_type: str
    id: str
    result: str
    succeeded: bool
    try_: int
    webhook_id: str
    response_status: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at

        delivery_id = self.delivery_id

        duration_ms = self.duration_ms

        event_type = self.event_type

        id = self.id

        result = self.result

        succeeded = self.succeeded

        try_ = self.try_

        webhook_id = self.webhook_id

        response_status: int | None | Unset
        if isinstance(self.response_status, Unset):
            response_status = UNSET
        else:
            response_status = self.response_status

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "deliveryId": delivery_id,
                "durationMs": duration_ms,
                "eventType": event_type,
                "id": id,
                "result": result,
                "succeeded": succeeded,
                "try": try_,
                "webhookId": webhook_id,
            }
        )
        if response_status is not UNSET:
            field_dict["responseStatus"] = response_status

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        created_at = d.pop("createdAt")

        delivery_id = d.pop("deliveryId")

        duration_ms = d.pop("durationMs")

        event_type = d.pop("eventType")

        id = d.pop("id")

        result = d.pop("result")

        succeeded = d.pop("succeeded")

        try_ = d.pop("try")

        webhook_id = d.pop("webhookId")

        def _parse_response_status(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        response_status = _parse_response_status(d.pop("responseStatus", UNSET))

        delivery_attempt_out = cls(
            created_at=created_at,
            delivery_id=delivery_id,
            duration_ms=duration_ms,
            event_type=event_type,
            id=id,
            result=result,
            succeeded=succeeded,
            try_=try_,
            webhook_id=webhook_id,
            response_status=response_status,
        )

        delivery_attempt_out.additional_properties = d
        return delivery_attempt_out

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
