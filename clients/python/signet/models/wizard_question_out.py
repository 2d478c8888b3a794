from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.wizard_option_out import WizardOptionOut


T = TypeVar("T", bound="WizardQuestionOut")


@_attrs_define
class WizardQuestionOut:
    """
    Attributes:
        answer (str): `choice`, `text`, `parties`, `yes_no`, `amount`, `currency` or `role`.
        ask (str):
        key (str): Where the answer goes in `brief`: `type`, `kind`, `answers.parties`,
            `payment.amount`, `final`, ...
        options (list[WizardOptionOut]):
        required (bool):
        help_ (None | str | Unset):
        when (None | str | Unset): Asked only when the answer at this key is true (`payment.collect`).
    """

    answer: str
    ask: str
    key: str
    options: list[WizardOptionOut]
    required: bool
    help_: None | str | Unset = UNSET
    when: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        answer = self.answer

        ask = self.ask

        key = self.key

        options = []
        for options_item_data in self.options:
            options_item = options_item_data.to_dict()
            options.append(options_item)

        required = self.required

        help_: None | str | Unset
        if isinstance(self.help_, Unset):
            help_ = UNSET
        else:
            help_ = self.help_

        when: None | str | Unset
        if isinstance(self.when, Unset):
            when = UNSET
        else:
            when = self.when

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "answer": answer,
                "ask": ask,
                "key": key,
                "options": options,
                "required": required,
            }
        )
        if help_ is not UNSET:
            field_dict["help"] = help_
        if when is not UNSET:
            field_dict["when"] = when

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.wizard_option_out import WizardOptionOut

        d = dict(src_dict)
        answer = d.pop("answer")

        ask = d.pop("ask")

        key = d.pop("key")

        options = []
        _options = d.pop("options")
        for options_item_data in _options:
            options_item = WizardOptionOut.from_dict(options_item_data)

            options.append(options_item)

        required = d.pop("required")

        def _parse_help_(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        help_ = _parse_help_(d.pop("help", UNSET))

        def _parse_when(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        when = _parse_when(d.pop("when", UNSET))

        wizard_question_out = cls(
            answer=answer,
            ask=ask,
            key=key,
            options=options,
            required=required,
            help_=help_,
            when=when,
        )

        wizard_question_out.additional_properties = d
        return wizard_question_out

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
