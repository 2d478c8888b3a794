from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="SendOptionsIn")


@_attrs_define
class SendOptionsIn:
    """Sending options.

    Attributes:
        expiry_days (int | None | Unset): Days after sending when the document expires (1 to 365).
        internal_note (None | str | Unset): Kept with the document, never shown to a signer.
        language (None | str | Unset): One of en, es, fr, de, pt, it, nl, pl, tr, ru, ar, ja, zh, ko.
        message (None | str | Unset):
        reminder_days (list[int] | None | Unset): Days after sending on which people still up are reminded (each 1 to
            365).
        reply_to (None | str | Unset):
        require_decline_reason (bool | None | Unset):
        sender_name (None | str | Unset):
        signing_order (bool | None | Unset): Invite people by `order`: lowest first, equal orders in parallel.
        subject (None | str | Unset):
    """

    expiry_days: int | None | Unset = UNSET
    internal_note: None | str | Unset = UNSET
    language: None | str | Unset = UNSET
    message: None | str | Unset = UNSET
    reminder_days: list[int] | None | Unset = UNSET
    reply_to: None | str | Unset = UNSET
    require_decline_reason: bool | None | Unset = UNSET
    sender_name: None | str | Unset = UNSET
    signing_order: bool | None | Unset = UNSET
    subject: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        expiry_days: int | None | Unset
        if isinstance(self.expiry_days, Unset):
            expiry_days = UNSET
        else:
            expiry_days = self.expiry_days

        internal_note: None | str | Unset
        if isinstance(self.internal_note, Unset):
            internal_note = UNSET
        else:
            internal_note = self.internal_note

        language: None | str | Unset
        if isinstance(self.language, Unset):
            language = UNSET
        else:
            language = self.language

        message: None | str | Unset
        if isinstance(self.message, Unset):
            message = UNSET
        else:
            message = self.message

        reminder_days: list[int] | None | Unset
        if isinstance(self.reminder_days, Unset):
            reminder_days = UNSET
        elif isinstance(self.reminder_days, list):
            reminder_days = self.reminder_days

        else:
            reminder_days = self.reminder_days

        reply_to: None | str | Unset
        if isinstance(self.reply_to, Unset):
            reply_to = UNSET
        else:
            reply_to = self.reply_to

        require_decline_reason: bool | None | Unset
        if isinstance(self.require_decline_reason, Unset):
            require_decline_reason = UNSET
        else:
            require_decline_reason = self.require_decline_reason

        sender_name: None | str | Unset
        if isinstance(self.sender_name, Unset):
            sender_name = UNSET
        else:
            sender_name = self.sender_name

        signing_order: bool | None | Unset
        if isinstance(self.signing_order, Unset):
            signing_order = UNSET
        else:
            signing_order = self.signing_order

        subject: None | str | Unset
        if isinstance(self.subject, Unset):
            subject = UNSET
        else:
            subject = self.subject

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if expiry_days is not UNSET:
            field_dict["expiryDays"] = expiry_days
        if internal_note is not UNSET:
            field_dict["internalNote"] = internal_note
        if language is not UNSET:
            field_dict["language"] = language
        if message is not UNSET:
            field_dict["message"] = message
        if reminder_days is not UNSET:
            field_dict["reminderDays"] = reminder_days
        if reply_to is not UNSET:
            field_dict["replyTo"] = reply_to
        if require_decline_reason is not UNSET:
            field_dict["requireDeclineReason"] = require_decline_reason
        if sender_name is not UNSET:
            field_dict["senderName"] = sender_name
        if signing_order is not UNSET:
            field_dict["signingOrder"] = signing_order
        if subject is not UNSET:
            field_dict["subject"] = subject

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_expiry_days(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        expiry_days = _parse_expiry_days(d.pop("expiryDays", UNSET))

        def _parse_internal_note(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        internal_note = _parse_internal_note(d.pop("internalNote", UNSET))

        def _parse_language(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        language = _parse_language(d.pop("language", UNSET))

        def _parse_message(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        message = _parse_message(d.pop("message", UNSET))

        def _parse_reminder_days(data: object) -> list[int] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                reminder_days_type_0 = cast(list[int], data)

                return reminder_days_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[int] | None | Unset, data)

        reminder_days = _parse_reminder_days(d.pop("reminderDays", UNSET))

        def _parse_reply_to(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reply_to = _parse_reply_to(d.pop("replyTo", UNSET))

        def _parse_require_decline_reason(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        require_decline_reason = _parse_require_decline_reason(
            d.pop("requireDeclineReason", UNSET)
        )

        def _parse_sender_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        sender_name = _parse_sender_name(d.pop("senderName", UNSET))

        def _parse_signing_order(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        signing_order = _parse_signing_order(d.pop("signingOrder", UNSET))

        def _parse_subject(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        subject = _parse_subject(d.pop("subject", UNSET))

        send_options_in = cls(
            expiry_days=expiry_days,
            internal_note=internal_note,
            language=language,
            message=message,
            reminder_days=reminder_days,
            reply_to=reply_to,
            require_decline_reason=require_decline_reason,
            sender_name=sender_name,
            signing_order=signing_order,
            subject=subject,
        )

        return send_options_in
