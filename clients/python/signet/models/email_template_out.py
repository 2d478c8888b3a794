from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.email_variable_out import EmailVariableOut
    from ..models.email_wording_out import EmailWordingOut


T = TypeVar("T", bound="EmailTemplateOut")


@_attrs_define
class EmailTemplateOut:
    """One kind's wording in one language: what goes out, the standard words, what is saved.

    Attributes:
        body (str):
        button_label (str):
        footer (str):
        kind (str): invitation, reminder, completed, declined, voided, expired, code or receipt.
        locale (str):
        preview (str):
        standard (EmailWordingOut): Five fields of wording.
        subject (str): The words emails of this kind go out with: the saved field, else the standard one.
        variables (list[EmailVariableOut]): The variables this kind accepts; any other is refused.
        saved (EmailWordingOut | None | Unset):
        updated_at (None | str | Unset): When the saved wording was last changed.
    """

    body: str
    button_label: str
    footer: str
    kind: str
    locale: str
    preview: str
    standard: EmailWordingOut
    subject: str
    variables: list[EmailVariableOut]
    saved: EmailWordingOut | None | Unset = UNSET
    updated_at: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.email_wording_out import EmailWordingOut

        body = self.body

        button_label = self.button_label

        footer = self.footer

        kind = self.kind

        locale = self.locale

        preview = self.preview

        standard = self.standard.to_dict()

        subject = self.subject

        variables = []
        for variables_item_data in self.variables:
            variables_item = variables_item_data.to_dict()
            variables.append(variables_item)

        saved: dict[str, Any] | None | Unset
        if isinstance(self.saved, Unset):
            saved = UNSET
        elif isinstance(self.saved, EmailWordingOut):
            saved = self.saved.to_dict()
        else:
            saved = self.saved

        updated_at: None | str | Unset
        if isinstance(self.updated_at, Unset):
            updated_at = UNSET
        else:
            updated_at = self.updated_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "body": body,
                "buttonLabel": button_label,
                "footer": footer,
                "kind": kind,
                "locale": locale,
                "preview": preview,
                "standard": standard,
                "subject": subject,
                "variables": variables,
            }
        )
        if saved is not UNSET:
            field_dict["saved"] = saved
        if updated_at is not UNSET:
            field_dict["updatedAt"] = updated_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.email_variable_out import EmailVariableOut
        from ..models.email_wording_out import EmailWordingOut

        d = dict(src_dict)
        body = d.pop("body")

        button_label = d.pop("buttonLabel")

        footer = d.pop("footer")

        kind = d.pop("kind")

        locale = d.pop("locale")

        preview = d.pop("preview")

        standard = EmailWordingOut.from_dict(d.pop("standard"))

        subject = d.pop("subject")

        variables = []
        _variables = d.pop("variables")
        for variables_item_data in _variables:
            variables_item = EmailVariableOut.from_dict(variables_item_data)

            variables.append(variables_item)

        def _parse_saved(data: object) -> EmailWordingOut | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                saved_type_1 = EmailWordingOut.from_dict(data)

                return saved_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EmailWordingOut | None | Unset, data)

        saved = _parse_saved(d.pop("saved", UNSET))

        def _parse_updated_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        updated_at = _parse_updated_at(d.pop("updatedAt", UNSET))

        email_template_out = cls(
            body=body,
            button_label=button_label,
            footer=footer,
            kind=kind,
            locale=locale,
            preview=preview,
            standard=standard,
            subject=subject,
            variables=variables,
            saved=saved,
            updated_at=updated_at,
        )

        email_template_out.additional_properties = d
        return email_template_out

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
