from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="EmailOut")


@_attrs_define
class EmailOut:
    """
    Attributes:
        created_at (str):
        id (str):
        kind (str): invitation, reminder, completed, declined, voided, expired, code or receipt.
        locale (str):
        status (str): sent (accepted by the mail server, or written to the mail folder), delivered, bounced,
            complained, failed (refused for good, or suppressed) or paused (waiting: the daily
            allowance is used, or the mail server asked to try later).
        subject (str):
        test (bool):
        to (str): The address it went to (for a test document, the sender's).
        updated_at (str):
        document_id (None | str | Unset):
        person_id (None | str | Unset):
        reason (None | str | Unset): Why it failed, bounced or waits.
        sent_at (None | str | Unset): When the mail server accepted it.
    """

    created_at: str
    id: str
    kind: str
    locale: str
    status: str
    subject: str
    test: bool
    to: str
    updated_at: str
    document_id: None | str | Unset = UNSET
    person_id: None | str | Unset = UNSET
    reason: None | str | Unset = UNSET
    sent_at: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at

        id = self.id

        kind = self.kind

        locale = self.locale

        status = self.status

        subject = self.subject

        test = self.test

        to = self.to

        updated_at = self.updated_at

        document_id: None | str | Unset
        if isinstance(self.document_id, Unset):
            document_id = UNSET
        else:
            document_id = self.document_id

        person_id: None | str | Unset
        if isinstance(self.person_id, Unset):
            person_id = UNSET
        else:
            person_id = self.person_id

        reason: None | str | Unset
        if isinstance(self.reason, Unset):
            reason = UNSET
        else:
            reason = self.reason

        sent_at: None | str | Unset
        if isinstance(self.sent_at, Unset):
            sent_at = UNSET
        else:
            sent_at = self.sent_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "id": id,
                "kind": kind,
                "locale": locale,
                "status": status,
                "subject": subject,
                "test": test,
                "to": to,
                "updatedAt": updated_at,
            }
        )
        if document_id is not UNSET:
            field_dict["documentId"] = document_id
        if person_id is not UNSET:
            field_dict["personId"] = person_id
        if reason is not UNSET:
            field_dict["reason"] = reason
        if sent_at is not UNSET:
            field_dict["sentAt"] = sent_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        created_at = d.pop("createdAt")

        id = d.pop("id")

        kind = d.pop("kind")

        locale = d.pop("locale")

        status = d.pop("status")

        subject = d.pop("subject")

        test = d.pop("test")

        to = d.pop("to")

        updated_at = d.pop("updatedAt")

        def _parse_document_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        document_id = _parse_document_id(d.pop("documentId", UNSET))

        def _parse_person_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        person_id = _parse_person_id(d.pop("personId", UNSET))

        def _parse_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reason = _parse_reason(d.pop("reason", UNSET))

        def _parse_sent_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        sent_at = _parse_sent_at(d.pop("sentAt", UNSET))

        email_out = cls(
            created_at=created_at,
            id=id,
            kind=kind,
            locale=locale,
            status=status,
            subject=subject,
            test=test,
            to=to,
            updated_at=updated_at,
            document_id=document_id,
            person_id=person_id,
            reason=reason,
            sent_at=sent_at,
        )

        email_out.additional_properties = d
        return email_out

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
