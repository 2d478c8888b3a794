from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.play_problem_out import PlayProblemOut
    from ..models.play_question_out import PlayQuestionOut
    from ..models.play_seat_out import PlaySeatOut
    from ..models.play_test_out_answers import PlayTestOutAnswers
    from ..models.play_test_out_preview_type_0 import PlayTestOutPreviewType0


T = TypeVar("T", bound="PlayTestOut")


@_attrs_define
class PlayTestOut:
    """
    Attributes:
        answers (PlayTestOutAnswers): The answers of that walk.
        name (str): The header as far as it could be read.
        ok (bool): True when the play can be saved and drafted from as it is.
        problems (list[PlayProblemOut]): Every problem, in the file's order.
        rounds (list[list[PlayQuestionOut]]): The questions as a person meets them taking every default (the first
            option where a
            question has none): rounds of at most four.
        seats (list[PlaySeatOut]):
        title (str):
        warnings (list[PlayProblemOut]): What the document check would warn a sender about in the words drafted with
            every
            default.
        preview (None | PlayTestOutPreviewType0 | Unset): The words drafted with those answers, in the source model
            (what POST /documents
            takes); null when the file could not be read.
    """

    answers: PlayTestOutAnswers
    name: str
    ok: bool
    problems: list[PlayProblemOut]
    rounds: list[list[PlayQuestionOut]]
    seats: list[PlaySeatOut]
    title: str
    warnings: list[PlayProblemOut]
    preview: None | PlayTestOutPreviewType0 | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.play_test_out_preview_type_0 import PlayTestOutPreviewType0

        answers = self.answers.to_dict()

        name = self.name

        ok = self.ok

        problems = []
        for problems_item_data in self.problems:
            problems_item = problems_item_data.to_dict()
            problems.append(problems_item)

        rounds = []
        for rounds_item_data in self.rounds:
            rounds_item = []
            for rounds_item_item_data in rounds_item_data:
                rounds_item_item = rounds_item_item_data.to_dict()
                rounds_item.append(rounds_item_item)

            rounds.append(rounds_item)

        seats = []
        for seats_item_data in self.seats:
            seats_item = seats_item_data.to_dict()
            seats.append(seats_item)

        title = self.title

        warnings = []
        for warnings_item_data in self.warnings:
            warnings_item = warnings_item_data.to_dict()
            warnings.append(warnings_item)

        preview: dict[str, Any] | None | Unset
        if isinstance(self.preview, Unset):
            preview = UNSET
        elif isinstance(self.preview, PlayTestOutPreviewType0):
            preview = self.preview.to_dict()
        else:
            preview = self.preview

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "answers": answers,
                "name": name,
                "ok": ok,
                "problems": problems,
                "rounds": rounds,
                "seats": seats,
                "title": title,
                "warnings": warnings,
            }
        )
        if preview is not UNSET:
            field_dict["preview"] = preview

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.play_problem_out import PlayProblemOut
        from ..models.play_question_out import PlayQuestionOut
        from ..models.play_seat_out import PlaySeatOut
        from ..models.play_test_out_answers import PlayTestOutAnswers
        from ..models.play_test_out_preview_type_0 import PlayTestOutPreviewType0

        d = dict(src_dict)
        answers = PlayTestOutAnswers.from_dict(d.pop("answers"))

        name = d.pop("name")

        ok = d.pop("ok")

        problems = []
        _problems = d.pop("problems")
        for problems_item_data in _problems:
            problems_item = PlayProblemOut.from_dict(problems_item_data)

            problems.append(problems_item)

        rounds = []
        _rounds = d.pop("rounds")
        for rounds_item_data in _rounds:
            rounds_item = []
            _rounds_item = rounds_item_data
            for rounds_item_item_data in _rounds_item:
                rounds_item_item = PlayQuestionOut.from_dict(rounds_item_item_data)

                rounds_item.append(rounds_item_item)

            rounds.append(rounds_item)

        seats = []
        _seats = d.pop("seats")
        for seats_item_data in _seats:
            seats_item = PlaySeatOut.from_dict(seats_item_data)

            seats.append(seats_item)

        title = d.pop("title")

        warnings = []
        _warnings = d.pop("warnings")
        for warnings_item_data in _warnings:
            warnings_item = PlayProblemOut.from_dict(warnings_item_data)

            warnings.append(warnings_item)

        def _parse_preview(data: object) -> None | PlayTestOutPreviewType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                preview_type_0 = PlayTestOutPreviewType0.from_dict(data)

                return preview_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PlayTestOutPreviewType0 | Unset, data)

        preview = _parse_preview(d.pop("preview", UNSET))

        play_test_out = cls(
            answers=answers,
            name=name,
            ok=ok,
            problems=problems,
            rounds=rounds,
            seats=seats,
            title=title,
            warnings=warnings,
            preview=preview,
        )

        play_test_out.additional_properties = d
        return play_test_out

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
