from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.template_source_out_source import TemplateSourceOutSource


T = TypeVar("T", bound="TemplateSourceOut")


@_attrs_define
class TemplateSourceOut:
    """A template's words as saved, to write its next version from.

    Attributes:
        id (str):
        kind (str): `source` for templates from words; the others keep a file's pages (`source.file`).
        name (str):
        paper (str):
        profile (str):
        source (TemplateSourceOutSource):
        version (int): The version these words are: give it back as `version` when saving the next one.
    """

    id: str
    kind: str
    name: str
    paper: str
    profile: str
    source: TemplateSourceOutSource
    version: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        kind = self.kind

        name = self.name

        paper = self.paper

        profile = self.profile

        source = self.source.to_dict()

        version = self.version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "kind": kind,
                "name": name,
                "paper": paper,
                "profile": profile,
                "source": source,
                "version": version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.template_source_out_source import TemplateSourceOutSource

        d = dict(src_dict)
        id = d.pop("id")

        kind = d.pop("kind")

        name = d.pop("name")

        paper = d.pop("paper")

        profile = d.pop("profile")

        source = TemplateSourceOutSource.from_dict(d.pop("source"))

        version = d.pop("version")

        template_source_out = cls(
            id=id,
            kind=kind,
            name=name,
            paper=paper,
            profile=profile,
            source=source,
            version=version,
        )

        template_source_out.additional_properties = d
        return template_source_out

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
