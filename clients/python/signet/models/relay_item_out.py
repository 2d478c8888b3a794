from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.header_out import HeaderOut


T = TypeVar("T", bound="RelayItemOut")


@_attrs_define
class RelayItemOut:
    """A stored delivery of a relay endpoint, ready to forward.

    Attributes:
        body (str): The exact body to forward.
        created_at (str):
        event_type (str):
        headers (list[HeaderOut]): The exact headers to forward; signed when fetched, so the timestamp is fresh.
        id (str): Pass as `after` to get what came later.
        webhook_id (str):
    """

    body: str
    created_at: str
    event_type: str
    headers: list[HeaderOut]
    id: str
    webhook_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        body = self.body

        created_at = self.created_at

        event_type = self.event_type

        headers = []
        for headers_item_data in self.headers:
            headers_item = headers_item_data.to_dict()
            headers.append(headers_item)

        id = self.id

        webhook_id = self.webhook_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "body": body,
                "createdAt": created_at,
                "eventType": event_type,
                "headers": headers,
                "id": id,
                "webhookId": webhook_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.header_out import HeaderOut

        d = dict(src_dict)
        body = d.pop("body")

        created_at = d.pop("createdAt")

        event_type = d.pop("eventType")

        headers = []
        _headers = d.pop("headers")
        for headers_item_data in _headers:
            headers_item = HeaderOut.from_dict(headers_item_data)

            headers.append(headers_item)

        id = d.pop("id")

        webhook_id = d.pop("webhookId")

        relay_item_out = cls(
            body=body,
            created_at=created_at,
            event_type=event_type,
            headers=headers,
            id=id,
            webhook_id=webhook_id,
        )

        relay_item_out.additional_properties = d
        return relay_item_out

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
