from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PlayProblemOut")


@_attrs_define
class PlayProblemOut:
    """
    Attributes:
        column (int): 1-based.
        hint (str): How to mend it.
        key (str): The header's key (`questions[2].options`), `body` for the words, `file` for the file
            as a whole, `words` for what the document check found in the words drafted with every
            default.
        line (int): 1-based.
        message (str): What is wrong.
    """

    column: int
    hint: str
    key: str
    line: int
    message: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        column = self.column

        hint = self.hint

        key = self.key

        line = self.line

        message = self.message

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "column": column,
                "hint": hint,
                "key": key,
                "line": line,
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        column = d.pop("column")

        hint = d.pop("hint")

        key = d.pop("key")

        line = d.pop("line")

        message = d.pop("message")

        play_problem_out = cls(
            column=column,
            hint=hint,
            key=key,
            line=line,
            message=message,
        )

        play_problem_out.additional_properties = d
        return play_problem_out

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
