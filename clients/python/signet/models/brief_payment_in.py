from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="BriefPaymentIn")


@_attrs_define
class BriefPaymentIn:
    """
    Attributes:
        amount (None | str | Unset): In the currency's major unit, as a string or number: `"49.99"`, `1200` (JPY).
        collect (bool | None | Unset): Whether a signer pays while signing.
        currency (None | str | Unset): One of the wizard's currencies (`usd`).
        description (None | str | Unset):
        payer_role (None | str | Unset): The role word of the seat that pays.
        schedule_note (None | str | Unset):
    """

    amount: None | str | Unset = UNSET
    collect: bool | None | Unset = UNSET
    currency: None | str | Unset = UNSET
    description: None | str | Unset = UNSET
    payer_role: None | str | Unset = UNSET
    schedule_note: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        amount: None | str | Unset
        if isinstance(self.amount, Unset):
            amount = UNSET
        else:
            amount = self.amount

        collect: bool | None | Unset
        if isinstance(self.collect, Unset):
            collect = UNSET
        else:
            collect = self.collect

        currency: None | str | Unset
        if isinstance(self.currency, Unset):
            currency = UNSET
        else:
            currency = self.currency

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        payer_role: None | str | Unset
        if isinstance(self.payer_role, Unset):
            payer_role = UNSET
        else:
            payer_role = self.payer_role

        schedule_note: None | str | Unset
        if isinstance(self.schedule_note, Unset):
            schedule_note = UNSET
        else:
            schedule_note = self.schedule_note

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if amount is not UNSET:
            field_dict["amount"] = amount
        if collect is not UNSET:
            field_dict["collect"] = collect
        if currency is not UNSET:
            field_dict["currency"] = currency
        if description is not UNSET:
            field_dict["description"] = description
        if payer_role is not UNSET:
            field_dict["payer_role"] = payer_role
        if schedule_note is not UNSET:
            field_dict["schedule_note"] = schedule_note

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_amount(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        amount = _parse_amount(d.pop("amount", UNSET))

        def _parse_collect(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        collect = _parse_collect(d.pop("collect", UNSET))

        def _parse_currency(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        currency = _parse_currency(d.pop("currency", UNSET))

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        def _parse_payer_role(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        payer_role = _parse_payer_role(d.pop("payer_role", UNSET))

        def _parse_schedule_note(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        schedule_note = _parse_schedule_note(d.pop("schedule_note", UNSET))

        brief_payment_in = cls(
            amount=amount,
            collect=collect,
            currency=currency,
            description=description,
            payer_role=payer_role,
            schedule_note=schedule_note,
        )

        return brief_payment_in
