from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="WebhookCreateIn")


@_attrs_define
class WebhookCreateIn:
    """
    Attributes:
        event_types (list[str]): Topics from GET /webhooks/topics; at least one.
        name (None | str | Unset): A name to tell endpoints apart, up to 200 characters.
        relay (bool | None | Unset): Keep signed deliveries for `signet listen` instead of posting them.
        url (None | str | Unset): A public https address. Leave out when `relay` is true.
    """

    event_types: list[str]
    name: None | str | Unset = UNSET
    relay: bool | None | Unset = UNSET
    url: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        event_types = self.event_types

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        relay: bool | None | Unset
        if isinstance(self.relay, Unset):
            relay = UNSET
        else:
            relay = self.relay

        url: None | str | Unset
        if isinstance(self.url, Unset):
            url = UNSET
        else:
            url = self.url

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "eventTypes": event_types,
            }
        )
        if name is not UNSET:
            field_dict["name"] = name
        if relay is not UNSET:
            field_dict["relay"] = relay
        if url is not UNSET:
            field_dict["url"] = url

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        event_types = cast(list[str], d.pop("eventTypes"))

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        def _parse_relay(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        relay = _parse_relay(d.pop("relay", UNSET))

        def _parse_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        url = _parse_url(d.pop("url", UNSET))

        webhook_create_in = cls(
            event_types=event_types,
            name=name,
            relay=relay,
            url=url,
        )

        return webhook_create_in
