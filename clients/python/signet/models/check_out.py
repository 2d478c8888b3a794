from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.check_field_out import CheckFieldOut
    from ..models.check_item_out import CheckItemOut


T = TypeVar("T", bound="CheckOut")


@_attrs_define
class CheckOut:
    """
    Attributes:
        fields (list[CheckFieldOut]):
        ok (bool): True when nothing blocks making and sending the document.
        problems (list[CheckItemOut]):
        questions (list[str]): `custom.<key>` chips of the text (a template's questions), without the prefix.
        roles (list[str]): The role words of the text: the seats people take.
        warnings (list[CheckItemOut]):
    """

    fields: list[CheckFieldOut]
    ok: bool
    problems: list[CheckItemOut]
    questions: list[str]
    roles: list[str]
    warnings: list[CheckItemOut]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        fields = []
        for fields_item_data in self.fields:
            fields_item = fields_item_data.to_dict()
            fields.append(fields_item)

        ok = self.ok

        problems = []
        for problems_item_data in self.problems:
            problems_item = problems_item_data.to_dict()
            problems.append(problems_item)

        questions = self.questions

        roles = self.roles

        warnings = []
        for warnings_item_data in self.warnings:
            warnings_item = warnings_item_data.to_dict()
            warnings.append(warnings_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "fields": fields,
                "ok": ok,
                "problems": problems,
                "questions": questions,
                "roles": roles,
                "warnings": warnings,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.check_field_out import CheckFieldOut
        from ..models.check_item_out import CheckItemOut

        d = dict(src_dict)
        fields = []
        _fields = d.pop("fields")
        for fields_item_data in _fields:
            fields_item = CheckFieldOut.from_dict(fields_item_data)

            fields.append(fields_item)

        ok = d.pop("ok")

        problems = []
        _problems = d.pop("problems")
        for problems_item_data in _problems:
            problems_item = CheckItemOut.from_dict(problems_item_data)

            problems.append(problems_item)

        questions = cast(list[str], d.pop("questions"))

        roles = cast(list[str], d.pop("roles"))

        warnings = []
        _warnings = d.pop("warnings")
        for warnings_item_data in _warnings:
            warnings_item = CheckItemOut.from_dict(warnings_item_data)

            warnings.append(warnings_item)

        check_out = cls(
            fields=fields,
            ok=ok,
            problems=problems,
            questions=questions,
            roles=roles,
            warnings=warnings,
        )

        check_out.additional_properties = d
        return check_out

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
