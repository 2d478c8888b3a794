from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.party_in_metadata_type_0 import PartyInMetadataType0


T = TypeVar("T", bound="PartyIn")


@_attrs_define
class PartyIn:
    """One party of a template send: who takes a seat.

    Attributes:
        email (str):
        name (str):
        seat (str):
        access_code (None | str | Unset): As on a document's person.
        email_code (bool | None | Unset):
        external_id (None | str | Unset):
        locale (None | str | Unset): The language of this person's emails and page.
        metadata (None | PartyInMetadataType0 | Unset):
    """

    email: str
    name: str
    seat: str
    access_code: None | str | Unset = UNSET
    email_code: bool | None | Unset = UNSET
    external_id: None | str | Unset = UNSET
    locale: None | str | Unset = UNSET
    metadata: None | PartyInMetadataType0 | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.party_in_metadata_type_0 import PartyInMetadataType0

        email = self.email

        name = self.name

        seat = self.seat

        access_code: None | str | Unset
        if isinstance(self.access_code, Unset):
            access_code = UNSET
        else:
            access_code = self.access_code

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
        elif isinstance(self.metadata, PartyInMetadataType0):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "email": email,
                "name": name,
                "seat": seat,
            }
        )
        if access_code is not UNSET:
            field_dict["accessCode"] = access_code
        if email_code is not UNSET:
            field_dict["emailCode"] = email_code
        if external_id is not UNSET:
            field_dict["externalId"] = external_id
        if locale is not UNSET:
            field_dict["locale"] = locale
        if metadata is not UNSET:
            field_dict["metadata"] = metadata

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.party_in_metadata_type_0 import PartyInMetadataType0

        d = dict(src_dict)
        email = d.pop("email")

        name = d.pop("name")

        seat = d.pop("seat")

        def _parse_access_code(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        access_code = _parse_access_code(d.pop("accessCode", UNSET))

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

        def _parse_metadata(data: object) -> None | PartyInMetadataType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = PartyInMetadataType0.from_dict(data)

                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PartyInMetadataType0 | Unset, data)

        metadata = _parse_metadata(d.pop("metadata", UNSET))

        party_in = cls(
            email=email,
            name=name,
            seat=seat,
            access_code=access_code,
            email_code=email_code,
            external_id=external_id,
            locale=locale,
            metadata=metadata,
        )

        return party_in
