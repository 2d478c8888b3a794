from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.ai_change_out_proposed_item import AiChangeOutProposedItem
    from ..models.ai_change_out_was_type_0 import AiChangeOutWasType0


T = TypeVar("T", bound="AiChangeOut")


@_attrs_define
class AiChangeOut:
    """One proposed change to the given source's top-level blocks, applicable on its own.

    Attributes:
        op (str): `replace`, `insert_before`, `insert_after` or `delete`.
        path (str): The block it is about: `content[3]` of the source given.
        proposed (list[AiChangeOutProposedItem]): The blocks proposed in its place or beside it (empty for a delete).
        why (str):
        was (AiChangeOutWasType0 | None | Unset): The block there now (null only for an insert into empty words).
    """

    op: str
    path: str
    proposed: list[AiChangeOutProposedItem]
    why: str
    was: AiChangeOutWasType0 | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.ai_change_out_was_type_0 import AiChangeOutWasType0

        op = self.op

        path = self.path

        proposed = []
        for proposed_item_data in self.proposed:
            proposed_item = proposed_item_data.to_dict()
            proposed.append(proposed_item)

        why = self.why

        was: dict[str, Any] | None | Unset
        if isinstance(self.was, Unset):
            was = UNSET
        elif isinstance(self.was, AiChangeOutWasType0):
            was = self.was.to_dict()
        else:
            was = self.was

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "op": op,
                "path": path,
                "proposed": proposed,
                "why": why,
            }
        )
        if was is not UNSET:
            field_dict["was"] = was

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.ai_change_out_proposed_item import AiChangeOutProposedItem
        from ..models.ai_change_out_was_type_0 import AiChangeOutWasType0

        d = dict(src_dict)
        op = d.pop("op")

        path = d.pop("path")

        proposed = []
        _proposed = d.pop("proposed")
        for proposed_item_data in _proposed:
            proposed_item = AiChangeOutProposedItem.from_dict(proposed_item_data)

            proposed.append(proposed_item)

        why = d.pop("why")

        def _parse_was(data: object) -> AiChangeOutWasType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                was_type_0 = AiChangeOutWasType0.from_dict(data)

                return was_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AiChangeOutWasType0 | None | Unset, data)

        was = _parse_was(d.pop("was", UNSET))

        ai_change_out = cls(
            op=op,
            path=path,
            proposed=proposed,
            why=why,
            was=was,
        )

        ai_change_out.additional_properties = d
        return ai_change_out

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
