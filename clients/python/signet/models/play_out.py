from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.play_question_out import PlayQuestionOut
    from ..models.play_seat_out import PlaySeatOut
    from ..models.play_version_out import PlayVersionOut


T = TypeVar("T", bound="PlayOut")


@_attrs_define
class PlayOut:
    """
    Attributes:
        archived (bool): Archived plays are not listed and cannot be drafted from.
        built_in (bool):
        category (str):
        description (str):
        kind (str):
        language (str):
        latest (int): The newest version.
        name (str):
        questions (list[PlayQuestionOut]):
        seats (list[PlaySeatOut]):
        source (str): That version's file, as written.
        title (str):
        version (int): The version shown below: the one just saved, else the published one, else the newest.
        versions (list[PlayVersionOut]): Every version kept, newest first.
        published (int | None | Unset): The version drafts use; null until one is published.
    """

    archived: bool
    built_in: bool
    category: str
    description: str
    kind: str
    language: str
    latest: int
    name: str
    questions: list[PlayQuestionOut]
    seats: list[PlaySeatOut]
    source: str
    title: str
    version: int
    versions: list[PlayVersionOut]
    published: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        archived = self.archived

        built_in = self.built_in

        category = self.category

        description = self.description

        kind = self.kind

        language = self.language

        latest = self.latest

        name = self.name

        questions = []
        for questions_item_data in self.questions:
            questions_item = questions_item_data.to_dict()
            questions.append(questions_item)

        seats = []
        for seats_item_data in self.seats:
            seats_item = seats_item_data.to_dict()
            seats.append(seats_item)

        source = self.source

        title = self.title

        version = self.version

        versions = []
        for versions_item_data in self.versions:
            versions_item = versions_item_data.to_dict()
            versions.append(versions_item)

        published: int | None | Unset
        if isinstance(self.published, Unset):
            published = UNSET
        else:
            published = self.published

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "archived": archived,
                "builtIn": built_in,
                "category": category,
                "description": description,
                "kind": kind,
                "language": language,
                "latest": latest,
                "name": name,
                "questions": questions,
                "seats": seats,
                "source": source,
                "title": title,
                "version": version,
                "versions": versions,
            }
        )
        if published is not UNSET:
            field_dict["published"] = published

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.play_question_out import PlayQuestionOut
        from ..models.play_seat_out import PlaySeatOut
        from ..models.play_version_out import PlayVersionOut

        d = dict(src_dict)
        archived = d.pop("archived")

        built_in = d.pop("builtIn")

        category = d.pop("category")

        description = d.pop("description")

        kind = d.pop("kind")

        language = d.pop("language")

        latest = d.pop("latest")

        name = d.pop("name")

        questions = []
        _questions = d.pop("questions")
        for questions_item_data in _questions:
            questions_item = PlayQuestionOut.from_dict(questions_item_data)

            questions.append(questions_item)

        seats = []
        _seats = d.pop("seats")
        for seats_item_data in _seats:
            seats_item = PlaySeatOut.from_dict(seats_item_data)

            seats.append(seats_item)

        source = d.pop("source")

        title = d.pop("title")

        version = d.pop("version")

        versions = []
        _versions = d.pop("versions")
        for versions_item_data in _versions:
            versions_item = PlayVersionOut.from_dict(versions_item_data)

            versions.append(versions_item)

        def _parse_published(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        published = _parse_published(d.pop("published", UNSET))

        play_out = cls(
            archived=archived,
            built_in=built_in,
            category=category,
            description=description,
            kind=kind,
            language=language,
            latest=latest,
            name=name,
            questions=questions,
            seats=seats,
            source=source,
            title=title,
            version=version,
            versions=versions,
            published=published,
        )

        play_out.additional_properties = d
        return play_out

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
