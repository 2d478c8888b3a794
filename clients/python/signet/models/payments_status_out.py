from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.payment_readiness import PaymentReadiness
from ..types import UNSET, Unset

T = TypeVar("T", bound="PaymentsStatusOut")


@_attrs_define
class PaymentsStatusOut:
    """
    Attributes:
        available (bool): Whether the installation's operator set up the processor for this mode at all.
        due (list[str]): What the processor still asks of the account, in its own words
            (`individual.verification.document`), when `needs_attention`.
        fee_percent (int): The service's fee on payments for the workspace's plan, in percent (processor fees apart).
        mode (str): `live` or `test`: the mode this readiness is of (a test key's, or the application's
            switch). Test documents are paid through the processor's test mode with its test cards.
        status (PaymentReadiness):
        account_id (None | str | Unset): The connected account (`acct_…`), when there is one.
        disabled_reason (None | str | Unset): Why the processor has turned the account's charges off, when it has.
    """

    available: bool
    due: list[str]
    fee_percent: int
    mode: str
    status: PaymentReadiness
    account_id: None | str | Unset = UNSET
    disabled_reason: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        available = self.available

        due = self.due

        fee_percent = self.fee_percent

        mode = self.mode

        status = self.status.value

        account_id: None | str | Unset
        if isinstance(self.account_id, Unset):
            account_id = UNSET
        else:
            account_id = self.account_id

        disabled_reason: None | str | Unset
        if isinstance(self.disabled_reason, Unset):
            disabled_reason = UNSET
        else:
            disabled_reason = self.disabled_reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "available": available,
                "due": due,
                "feePercent": fee_percent,
                "mode": mode,
                "status": status,
            }
        )
        if account_id is not UNSET:
            field_dict["accountId"] = account_id
        if disabled_reason is not UNSET:
            field_dict["disabledReason"] = disabled_reason

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        available = d.pop("available")

        due = cast(list[str], d.pop("due"))

        fee_percent = d.pop("feePercent")

        mode = d.pop("mode")

        status = PaymentReadiness(d.pop("status"))

        def _parse_account_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        account_id = _parse_account_id(d.pop("accountId", UNSET))

        def _parse_disabled_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        disabled_reason = _parse_disabled_reason(d.pop("disabledReason", UNSET))

        payments_status_out = cls(
            available=available,
            due=due,
            fee_percent=fee_percent,
            mode=mode,
            status=status,
            account_id=account_id,
            disabled_reason=disabled_reason,
        )

        payments_status_out.additional_properties = d
        return payments_status_out

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
