from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="WebhookTestIn")


@_attrs_define
class WebhookTestIn:
    """
    Attributes:
        topic (None | str | Unset): The topic of the sample event; default the endpoint's first event type.
    """

    topic: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        topic: None | str | Unset
        if isinstance(self.topic, Unset):
            topic = UNSET
        else:
            topic = self.topic

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if topic is not UNSET:
            field_dict["topic"] = topic

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_topic(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        topic = _parse_topic(d.pop("topic", UNSET))

        webhook_test_in = cls(
            topic=topic,
        )

        return webhook_test_in
