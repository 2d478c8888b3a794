from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.template_html_in_metadata_type_0 import TemplateHtmlInMetadataType0


T = TypeVar("T", bound="TemplateHtmlIn")


@_attrs_define
class TemplateHtmlIn:
    """
    Attributes:
        html (str): The page, up to 2 MB. Scripts, styles, frames, forms and remote addresses are removed
            (the answer's `warnings` say what); pictures must be `data:` addresses. A field is
            placed at each text tag: `{{Label;type=signature;role=client}}`.
        name (str):
        external_id (None | str | Unset):
        metadata (None | TemplateHtmlInMetadataType0 | Unset):
        paper (None | str | Unset): `letter` (default) or `a4`.
    """

    html: str
    name: str
    external_id: None | str | Unset = UNSET
    metadata: None | TemplateHtmlInMetadataType0 | Unset = UNSET
    paper: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.template_html_in_metadata_type_0 import (
            TemplateHtmlInMetadataType0,
        )

        html = self.html

        name = self.name

        external_id: None | str | Unset
        if isinstance(self.external_id, Unset):
            external_id = UNSET
        else:
            external_id = self.external_id

        metadata: dict[str, Any] | None | Unset
        if isinstance(self.metadata, Unset):
            metadata = UNSET
        elif isinstance(self.metadata, TemplateHtmlInMetadataType0):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

        paper: None | str | Unset
        if isinstance(self.paper, Unset):
            paper = UNSET
        else:
            paper = self.paper

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "html": html,
                "name": name,
            }
        )
        if external_id is not UNSET:
            field_dict["externalId"] = external_id
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if paper is not UNSET:
            field_dict["paper"] = paper

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.template_html_in_metadata_type_0 import (
            TemplateHtmlInMetadataType0,
        )

        d = dict(src_dict)
        html = d.pop("html")

        name = d.pop("name")

        def _parse_external_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        external_id = _parse_external_id(d.pop("externalId", UNSET))

        def _parse_metadata(data: object) -> None | TemplateHtmlInMetadataType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = TemplateHtmlInMetadataType0.from_dict(data)

                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TemplateHtmlInMetadataType0 | Unset, data)

        metadata = _parse_metadata(d.pop("metadata", UNSET))

        def _parse_paper(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        paper = _parse_paper(d.pop("paper", UNSET))

        template_html_in = cls(
            html=html,
            name=name,
            external_id=external_id,
            metadata=metadata,
            paper=paper,
        )

        return template_html_in
