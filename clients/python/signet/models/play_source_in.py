from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="PlaySourceIn")


@_attrs_define
class PlaySourceIn:
    """
    Attributes:
        source (str): The play file: a YAML header between two `---` lines, then the words in Markdown
            (docs/plays.md). At most 256 KB.
    """

    source: str

    def to_dict(self) -> dict[str, Any]:
        source = self.source

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "source": source,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        source = d.pop("source")

        play_source_in = cls(
            source=source,
        )

        return play_source_in
