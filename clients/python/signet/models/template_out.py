from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.template_defaults import TemplateDefaults
    from ..models.template_field_out import TemplateFieldOut
    from ..models.template_out_metadata import TemplateOutMetadata


T = TypeVar("T", bound="TemplateOut")


@_attrs_define
class TemplateOut:
    """
    Attributes:
        approved (bool): Whether it is listed for sending: a template made through a draft-only key waits for
            a person's approval.
        created_at (str):
        defaults (TemplateDefaults): What a document made from a template starts with.
        fields (list[TemplateFieldOut]): The fields each seat fills in. A written template is laid out for each
            document, so
            its fields have no page until then.
        id (str):
        kind (str): `source` (made from words), `html`, `pdf`, `office` (a Word, Excel or PowerPoint file,
            kept as the PDF LibreOffice made of it) or `picture`.
        metadata (TemplateOutMetadata):
        name (str):
        paper (str):
        profile (str): `typeset` or `contract` for templates from words; `plain` for a page laid out by its
            writer (HTML).
        questions (list[str]): The `custom.<key>` chips without an answer, without the prefix: answered with
            `variableValues` on `POST /templates/{id}/documents`.
        seats (list[str]): The roles that sign, in the order the text first names them.
        updated_at (str):
        version (int): The current version (the newest).
        warnings (list[str]): What was removed from what was sent (scripts, styles, remote pictures...), each said
            once with how many.
        external_id (None | str | Unset):
        pages (int | None | Unset): Pages of a template laid out when it was made; null for one from words.
    """

    approved: bool
    created_at: str
    defaults: TemplateDefaults
    fields: list[TemplateFieldOut]
    id: str
    kind: str
    metadata: TemplateOutMetadata
    name: str
    paper: str
    profile: str
    questions: list[str]
    seats: list[str]
    updated_at: str
    version: int
    warnings: list[str]
    external_id: None | str | Unset = UNSET
    pages: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        approved = self.approved

        created_at = self.created_at

        defaults = self.defaults.to_dict()

        fields = []
        for fields_item_data in self.fields:
            fields_item = fields_item_data.to_dict()
            fields.append(fields_item)

        id = self.id

        kind = self.kind

        metadata = self.metadata.to_dict()

        name = self.name

        paper = self.paper

        profile = self.profile

        questions = self.questions

        seats = self.seats

        updated_at = self.updated_at

        version = self.version

        warnings = self.warnings

        external_id: None | str | Unset
        if isinstance(self.external_id, Unset):
            external_id = UNSET
        else:
            external_id = self.external_id

        pages: int | None | Unset
        if isinstance(self.pages, Unset):
            pages = UNSET
        else:
            pages = self.pages

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "approved": approved,
                "createdAt": created_at,
                "defaults": defaults,
                "fields": fields,
                "id": id,
                "kind": kind,
                "metadata": metadata,
                "name": name,
                "paper": paper,
                "profile": profile,
                "questions": questions,
                "seats": seats,
                "updatedAt": updated_at,
                "version": version,
                "warnings": warnings,
            }
        )
        if external_id is not UNSET:
            field_dict["externalId"] = external_id
        if pages is not UNSET:
            field_dict["pages"] = pages

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.template_defaults import TemplateDefaults
        from ..models.template_field_out import TemplateFieldOut
        from ..models.template_out_metadata import TemplateOutMetadata

        d = dict(src_dict)
        approved = d.pop("approved")

        created_at = d.pop("createdAt")

        defaults = TemplateDefaults.from_dict(d.pop("defaults"))

        fields = []
        _fields = d.pop("fields")
        for fields_item_data in _fields:
            fields_item = TemplateFieldOut.from_dict(fields_item_data)

            fields.append(fields_item)

        id = d.pop("id")

        kind = d.pop("kind")

        metadata = TemplateOutMetadata.from_dict(d.pop("metadata"))

        name = d.pop("name")

        paper = d.pop("paper")

        profile = d.pop("profile")

        questions = cast(list[str], d.pop("questions"))

        seats = cast(list[str], d.pop("seats"))

        updated_at = d.pop("updatedAt")

        version = d.pop("version")

        warnings = cast(list[str], d.pop("warnings"))

        def _parse_external_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        external_id = _parse_external_id(d.pop("externalId", UNSET))

        def _parse_pages(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        pages = _parse_pages(d.pop("pages", UNSET))

        template_out = cls(
            approved=approved,
            created_at=created_at,
            defaults=defaults,
            fields=fields,
            id=id,
            kind=kind,
            metadata=metadata,
            name=name,
            paper=paper,
            profile=profile,
            questions=questions,
            seats=seats,
            updated_at=updated_at,
            version=version,
            warnings=warnings,
            external_id=external_id,
            pages=pages,
        )

        template_out.additional_properties = d
        return template_out

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
