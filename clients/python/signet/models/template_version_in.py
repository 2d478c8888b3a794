from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.template_version_in_source import TemplateVersionInSource


T = TypeVar("T", bound="TemplateVersionIn")


@_attrs_define
class TemplateVersionIn:
    """The next version of a template made from words.

    Attributes:
        source (TemplateVersionInSource): The whole new source, as for `POST /templates/source`.
        version (int): The version the words were written from (`version` of `GET /templates/{id}/source`):
            a template saved by someone else since is a 409, and nothing is lost.
        name (None | str | Unset): A new name; the old one stays when left out.
        paper (None | str | Unset): `letter` or `a4`; the current one when left out.
        profile (None | str | Unset): `typeset` or `contract`; the current one when left out.
    """

    source: TemplateVersionInSource
    version: int
    name: None | str | Unset = UNSET
    paper: None | str | Unset = UNSET
    profile: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        source = self.source.to_dict()

        version = self.version

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        paper: None | str | Unset
        if isinstance(self.paper, Unset):
            paper = UNSET
        else:
            paper = self.paper

        profile: None | str | Unset
        if isinstance(self.profile, Unset):
            profile = UNSET
        else:
            profile = self.profile

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "source": source,
                "version": version,
            }
        )
        if name is not UNSET:
            field_dict["name"] = name
        if paper is not UNSET:
            field_dict["paper"] = paper
        if profile is not UNSET:
            field_dict["profile"] = profile

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.template_version_in_source import TemplateVersionInSource

        d = dict(src_dict)
        source = TemplateVersionInSource.from_dict(d.pop("source"))

        version = d.pop("version")

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        def _parse_paper(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        paper = _parse_paper(d.pop("paper", UNSET))

        def _parse_profile(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        profile = _parse_profile(d.pop("profile", UNSET))

        template_version_in = cls(
            source=source,
            version=version,
            name=name,
            paper=paper,
            profile=profile,
        )

        return template_version_in
