from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="PaymentOut")


@_attrs_define
class PaymentOut:
    """
    Attributes:
        amount (int): In the currency's minor unit (cents; yen have none).
        created_at (str):
        currency (str): Lower case, as the processor writes it (`usd`).
        fee (int): The service's fee in the same unit: 2% of the amount on Free, 0 on Pro.
        id (str): `pay_…`.
        refunded (int): Refunded so far, in the minor unit.
        seat (str): The seat whose person pays.
        status (str): `open` (Checkout started, not paid), `paid`, `partially_refunded`, `refunded`,
            `disputed`, `expired` (the Checkout ran out unpaid) or `mismatch` (the processor
            charged another amount than asked: not counted as paid; look into it at Stripe).
        description (None | str | Unset):
        paid_at (None | str | Unset):
        receipt_number (None | str | Unset):
        receipt_url (None | str | Unset): The processor's receipt page and number, once paid.
    """

    amount: int
    created_at: str
    currency: str
    fee: int
    id: str
    refunded: int
    seat: str
    status: str
    description: None | str | Unset = UNSET
    paid_at: None | str | Unset = UNSET
    receipt_number: None | str | Unset = UNSET
    receipt_url: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        created_at = self.created_at

        currency = self.currency

        fee = self.fee

        id = self.id

        refunded = self.refunded

        seat = self.seat

        status = self.status

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        paid_at: None | str | Unset
        if isinstance(self.paid_at, Unset):
            paid_at = UNSET
        else:
            paid_at = self.paid_at

        receipt_number: None | str | Unset
        if isinstance(self.receipt_number, Unset):
            receipt_number = UNSET
        else:
            receipt_number = self.receipt_number

        receipt_url: None | str | Unset
        if isinstance(self.receipt_url, Unset):
            receipt_url = UNSET
        else:
            receipt_url = self.receipt_url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "amount": amount,
                "createdAt": created_at,
                "currency": currency,
                "fee": fee,
                "id": id,
                "refunded": refunded,
                "seat": seat,
                "status": status,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description
        if paid_at is not UNSET:
            field_dict["paidAt"] = paid_at
        if receipt_number is not UNSET:
            field_dict["receiptNumber"] = receipt_number
        if receipt_url is not UNSET:
            field_dict["receiptUrl"] = receipt_url

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        amount = d.pop("amount")

        created_at = d.pop("createdAt")

        currency = d.pop("currency")

        fee = d.pop("fee")

        id = d.pop("id")

        refunded = d.pop("refunded")

        seat = d.pop("seat")

        status = d.pop("status")

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        def _parse_paid_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        paid_at = _parse_paid_at(d.pop("paidAt", UNSET))

        def _parse_receipt_number(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        receipt_number = _parse_receipt_number(d.pop("receiptNumber", UNSET))

        def _parse_receipt_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        receipt_url = _parse_receipt_url(d.pop("receiptUrl", UNSET))

        payment_out = cls(
            amount=amount,
            created_at=created_at,
            currency=currency,
            fee=fee,
            id=id,
            refunded=refunded,
            seat=seat,
            status=status,
            description=description,
            paid_at=paid_at,
            receipt_number=receipt_number,
            receipt_url=receipt_url,
        )

        payment_out.additional_properties = d
        return payment_out

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
