from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.template_file_in_metadata_type_0 import TemplateFileInMetadataType0


T = TypeVar("T", bound="TemplateFileIn")


@_attrs_define
class TemplateFileIn:
    """
    Attributes:
        file (str): The file, base64: a PDF with text tags, up to 10 MB.
        file_name (str): The file's name, kept for people; its kind is read from its bytes.
        name (str):
        external_id (None | str | Unset):
        metadata (None | TemplateFileInMetadataType0 | Unset):
        place_fields (bool | None | Unset): An addition: take a file without text tags, whose fields are placed
            afterwards (the
            builder's drag and drop, saved with `POST /templates/{id}/versions`). Until a version
            names a seat the template has none and is not listed for sending.
    """

    file: str
    file_name: str
    name: str
    external_id: None | str | Unset = UNSET
    metadata: None | TemplateFileInMetadataType0 | Unset = UNSET
    place_fields: bool | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.template_file_in_metadata_type_0 import (
            TemplateFileInMetadataType0,
        )

        file = self.file

        file_name = self.file_name

        name = self.name

        external_id: None | str | Unset
        if isinstance(self.external_id, Unset):
            external_id = UNSET
        else:
            external_id = self.external_id

        metadata: dict[str, Any] | None | Unset
        if isinstance(self.metadata, Unset):
            metadata = UNSET
        elif isinstance(self.metadata, TemplateFileInMetadataType0):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

        place_fields: bool | None | Unset
        if isinstance(self.place_fields, Unset):
            place_fields = UNSET
        else:
            place_fields = self.place_fields

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "file": file,
                "fileName": file_name,
                "name": name,
            }
        )
        if external_id is not UNSET:
            field_dict["externalId"] = external_id
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if place_fields is not UNSET:
            field_dict["placeFields"] = place_fields

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.template_file_in_metadata_type_0 import (
            TemplateFileInMetadataType0,
        )

        d = dict(src_dict)
        file = d.pop("file")

        file_name = d.pop("fileName")

        name = d.pop("name")

        def _parse_external_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        external_id = _parse_external_id(d.pop("externalId", UNSET))

        def _parse_metadata(data: object) -> None | TemplateFileInMetadataType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = TemplateFileInMetadataType0.from_dict(data)

                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TemplateFileInMetadataType0 | Unset, data)

        metadata = _parse_metadata(d.pop("metadata", UNSET))

        def _parse_place_fields(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        place_fields = _parse_place_fields(d.pop("placeFields", UNSET))

        template_file_in = cls(
            file=file,
            file_name=file_name,
            name=name,
            external_id=external_id,
            metadata=metadata,
            place_fields=place_fields,
        )

        return template_file_in
