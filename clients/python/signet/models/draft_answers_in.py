from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.draft_answers_in_answers import DraftAnswersInAnswers


T = TypeVar("T", bound="DraftAnswersIn")


@_attrs_define
class DraftAnswersIn:
    """
    Attributes:
        answers (DraftAnswersInAnswers): Question id to option value.
        tailor (bool | None | Unset): As POST /drafts' `tailor`; asked once, it stays asked.
        use_defaults (bool | None | Unset):
    """

    answers: DraftAnswersInAnswers
    tailor: bool | None | Unset = UNSET
    use_defaults: bool | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        answers = self.answers.to_dict()

        tailor: bool | None | Unset
        if isinstance(self.tailor, Unset):
            tailor = UNSET
        else:
            tailor = self.tailor

        use_defaults: bool | None | Unset
        if isinstance(self.use_defaults, Unset):
            use_defaults = UNSET
        else:
            use_defaults = self.use_defaults

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "answers": answers,
            }
        )
        if tailor is not UNSET:
            field_dict["tailor"] = tailor
        if use_defaults is not UNSET:
            field_dict["useDefaults"] = use_defaults

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.draft_answers_in_answers import DraftAnswersInAnswers

        d = dict(src_dict)
        answers = DraftAnswersInAnswers.from_dict(d.pop("answers"))

        def _parse_tailor(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        tailor = _parse_tailor(d.pop("tailor", UNSET))

        def _parse_use_defaults(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        use_defaults = _parse_use_defaults(d.pop("useDefaults", UNSET))

        draft_answers_in = cls(
            answers=answers,
            tailor=tailor,
            use_defaults=use_defaults,
        )

        return draft_answers_in
