from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PlaybookIn")


@_attrs_define
class PlaybookIn:
    """
    Attributes:
        name (str): 2 to 64 lower-case letters, digits, `-` and `_`, starting with a letter. Saving a name
            again replaces that playbook.
        plays (list[str]): 1 to 20 play names, each built in or the workspace's (not archived), in the order
            Scribe offers them.
        title (str): Up to 120 characters.
        description (None | str | Unset): One line, up to 200 characters.
    """

    name: str
    plays: list[str]
    title: str
    description: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        plays = self.plays

        title = self.title

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "plays": plays,
                "title": title,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        plays = cast(list[str], d.pop("plays"))

        title = d.pop("title")

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        playbook_in = cls(
            name=name,
            plays=plays,
            title=title,
            description=description,
        )

        return playbook_in
