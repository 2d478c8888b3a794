from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.approval_out import ApprovalOut
    from ..models.document_out_metadata import DocumentOutMetadata
    from ..models.payment_out import PaymentOut
    from ..models.person_out import PersonOut


T = TypeVar("T", bound="DocumentOut")


@_attrs_define
class DocumentOut:
    """
    Attributes:
        created_at (str):
        id (str):
        metadata (DocumentOutMetadata):
        paper (str):
        payments (list[PaymentOut]):
        people (list[PersonOut]): Where each person is.
        state (str): `draft`, `sent`, `opened`, `signed`, `executed`, `declined`, `expired` or `voided`.
        test (bool):
        title (str):
        updated_at (str):
        approval (ApprovalOut | None | Unset):
        completed_at (None | str | Unset):
        description (None | str | Unset):
        expires_at (None | str | Unset):
        external_id (None | str | Unset):
        page_count (int | None | Unset):
        reason (None | str | Unset): Why it was voided or declined, when a reason was given.
        sent_at (None | str | Unset):
        template_id (None | str | Unset): The template the document was made from, and its version.
        template_version (int | None | Unset):
    """

    created_at: str
    id: str
    metadata: DocumentOutMetadata
    paper: str
    payments: list[PaymentOut]
    people: list[PersonOut]
    state: str
    test: bool
    title: str
    updated_at: str
    approval: ApprovalOut | None | Unset = UNSET
    completed_at: None | str | Unset = UNSET
    description: None | str | Unset = UNSET
    expires_at: None | str | Unset = UNSET
    external_id: None | str | Unset = UNSET
    page_count: int | None | Unset = UNSET
    reason: None | str | Unset = UNSET
    sent_at: None | str | Unset = UNSET
    template_id: None | str | Unset = UNSET
    template_version: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.approval_out import ApprovalOut

        created_at = self.created_at

        id = self.id

        metadata = self.metadata.to_dict()

        paper = self.paper

        payments = []
        for payments_item_data in self.payments:
            payments_item = payments_item_data.to_dict()
            payments.append(payments_item)

        people = []
        for people_item_data in self.people:
            people_item = people_item_data.to_dict()
            people.append(people_item)

        state = self.state

        test = self.test

        title = self.title

        updated_at = self.updated_at

        approval: dict[str, Any] | None | Unset
        if isinstance(self.approval, Unset):
            approval = UNSET
        elif isinstance(self.approval, ApprovalOut):
            approval = self.approval.to_dict()
        else:
            approval = self.approval

        completed_at: None | str | Unset
        if isinstance(self.completed_at, Unset):
            completed_at = UNSET
        else:
            completed_at = self.completed_at

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        expires_at: None | str | Unset
        if isinstance(self.expires_at, Unset):
            expires_at = UNSET
        else:
            expires_at = self.expires_at

        external_id: None | str | Unset
        if isinstance(self.external_id, Unset):
            external_id = UNSET
        else:
            external_id = self.external_id

        page_count: int | None | Unset
        if isinstance(self.page_count, Unset):
            page_count = UNSET
        else:
            page_count = self.page_count

        reason: None | str | Unset
        if isinstance(self.reason, Unset):
            reason = UNSET
        else:
            reason = self.reason

        sent_at: None | str | Unset
        if isinstance(self.sent_at, Unset):
            sent_at = UNSET
        else:
            sent_at = self.sent_at

        template_id: None | str | Unset
        if isinstance(self.template_id, Unset):
            template_id = UNSET
        else:
            template_id = self.template_id

        template_version: int | None | Unset
        if isinstance(self.template_version, Unset):
            template_version = UNSET
        else:
            template_version = self.template_version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "id": id,
                "metadata": metadata,
                "paper": paper,
                "payments": payments,
                "people": people,
                "state": state,
                "test": test,
                "title": title,
                "updatedAt": updated_at,
            }
        )
        if approval is not UNSET:
            field_dict["approval"] = approval
        if completed_at is not UNSET:
            field_dict["completedAt"] = completed_at
        if description is not UNSET:
            field_dict["description"] = description
        if expires_at is not UNSET:
            field_dict["expiresAt"] = expires_at
        if external_id is not UNSET:
            field_dict["externalId"] = external_id
        if page_count is not UNSET:
            field_dict["pageCount"] = page_count
        if reason is not UNSET:
            field_dict["reason"] = reason
        if sent_at is not UNSET:
            field_dict["sentAt"] = sent_at
        if template_id is not UNSET:
            field_dict["templateId"] = template_id
        if template_version is not UNSET:
            field_dict["templateVersion"] = template_version

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.approval_out import ApprovalOut
        from ..models.document_out_metadata import DocumentOutMetadata
        from ..models.payment_out import PaymentOut
        from ..models.person_out import PersonOut

        d = dict(src_dict)
        created_at = d.pop("createdAt")

        id = d.pop("id")

        metadata = DocumentOutMetadata.from_dict(d.pop("metadata"))

        paper = d.pop("paper")

        payments = []
        _payments = d.pop("payments")
        for payments_item_data in _payments:
            payments_item = PaymentOut.from_dict(payments_item_data)

            payments.append(payments_item)

        people = []
        _people = d.pop("people")
        for people_item_data in _people:
            people_item = PersonOut.from_dict(people_item_data)

            people.append(people_item)

        state = d.pop("state")

        test = d.pop("test")

        title = d.pop("title")

        updated_at = d.pop("updatedAt")

        def _parse_approval(data: object) -> ApprovalOut | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                approval_type_1 = ApprovalOut.from_dict(data)

                return approval_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ApprovalOut | None | Unset, data)

        approval = _parse_approval(d.pop("approval", UNSET))

        def _parse_completed_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        completed_at = _parse_completed_at(d.pop("completedAt", UNSET))

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        def _parse_expires_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        expires_at = _parse_expires_at(d.pop("expiresAt", UNSET))

        def _parse_external_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        external_id = _parse_external_id(d.pop("externalId", UNSET))

        def _parse_page_count(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        page_count = _parse_page_count(d.pop("pageCount", UNSET))

        def _parse_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reason = _parse_reason(d.pop("reason", UNSET))

        def _parse_sent_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        sent_at = _parse_sent_at(d.pop("sentAt", UNSET))

        def _parse_template_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        template_id = _parse_template_id(d.pop("templateId", UNSET))

        def _parse_template_version(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        template_version = _parse_template_version(d.pop("templateVersion", UNSET))

        document_out = cls(
            created_at=created_at,
            id=id,
            metadata=metadata,
            paper=paper,
            payments=payments,
            people=people,
            state=state,
            test=test,
            title=title,
            updated_at=updated_at,
            approval=approval,
            completed_at=completed_at,
            description=description,
            expires_at=expires_at,
            external_id=external_id,
            page_count=page_count,
            reason=reason,
            sent_at=sent_at,
            template_id=template_id,
            template_version=template_version,
        )

        document_out.additional_properties = d
        return document_out

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
