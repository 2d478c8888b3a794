from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="CurrencyOut")


@_attrs_define
class CurrencyOut:
    """
    Attributes:
        currency (str): The currency's ISO 4217 letters in lower case, as the processor writes them (`eur`).
        decimals (int): Digits after the point: 0 for JPY, 3 for KWD.
        name (str):
    """

    currency: str
    decimals: int
    name: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        currency = self.currency

        decimals = self.decimals

        name = self.name

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "currency": currency,
                "decimals": decimals,
                "name": name,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        currency = d.pop("currency")

        decimals = d.pop("decimals")

        name = d.pop("name")

        currency_out = cls(
            currency=currency,
            decimals=decimals,
            name=name,
        )

        currency_out.additional_properties = d
        return currency_out

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
