from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.template_source_in_metadata_type_0 import (
        TemplateSourceInMetadataType0,
    )
    from ..models.template_source_in_source import TemplateSourceInSource


T = TypeVar("T", bound="TemplateSourceIn")


@_attrs_define
class TemplateSourceIn:
    """
    Attributes:
        name (str):
        source (TemplateSourceInSource): The rich-text source, as for documents: `{"type": "doc", "content": [...]}`.
            Its roles
            are the template's seats; its unanswered `custom.<key>` chips are its questions.
        external_id (None | str | Unset):
        metadata (None | TemplateSourceInMetadataType0 | Unset):
        paper (None | str | Unset): `letter` (default) or `a4`.
        profile (None | str | Unset): `typeset` (default) or `contract`.
    """

    name: str
    source: TemplateSourceInSource
    external_id: None | str | Unset = UNSET
    metadata: None | TemplateSourceInMetadataType0 | Unset = UNSET
    paper: None | str | Unset = UNSET
    profile: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.template_source_in_metadata_type_0 import (
            TemplateSourceInMetadataType0,
        )

        name = self.name

        source = self.source.to_dict()

        external_id: None | str | Unset
        if isinstance(self.external_id, Unset):
            external_id = UNSET
        else:
            external_id = self.external_id

        metadata: dict[str, Any] | None | Unset
        if isinstance(self.metadata, Unset):
            metadata = UNSET
        elif isinstance(self.metadata, TemplateSourceInMetadataType0):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

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
                "name": name,
                "source": source,
            }
        )
        if external_id is not UNSET:
            field_dict["externalId"] = external_id
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if paper is not UNSET:
            field_dict["paper"] = paper
        if profile is not UNSET:
            field_dict["profile"] = profile

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.template_source_in_metadata_type_0 import (
            TemplateSourceInMetadataType0,
        )
        from ..models.template_source_in_source import TemplateSourceInSource

        d = dict(src_dict)
        name = d.pop("name")

        source = TemplateSourceInSource.from_dict(d.pop("source"))

        def _parse_external_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        external_id = _parse_external_id(d.pop("externalId", UNSET))

        def _parse_metadata(
            data: object,
        ) -> None | TemplateSourceInMetadataType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = TemplateSourceInMetadataType0.from_dict(data)

                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TemplateSourceInMetadataType0 | Unset, data)

        metadata = _parse_metadata(d.pop("metadata", UNSET))

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

        template_source_in = cls(
            name=name,
            source=source,
            external_id=external_id,
            metadata=metadata,
            paper=paper,
            profile=profile,
        )

        return template_source_in
