from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.template_preview_in_source import TemplatePreviewInSource


T = TypeVar("T", bound="TemplatePreviewIn")


@_attrs_define
class TemplatePreviewIn:
    """Words not saved yet, to see as a signer would.

    Attributes:
        source (TemplatePreviewInSource):
        paper (None | str | Unset): `letter` (default) or `a4`.
        profile (None | str | Unset): `typeset` (default) or `contract`.
    """

    source: TemplatePreviewInSource
    paper: None | str | Unset = UNSET
    profile: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        source = self.source.to_dict()

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
            }
        )
        if paper is not UNSET:
            field_dict["paper"] = paper
        if profile is not UNSET:
            field_dict["profile"] = profile

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.template_preview_in_source import TemplatePreviewInSource

        d = dict(src_dict)
        source = TemplatePreviewInSource.from_dict(d.pop("source"))

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

        template_preview_in = cls(
            source=source,
            paper=paper,
            profile=profile,
        )

        return template_preview_in
