from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.person_in_metadata_type_0 import PersonInMetadataType0


T = TypeVar("T", bound="PersonIn")


@_attrs_define
class PersonIn:
    """
    Attributes:
        email (str):
        name (str): Full name, printed under the person's signature.
        access_code (None | str | Unset): A code the sender gives this person outside Signet (4 to 64 characters); the
            signing
            page asks for it before it shows the document. Kept only as a salted keyed hash and
            never returned: a read shows `checks` instead.
        action (None | str | Unset): `sign` (default), `approve` (reads and approves, no signature needed) or `cc`
            (receives
            the finished copy).
        email_code (bool | None | Unset): Whether the signing page first emails this person a one-time code (6 digits,
            valid 10
            minutes) and asks for it.
        external_id (None | str | Unset):
        locale (None | str | Unset): The language of this person's emails (one of `send.language`'s codes); else the
            document's `email.locale`, `send.language`, the workspace's default, English.
        metadata (None | PersonInMetadataType0 | Unset):
        order (int | None | Unset): Signing order when `send.signingOrder` is true: lowest first, equal orders together.
        role (None | str | Unset): The role word of the text this person takes (their seat); `signer_<n>` when left out,
            n counting from 1 in the order of `people`.
    """

    email: str
    name: str
    access_code: None | str | Unset = UNSET
    action: None | str | Unset = UNSET
    email_code: bool | None | Unset = UNSET
    external_id: None | str | Unset = UNSET
    locale: None | str | Unset = UNSET
    metadata: None | PersonInMetadataType0 | Unset = UNSET
    order: int | None | Unset = UNSET
    role: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.person_in_metadata_type_0 import PersonInMetadataType0

        email = self.email

        name = self.name

        access_code: None | str | Unset
        if isinstance(self.access_code, Unset):
            access_code = UNSET
        else:
            access_code = self.access_code

        action: None | str | Unset
        if isinstance(self.action, Unset):
            action = UNSET
        else:
            action = self.action

        email_code: bool | None | Unset
        if isinstance(self.email_code, Unset):
            email_code = UNSET
        else:
            email_code = self.email_code

        external_id: None | str | Unset
        if isinstance(self.external_id, Unset):
            external_id = UNSET
        else:
            external_id = self.external_id

        locale: None | str | Unset
        if isinstance(self.locale, Unset):
            locale = UNSET
        else:
            locale = self.locale

        metadata: dict[str, Any] | None | Unset
        if isinstance(self.metadata, Unset):
            metadata = UNSET
        elif isinstance(self.metadata, PersonInMetadataType0):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

        order: int | None | Unset
        if isinstance(self.order, Unset):
            order = UNSET
        else:
            order = self.order

        role: None | str | Unset
        if isinstance(self.role, Unset):
            role = UNSET
        else:
            role = self.role

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "email": email,
                "name": name,
            }
        )
        if access_code is not UNSET:
            field_dict["accessCode"] = access_code
        if action is not UNSET:
            field_dict["action"] = action
        if email_code is not UNSET:
            field_dict["emailCode"] = email_code
        if external_id is not UNSET:
            field_dict["externalId"] = external_id
        if locale is not UNSET:
            field_dict["locale"] = locale
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if order is not UNSET:
            field_dict["order"] = order
        if role is not UNSET:
            field_dict["role"] = role

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.person_in_metadata_type_0 import PersonInMetadataType0

        d = dict(src_dict)
        email = d.pop("email")

        name = d.pop("name")

        def _parse_access_code(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        access_code = _parse_access_code(d.pop("accessCode", UNSET))

        def _parse_action(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        action = _parse_action(d.pop("action", UNSET))

        def _parse_email_code(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        email_code = _parse_email_code(d.pop("emailCode", UNSET))

        def _parse_external_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        external_id = _parse_external_id(d.pop("externalId", UNSET))

        def _parse_locale(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        locale = _parse_locale(d.pop("locale", UNSET))

        def _parse_metadata(data: object) -> None | PersonInMetadataType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = PersonInMetadataType0.from_dict(data)

                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PersonInMetadataType0 | Unset, data)

        metadata = _parse_metadata(d.pop("metadata", UNSET))

        def _parse_order(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        order = _parse_order(d.pop("order", UNSET))

        def _parse_role(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        role = _parse_role(d.pop("role", UNSET))

        person_in = cls(
            email=email,
            name=name,
            access_code=access_code,
            action=action,
            email_code=email_code,
            external_id=external_id,
            locale=locale,
            metadata=metadata,
            order=order,
            role=role,
        )

        return person_in
