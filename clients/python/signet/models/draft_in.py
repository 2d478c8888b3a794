from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.draft_in_answers_type_0 import DraftInAnswersType0
    from ..models.person_in import PersonIn


T = TypeVar("T", bound="DraftIn")


@_attrs_define
class DraftIn:
    """
    Attributes:
        people (list[PersonIn]): One person or more for each seat of the play (`role` is the seat's role word), with the
            fields of POST /documents' people.
        play (str): The play's name: built in, or the workspace's published one.
        answers (DraftInAnswersType0 | None | Unset): Answers given at once: question id to option value.
        tailor (bool | None | Unset): Once the draft is made, start an AI job that proposes tailoring its words as the
            play's guidance says (`tailoring`). Needs AI drafting on and `documents:write`.
        title (None | str | Unset): The draft's title; the play's title when left out.
        use_defaults (bool | None | Unset): Answer every question that has a default with it.
    """

    people: list[PersonIn]
    play: str
    answers: DraftInAnswersType0 | None | Unset = UNSET
    tailor: bool | None | Unset = UNSET
    title: None | str | Unset = UNSET
    use_defaults: bool | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.draft_in_answers_type_0 import DraftInAnswersType0

        people = []
        for people_item_data in self.people:
            people_item = people_item_data.to_dict()
            people.append(people_item)

        play = self.play

        answers: dict[str, Any] | None | Unset
        if isinstance(self.answers, Unset):
            answers = UNSET
        elif isinstance(self.answers, DraftInAnswersType0):
            answers = self.answers.to_dict()
        else:
            answers = self.answers

        tailor: bool | None | Unset
        if isinstance(self.tailor, Unset):
            tailor = UNSET
        else:
            tailor = self.tailor

        title: None | str | Unset
        if isinstance(self.title, Unset):
            title = UNSET
        else:
            title = self.title

        use_defaults: bool | None | Unset
        if isinstance(self.use_defaults, Unset):
            use_defaults = UNSET
        else:
            use_defaults = self.use_defaults

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "people": people,
                "play": play,
            }
        )
        if answers is not UNSET:
            field_dict["answers"] = answers
        if tailor is not UNSET:
            field_dict["tailor"] = tailor
        if title is not UNSET:
            field_dict["title"] = title
        if use_defaults is not UNSET:
            field_dict["useDefaults"] = use_defaults

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.draft_in_answers_type_0 import DraftInAnswersType0
        from ..models.person_in import PersonIn

        d = dict(src_dict)
        people = []
        _people = d.pop("people")
        for people_item_data in _people:
            people_item = PersonIn.from_dict(people_item_data)

            people.append(people_item)

        play = d.pop("play")

        def _parse_answers(data: object) -> DraftInAnswersType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                answers_type_0 = DraftInAnswersType0.from_dict(data)

                return answers_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DraftInAnswersType0 | None | Unset, data)

        answers = _parse_answers(d.pop("answers", UNSET))

        def _parse_tailor(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        tailor = _parse_tailor(d.pop("tailor", UNSET))

        def _parse_title(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        title = _parse_title(d.pop("title", UNSET))

        def _parse_use_defaults(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        use_defaults = _parse_use_defaults(d.pop("useDefaults", UNSET))

        draft_in = cls(
            people=people,
            play=play,
            answers=answers,
            tailor=tailor,
            title=title,
            use_defaults=use_defaults,
        )

        return draft_in
