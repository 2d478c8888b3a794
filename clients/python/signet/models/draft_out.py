from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.ai_job_out import AiJobOut
    from ..models.document_out import DocumentOut
    from ..models.draft_out_answers import DraftOutAnswers
    from ..models.play_question_out import PlayQuestionOut


T = TypeVar("T", bound="DraftOut")


@_attrs_define
class DraftOut:
    """
    Attributes:
        answers (DraftOutAnswers): Every answer so far, defaults taken included.
        draft_ref (str): Kept 24 hours from the first request.
        expires_at (str):
        play (str):
        questions (list[PlayQuestionOut]): The next questions: up to 4, each with 2 to 4 options. Empty once drafted.
        status (str): `needs_input` (answer `questions` with POST /drafts/{draftRef}/answers) or `draft`
            (`documentId` is the new draft document: read it, revise it, send it).
        version (int): The play's version the draft is made from, fixed at the first request.
        document (DocumentOut | None | Unset):
        document_id (None | str | Unset): The draft document, once made.
        tailoring (AiJobOut | None | Unset):
        tailoring_refused (None | str | Unset): With `tailor`, when the job could not start after the draft was made (a
            limit reached
            meanwhile): why. The same request again starts it.
    """

    answers: DraftOutAnswers
    draft_ref: str
    expires_at: str
    play: str
    questions: list[PlayQuestionOut]
    status: str
    version: int
    document: DocumentOut | None | Unset = UNSET
    document_id: None | str | Unset = UNSET
    tailoring: AiJobOut | None | Unset = UNSET
    tailoring_refused: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.ai_job_out import AiJobOut
        from ..models.document_out import DocumentOut

        answers = self.answers.to_dict()

        draft_ref = self.draft_ref

        expires_at = self.expires_at

        play = self.play

        questions = []
        for questions_item_data in self.questions:
            questions_item = questions_item_data.to_dict()
            questions.append(questions_item)

        status = self.status

        version = self.version

        document: dict[str, Any] | None | Unset
        if isinstance(self.document, Unset):
            document = UNSET
        elif isinstance(self.document, DocumentOut):
            document = self.document.to_dict()
        else:
            document = self.document

        document_id: None | str | Unset
        if isinstance(self.document_id, Unset):
            document_id = UNSET
        else:
            document_id = self.document_id

        tailoring: dict[str, Any] | None | Unset
        if isinstance(self.tailoring, Unset):
            tailoring = UNSET
        elif isinstance(self.tailoring, AiJobOut):
            tailoring = self.tailoring.to_dict()
        else:
            tailoring = self.tailoring

        tailoring_refused: None | str | Unset
        if isinstance(self.tailoring_refused, Unset):
            tailoring_refused = UNSET
        else:
            tailoring_refused = self.tailoring_refused

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "answers": answers,
                "draftRef": draft_ref,
                "expiresAt": expires_at,
                "play": play,
                "questions": questions,
                "status": status,
                "version": version,
            }
        )
        if document is not UNSET:
            field_dict["document"] = document
        if document_id is not UNSET:
            field_dict["documentId"] = document_id
        if tailoring is not UNSET:
            field_dict["tailoring"] = tailoring
        if tailoring_refused is not UNSET:
            field_dict["tailoringRefused"] = tailoring_refused

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.ai_job_out import AiJobOut
        from ..models.document_out import DocumentOut
        from ..models.draft_out_answers import DraftOutAnswers
        from ..models.play_question_out import PlayQuestionOut

        d = dict(src_dict)
        answers = DraftOutAnswers.from_dict(d.pop("answers"))

        draft_ref = d.pop("draftRef")

        expires_at = d.pop("expiresAt")

        play = d.pop("play")

        questions = []
        _questions = d.pop("questions")
        for questions_item_data in _questions:
            questions_item = PlayQuestionOut.from_dict(questions_item_data)

            questions.append(questions_item)

        status = d.pop("status")

        version = d.pop("version")

        def _parse_document(data: object) -> DocumentOut | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                document_type_1 = DocumentOut.from_dict(data)

                return document_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DocumentOut | None | Unset, data)

        document = _parse_document(d.pop("document", UNSET))

        def _parse_document_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        document_id = _parse_document_id(d.pop("documentId", UNSET))

        def _parse_tailoring(data: object) -> AiJobOut | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                tailoring_type_1 = AiJobOut.from_dict(data)

                return tailoring_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AiJobOut | None | Unset, data)

        tailoring = _parse_tailoring(d.pop("tailoring", UNSET))

        def _parse_tailoring_refused(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        tailoring_refused = _parse_tailoring_refused(d.pop("tailoringRefused", UNSET))

        draft_out = cls(
            answers=answers,
            draft_ref=draft_ref,
            expires_at=expires_at,
            play=play,
            questions=questions,
            status=status,
            version=version,
            document=document,
            document_id=document_id,
            tailoring=tailoring,
            tailoring_refused=tailoring_refused,
        )

        draft_out.additional_properties = d
        return draft_out

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
