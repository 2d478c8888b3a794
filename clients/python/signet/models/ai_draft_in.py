from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.brief_in import BriefIn


T = TypeVar("T", bound="AiDraftIn")


@_attrs_define
class AiDraftIn:
    """
    Attributes:
        brief (BriefIn | None | Unset):
        mode (None | str | Unset): `document` (the default) or `template` (the words may ask questions).
        prompt (None | str | Unset): What to draft, in a person's words (up to 8,000 characters).
    """

    brief: BriefIn | None | Unset = UNSET
    mode: None | str | Unset = UNSET
    prompt: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.brief_in import BriefIn

        brief: dict[str, Any] | None | Unset
        if isinstance(self.brief, Unset):
            brief = UNSET
        elif isinstance(self.brief, BriefIn):
            brief = self.brief.to_dict()
        else:
            brief = self.brief

        mode: None | str | Unset
        if isinstance(self.mode, Unset):
            mode = UNSET
        else:
            mode = self.mode

        prompt: None | str | Unset
        if isinstance(self.prompt, Unset):
            prompt = UNSET
        else:
            prompt = self.prompt

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if brief is not UNSET:
            field_dict["brief"] = brief
        if mode is not UNSET:
            field_dict["mode"] = mode
        if prompt is not UNSET:
            field_dict["prompt"] = prompt

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.brief_in import BriefIn

        d = dict(src_dict)

        def _parse_brief(data: object) -> BriefIn | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                brief_type_1 = BriefIn.from_dict(data)

                return brief_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(BriefIn | None | Unset, data)

        brief = _parse_brief(d.pop("brief", UNSET))

        def _parse_mode(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        mode = _parse_mode(d.pop("mode", UNSET))

        def _parse_prompt(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        prompt = _parse_prompt(d.pop("prompt", UNSET))

        ai_draft_in = cls(
            brief=brief,
            mode=mode,
            prompt=prompt,
        )

        return ai_draft_in
