from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.preview_field_out import PreviewFieldOut
    from ..models.preview_page_out import PreviewPageOut


T = TypeVar("T", bound="TemplatePreviewOut")


@_attrs_define
class TemplatePreviewOut:
    """
    Attributes:
        fields (list[PreviewFieldOut]): Each field's box on its page, in points from the page's top-left corner.
        pages (list[PreviewPageOut]): Every page, in order; the first 20 with a picture.
    """

    fields: list[PreviewFieldOut]
    pages: list[PreviewPageOut]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        fields = []
        for fields_item_data in self.fields:
            fields_item = fields_item_data.to_dict()
            fields.append(fields_item)

        pages = []
        for pages_item_data in self.pages:
            pages_item = pages_item_data.to_dict()
            pages.append(pages_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "fields": fields,
                "pages": pages,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.preview_field_out import PreviewFieldOut
        from ..models.preview_page_out import PreviewPageOut

        d = dict(src_dict)
        fields = []
        _fields = d.pop("fields")
        for fields_item_data in _fields:
            fields_item = PreviewFieldOut.from_dict(fields_item_data)

            fields.append(fields_item)

        pages = []
        _pages = d.pop("pages")
        for pages_item_data in _pages:
            pages_item = PreviewPageOut.from_dict(pages_item_data)

            pages.append(pages_item)

        template_preview_out = cls(
            fields=fields,
            pages=pages,
        )

        template_preview_out.additional_properties = d
        return template_preview_out

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
