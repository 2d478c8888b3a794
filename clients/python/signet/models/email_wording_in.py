from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="EmailWordingIn")


@_attrs_define
class EmailWordingIn:
    """Saved wording of one kind: every field optional, blank or null meaning the standard words.

    Attributes:
        body (None | str | Unset): Plain text; a blank line starts a paragraph. The button and the link are added after
            it unless it places `{{action.url}}` itself.
        button_label (None | str | Unset):
        footer (None | str | Unset):
        locale (None | str | Unset): One of the 14 languages of `send.language`; English when left out.
        preview (None | str | Unset): The preview line mail clients show beside the subject.
        subject (None | str | Unset):
    """

    body: None | str | Unset = UNSET
    button_label: None | str | Unset = UNSET
    footer: None | str | Unset = UNSET
    locale: None | str | Unset = UNSET
    preview: None | str | Unset = UNSET
    subject: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        body: None | str | Unset
        if isinstance(self.body, Unset):
            body = UNSET
        else:
            body = self.body

        button_label: None | str | Unset
        if isinstance(self.button_label, Unset):
            button_label = UNSET
        else:
            button_label = self.button_label

        footer: None | str | Unset
        if isinstance(self.footer, Unset):
            footer = UNSET
        else:
            footer = self.footer

        locale: None | str | Unset
        if isinstance(self.locale, Unset):
            locale = UNSET
        else:
            locale = self.locale

        preview: None | str | Unset
        if isinstance(self.preview, Unset):
            preview = UNSET
        else:
            preview = self.preview

        subject: None | str | Unset
        if isinstance(self.subject, Unset):
            subject = UNSET
        else:
            subject = self.subject

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if body is not UNSET:
            field_dict["body"] = body
        if button_label is not UNSET:
            field_dict["buttonLabel"] = button_label
        if footer is not UNSET:
            field_dict["footer"] = footer
        if locale is not UNSET:
            field_dict["locale"] = locale
        if preview is not UNSET:
            field_dict["preview"] = preview
        if subject is not UNSET:
            field_dict["subject"] = subject

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_body(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        body = _parse_body(d.pop("body", UNSET))

        def _parse_button_label(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        button_label = _parse_button_label(d.pop("buttonLabel", UNSET))

        def _parse_footer(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        footer = _parse_footer(d.pop("footer", UNSET))

        def _parse_locale(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        locale = _parse_locale(d.pop("locale", UNSET))

        def _parse_preview(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        preview = _parse_preview(d.pop("preview", UNSET))

        def _parse_subject(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        subject = _parse_subject(d.pop("subject", UNSET))

        email_wording_in = cls(
            body=body,
            button_label=button_label,
            footer=footer,
            locale=locale,
            preview=preview,
            subject=subject,
        )

        return email_wording_in
