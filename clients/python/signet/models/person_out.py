from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.person_out_metadata import PersonOutMetadata


T = TypeVar("T", bound="PersonOut")


@_attrs_define
class PersonOut:
    """
    Attributes:
        action (str): `sign`, `approve` or `cc`.
        checks (list[str]): What the signing page asks of this person before it shows the document:
            `accessCode`, `emailCode`. The codes themselves are never returned.
        email (str):
        embedded (bool): Signed inside the caller's own app: nobody emails this person.
        id (str):
        metadata (PersonOutMetadata):
        name (str):
        order (int):
        seat (str):
        status (str): `waiting` (not their turn), `invited`, `opened`, `signed` or `declined`.
        declined_at (None | str | Unset):
        external_id (None | str | Unset):
        invited_at (None | str | Unset):
        locale (None | str | Unset): The language of this person's emails, when it was given for them.
        opened_at (None | str | Unset):
        signed_at (None | str | Unset):
    """

    action: str
    checks: list[str]
    email: str
    embedded: bool
    id: str
    metadata: PersonOutMetadata
    name: str
    order: int
    seat: str
    status: str
    declined_at: None | str | Unset = UNSET
    external_id: None | str | Unset = UNSET
    invited_at: None | str | Unset = UNSET
    locale: None | str | Unset = UNSET
    opened_at: None | str | Unset = UNSET
    signed_at: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        action = self.action

        checks = self.checks

        email = self.email

        embedded = self.embedded

        id = self.id

        metadata = self.metadata.to_dict()

        name = self.name

        order = self.order

        seat = self.seat

        status = self.status

        declined_at: None | str | Unset
        if isinstance(self.declined_at, Unset):
            declined_at = UNSET
        else:
            declined_at = self.declined_at

        external_id: None | str | Unset
        if isinstance(self.external_id, Unset):
            external_id = UNSET
        else:
            external_id = self.external_id

        invited_at: None | str | Unset
        if isinstance(self.invited_at, Unset):
            invited_at = UNSET
        else:
            invited_at = self.invited_at

        locale: None | str | Unset
        if isinstance(self.locale, Unset):
            locale = UNSET
        else:
            locale = self.locale

        opened_at: None | str | Unset
        if isinstance(self.opened_at, Unset):
            opened_at = UNSET
        else:
            opened_at = self.opened_at

        signed_at: None | str | Unset
        if isinstance(self.signed_at, Unset):
            signed_at = UNSET
        else:
            signed_at = self.signed_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "action": action,
                "checks": checks,
                "email": email,
                "embedded": embedded,
                "id": id,
                "metadata": metadata,
                "name": name,
                "order": order,
                "seat": seat,
                "status": status,
            }
        )
        if declined_at is not UNSET:
            field_dict["declinedAt"] = declined_at
        if external_id is not UNSET:
            field_dict["externalId"] = external_id
        if invited_at is not UNSET:
            field_dict["invitedAt"] = invited_at
        if locale is not UNSET:
            field_dict["locale"] = locale
        if opened_at is not UNSET:
            field_dict["openedAt"] = opened_at
        if signed_at is not UNSET:
            field_dict["signedAt"] = signed_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.person_out_metadata import PersonOutMetadata

        d = dict(src_dict)
        action = d.pop("action")

        checks = cast(list[str], d.pop("checks"))

        email = d.pop("email")

        embedded = d.pop("embedded")

        id = d.pop("id")

        metadata = PersonOutMetadata.from_dict(d.pop("metadata"))

        name = d.pop("name")

        order = d.pop("order")

        seat = d.pop("seat")

        status = d.pop("status")

        def _parse_declined_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        declined_at = _parse_declined_at(d.pop("declinedAt", UNSET))

        def _parse_external_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        external_id = _parse_external_id(d.pop("externalId", UNSET))

        def _parse_invited_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        invited_at = _parse_invited_at(d.pop("invitedAt", UNSET))

        def _parse_locale(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        locale = _parse_locale(d.pop("locale", UNSET))

        def _parse_opened_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        opened_at = _parse_opened_at(d.pop("openedAt", UNSET))

        def _parse_signed_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        signed_at = _parse_signed_at(d.pop("signedAt", UNSET))

        person_out = cls(
            action=action,
            checks=checks,
            email=email,
            embedded=embedded,
            id=id,
            metadata=metadata,
            name=name,
            order=order,
            seat=seat,
            status=status,
            declined_at=declined_at,
            external_id=external_id,
            invited_at=invited_at,
            locale=locale,
            opened_at=opened_at,
            signed_at=signed_at,
        )

        person_out.additional_properties = d
        return person_out

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
