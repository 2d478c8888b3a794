from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="WebhookOut")


@_attrs_define
class WebhookOut:
    """
    Attributes:
        created_at (str):
        event_types (list[str]):
        id (str):
        relay (bool):
        state (str): `enabled`, `disabled` (after a 410 or 5 days of unbroken failure) or `deleted`.
        test (bool): True for an endpoint of a test key: it receives events of test documents only.
        disabled_reason (None | str | Unset): Why the endpoint was disabled.
        name (None | str | Unset):
        previous_secret_expires_at (None | str | Unset): While a rotation window is open: when the previous secret stops
            signing.
        secret (None | str | Unset): Only in the answers of create and rotate: shown once, never again.
        url (None | str | Unset): Where deliveries are posted; null for a relay endpoint.
    """

    created_at: str
    event_types: list[str]
    id: str
    relay: bool
    state: str
    test: bool
    disabled_reason: None | str | Unset = UNSET
    name: None | str | Unset = UNSET
    previous_secret_expires_at: None | str | Unset = UNSET
    secret: None | str | Unset = UNSET
    url: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at

        event_types = self.event_types

        id = self.id

        relay = self.relay

        state = self.state

        test = self.test

        disabled_reason: None | str | Unset
        if isinstance(self.disabled_reason, Unset):
            disabled_reason = UNSET
        else:
            disabled_reason = self.disabled_reason

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        previous_secret_expires_at: None | str | Unset
        if isinstance(self.previous_secret_expires_at, Unset):
            previous_secret_expires_at = UNSET
        else:
            previous_secret_expires_at = self.previous_secret_expires_at

        secret: None | str | Unset
        if isinstance(self.secret, Unset):
            secret = UNSET
        else:
            secret = self.secret

        url: None | str | Unset
        if isinstance(self.url, Unset):
            url = UNSET
        else:
            url = self.url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "eventTypes": event_types,
                "id": id,
                "relay": relay,
                "state": state,
                "test": test,
            }
        )
        if disabled_reason is not UNSET:
            field_dict["disabledReason"] = disabled_reason
        if name is not UNSET:
            field_dict["name"] = name
        if previous_secret_expires_at is not UNSET:
            field_dict["previousSecretExpiresAt"] = previous_secret_expires_at
        if secret is not UNSET:
            field_dict["secret"] = secret
        if url is not UNSET:
            field_dict["url"] = url

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        created_at = d.pop("createdAt")

        event_types = cast(list[str], d.pop("eventTypes"))

        id = d.pop("id")

        relay = d.pop("relay")

        state = d.pop("state")

        test = d.pop("test")

        def _parse_disabled_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        disabled_reason = _parse_disabled_reason(d.pop("disabledReason", UNSET))

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        def _parse_previous_secret_expires_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        previous_secret_expires_at = _parse_previous_secret_expires_at(
            d.pop("previousSecretExpiresAt", UNSET)
        )

        def _parse_secret(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        secret = _parse_secret(d.pop("secret", UNSET))

        def _parse_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        url = _parse_url(d.pop("url", UNSET))

        webhook_out = cls(
            created_at=created_at,
            event_types=event_types,
            id=id,
            relay=relay,
            state=state,
            test=test,
            disabled_reason=disabled_reason,
            name=name,
            previous_secret_expires_at=previous_secret_expires_at,
            secret=secret,
            url=url,
        )

        webhook_out.additional_properties = d
        return webhook_out

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
