from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PlaySummaryOut")


@_attrs_define
class PlaySummaryOut:
    """
    Attributes:
        built_in (bool): Shipped with Signet, the same for every workspace; duplicate it to change it.
        category (str):
        description (str): One line.
        kind (str): `document` or `template`.
        language (str):
        name (str):
        title (str):
        version (int): The version drafts use.
    """

    built_in: bool
    category: str
    description: str
    kind: str
    language: str
    name: str
    title: str
    version: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        built_in = self.built_in

        category = self.category

        description = self.description

        kind = self.kind

        language = self.language

        name = self.name

        title = self.title

        version = self.version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "builtIn": built_in,
                "category": category,
                "description": description,
                "kind": kind,
                "language": language,
                "name": name,
                "title": title,
                "version": version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        built_in = d.pop("builtIn")

        category = d.pop("category")

        description = d.pop("description")

        kind = d.pop("kind")

        language = d.pop("language")

        name = d.pop("name")

        title = d.pop("title")

        version = d.pop("version")

        play_summary_out = cls(
            built_in=built_in,
            category=category,
            description=description,
            kind=kind,
            language=language,
            name=name,
            title=title,
            version=version,
        )

        play_summary_out.additional_properties = d
        return play_summary_out

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
