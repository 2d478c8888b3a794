from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.team_member_out import TeamMemberOut


T = TypeVar("T", bound="TeamOut")


@_attrs_define
class TeamOut:
    """
    Attributes:
        id (str):
        members (list[TeamMemberOut]):
        name (str):
    """

    id: str
    members: list[TeamMemberOut]
    name: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        members = []
        for members_item_data in self.members:
            members_item = members_item_data.to_dict()
            members.append(members_item)

        name = self.name

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "members": members,
                "name": name,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.team_member_out import TeamMemberOut

        d = dict(src_dict)
        id = d.pop("id")

        members = []
        _members = d.pop("members")
        for members_item_data in _members:
            members_item = TeamMemberOut.from_dict(members_item_data)

            members.append(members_item)

        name = d.pop("name")

        team_out = cls(
            id=id,
            members=members,
            name=name,
        )

        team_out.additional_properties = d
        return team_out

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
