from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="PlayPublishIn")


@_attrs_define
class PlayPublishIn:
    """
    Attributes:
        version (int): The version drafts will use from now on.
    """

    version: int

    def to_dict(self) -> dict[str, Any]:
        version = self.version

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "version": version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        version = d.pop("version")

        play_publish_in = cls(
            version=version,
        )

        return play_publish_in
