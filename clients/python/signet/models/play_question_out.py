from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.play_condition_out import PlayConditionOut
    from ..models.play_option_out import PlayOptionOut


T = TypeVar("T", bound="PlayQuestionOut")


@_attrs_define
class PlayQuestionOut:
    """
    Attributes:
        ask (str): The question as a person reads it.
        id (str):
        options (list[PlayOptionOut]): 2 to 4.
        when (list[PlayConditionOut]): Asked only when all of these hold.
        default (None | str | Unset):
    """

    ask: str
    id: str
    options: list[PlayOptionOut]
    when: list[PlayConditionOut]
    default: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        ask = self.ask

        id = self.id

        options = []
        for options_item_data in self.options:
            options_item = options_item_data.to_dict()
            options.append(options_item)

        when = []
        for when_item_data in self.when:
            when_item = when_item_data.to_dict()
            when.append(when_item)

        default: None | str | Unset
        if isinstance(self.default, Unset):
            default = UNSET
        else:
            default = self.default

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "ask": ask,
                "id": id,
                "options": options,
                "when": when,
            }
        )
        if default is not UNSET:
            field_dict["default"] = default

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.play_condition_out import PlayConditionOut
        from ..models.play_option_out import PlayOptionOut

        d = dict(src_dict)
        ask = d.pop("ask")

        id = d.pop("id")

        options = []
        _options = d.pop("options")
        for options_item_data in _options:
            options_item = PlayOptionOut.from_dict(options_item_data)

            options.append(options_item)

        when = []
        _when = d.pop("when")
        for when_item_data in _when:
            when_item = PlayConditionOut.from_dict(when_item_data)

            when.append(when_item)

        def _parse_default(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        default = _parse_default(d.pop("default", UNSET))

        play_question_out = cls(
            ask=ask,
            id=id,
            options=options,
            when=when,
            default=default,
        )

        play_question_out.additional_properties = d
        return play_question_out

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
