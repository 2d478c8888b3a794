from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="WebhookTestOut")


@_attrs_define
class WebhookTestOut:
    """
    Attributes:
        delivered (bool): True when the receiver answered 2xx within 15 seconds.
        duration_ms (int):
        relayed (bool): True for a relay endpoint: the sample was put in its relay feed instead.
        result (str): What happened, in words: `200 OK`, `timed out after 15 s`, a refused address...
        webhook_id (str): The sample's `webhook-id`.
        response_status (int | None | Unset): The receiver's HTTP status, when it answered.
    """

    delivered: bool
    duration_ms: int
    relayed: bool
    result: str
    webhook_id: str
    response_status: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        delivered = self.delivered

        duration_ms = self.duration_ms

        relayed = self.relayed

        result = self.result

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
                "delivered": delivered,
                "durationMs": duration_ms,
                "relayed": relayed,
                "result": result,
                "webhookId": webhook_id,
            }
        )
        if response_status is not UNSET:
            field_dict["responseStatus"] = response_status

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        delivered = d.pop("delivered")

        duration_ms = d.pop("durationMs")

        relayed = d.pop("relayed")

        result = d.pop("result")

        webhook_id = d.pop("webhookId")

        def _parse_response_status(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        response_status = _parse_response_status(d.pop("responseStatus", UNSET))

        webhook_test_out = cls(
            delivered=delivered,
            duration_ms=duration_ms,
            relayed=relayed,
            result=result,
            webhook_id=webhook_id,
            response_status=response_status,
        )

        webhook_test_out.additional_properties = d
        return webhook_test_out

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
