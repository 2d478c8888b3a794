from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="EmailPreviewOut")


@_attrs_define
class EmailPreviewOut:
    """An email rendered from wording with made-up names.

    Attributes:
        body (str): The plain-text body.
        html (str): The HTML body.
        kind (str):
        locale (str):
        preview (str): The preview line.
        subject (str):
    """

    body: str
    html: str
    kind: str
    locale: str
    preview: str
    subject: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        body = self.body

        html = self.html

        kind = self.kind

        locale = self.locale

        preview = self.preview

        subject = self.subject

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "body": body,
                "html": html,
                "kind": kind,
                "locale": locale,
                "preview": preview,
                "subject": subject,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        body = d.pop("body")

        html = d.pop("html")

        kind = d.pop("kind")

        locale = d.pop("locale")

        preview = d.pop("preview")

        subject = d.pop("subject")

        email_preview_out = cls(
            body=body,
            html=html,
            kind=kind,
            locale=locale,
            preview=preview,
            subject=subject,
        )

        email_preview_out.additional_properties = d
        return email_preview_out

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
