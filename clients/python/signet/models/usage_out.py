from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.usage_counter_out import UsageCounterOut


T = TypeVar("T", bound="UsageOut")


@_attrs_define
class UsageOut:
    """
    Attributes:
        documents (UsageCounterOut):
        emails (UsageCounterOut):
        plan (str): The workspace's plan: `free` or `pro`.
        test_emails (UsageCounterOut):
    """

    documents: UsageCounterOut
    emails: UsageCounterOut
    plan: str
    test_emails: UsageCounterOut
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        documents = self.documents.to_dict()

        emails = self.emails.to_dict()

        plan = self.plan

        test_emails = self.test_emails.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "documents": documents,
                "emails": emails,
                "plan": plan,
                "testEmails": test_emails,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.usage_counter_out import UsageCounterOut

        d = dict(src_dict)
        documents = UsageCounterOut.from_dict(d.pop("documents"))

        emails = UsageCounterOut.from_dict(d.pop("emails"))

        plan = d.pop("plan")

        test_emails = UsageCounterOut.from_dict(d.pop("testEmails"))

        usage_out = cls(
            documents=documents,
            emails=emails,
            plan=plan,
            test_emails=test_emails,
        )

        usage_out.additional_properties = d
        return usage_out

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
