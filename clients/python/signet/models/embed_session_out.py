from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="EmbedSessionOut")


@_attrs_define
class EmbedSessionOut:
    """
    Attributes:
        document_id (str):
        expires_at (str):
        origin (str):
        seat (str):
        url (str): The signing page for a frame or `<signet-signing url="...">`. It works once, for an
            hour, on `origin` only. Never log it or put it in a URL your users can share.
    """

    document_id: str
    expires_at: str
    origin: str
    seat: str
    url: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        document_id = self.document_id

        expires_at = self.expires_at

        origin = self.origin

        seat = self.seat

        url = self.url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "documentId": document_id,
                "expiresAt": expires_at,
                "origin": origin,
                "seat": seat,
                "url": url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        document_id = d.pop("documentId")

        expires_at = d.pop("expiresAt")

        origin = d.pop("origin")

        seat = d.pop("seat")

        url = d.pop("url")

        embed_session_out = cls(
            document_id=document_id,
            expires_at=expires_at,
            origin=origin,
            seat=seat,
            url=url,
        )

        embed_session_out.additional_properties = d
        return embed_session_out

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
