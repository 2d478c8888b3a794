from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.currency_out import CurrencyOut
    from ..models.wizard_question_out import WizardQuestionOut


T = TypeVar("T", bound="WizardOut")


@_attrs_define
class WizardOut:
    """
    Attributes:
        currencies (list[CurrencyOut]): What a payment may be asked in, with the digits of each minor unit.
        locale (str): The language of the words, the workspace's default unless `locale` asks another.
        questions (list[WizardQuestionOut]):
    """

    currencies: list[CurrencyOut]
    locale: str
    questions: list[WizardQuestionOut]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        currencies = []
        for currencies_item_data in self.currencies:
            currencies_item = currencies_item_data.to_dict()
            currencies.append(currencies_item)

        locale = self.locale

        questions = []
        for questions_item_data in self.questions:
            questions_item = questions_item_data.to_dict()
            questions.append(questions_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "currencies": currencies,
                "locale": locale,
                "questions": questions,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.currency_out import CurrencyOut
        from ..models.wizard_question_out import WizardQuestionOut

        d = dict(src_dict)
        currencies = []
        _currencies = d.pop("currencies")
        for currencies_item_data in _currencies:
            currencies_item = CurrencyOut.from_dict(currencies_item_data)

            currencies.append(currencies_item)

        locale = d.pop("locale")

        questions = []
        _questions = d.pop("questions")
        for questions_item_data in _questions:
            questions_item = WizardQuestionOut.from_dict(questions_item_data)

            questions.append(questions_item)

        wizard_out = cls(
            currencies=currencies,
            locale=locale,
            questions=questions,
        )

        wizard_out.additional_properties = d
        return wizard_out

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
