from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.ai_job_out_source_type_0 import AiJobOutSourceType0
    from ..models.ai_patches_out import AiPatchesOut
    from ..models.ai_seat_out import AiSeatOut
    from ..models.ai_usage_out import AiUsageOut


T = TypeVar("T", bound="AiJobOut")


@_attrs_define
class AiJobOut:
    """
    Attributes:
        created_at (str):
        id (str): `job_…`.
        kind (str): `draft` or `edit`.
        mode (str): `document` or `template`.
        problems (list[str]): The problems the model's last answer still had, when it failed on them.
        seats (list[AiSeatOut]): The seats of a drafted source: role words and labels.
        state (str): `queued`, `running`, `done`, `failed` or `cancelled`.
        usage (AiUsageOut):
        document_id (None | str | Unset): For a play's tailoring (POST /drafts with `tailor`): the draft document the
            proposed
            changes are for; POST /documents/{id}/revise with the accepted words applies them.
        finished_at (None | str | Unset):
        patches (AiPatchesOut | None | Unset):
        reason (None | str | Unset): Why the job failed, in words a person can act on.
        source (AiJobOutSourceType0 | None | Unset): When `done`: for a draft, the words in the source model, passing
            POST
            /documents/check; for an edit, the words given with every proposed change applied.
        started_at (None | str | Unset):
        title (None | str | Unset): When `done` for a draft: the document's title.
    """

    created_at: str
    id: str
    kind: str
    mode: str
    problems: list[str]
    seats: list[AiSeatOut]
    state: str
    usage: AiUsageOut
    document_id: None | str | Unset = UNSET
    finished_at: None | str | Unset = UNSET
    patches: AiPatchesOut | None | Unset = UNSET
    reason: None | str | Unset = UNSET
    source: AiJobOutSourceType0 | None | Unset = UNSET
    started_at: None | str | Unset = UNSET
    title: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.ai_job_out_source_type_0 import AiJobOutSourceType0
        from ..models.ai_patches_out import AiPatchesOut

        created_at = self.created_at

        id = self.id

        kind = self.kind

        mode = self.mode

        problems = self.problems

        seats = []
        for seats_item_data in self.seats:
            seats_item = seats_item_data.to_dict()
            seats.append(seats_item)

        state = self.state

        usage = self.usage.to_dict()

        document_id: None | str | Unset
        if isinstance(self.document_id, Unset):
            document_id = UNSET
        else:
            document_id = self.document_id

        finished_at: None | str | Unset
        if isinstance(self.finished_at, Unset):
            finished_at = UNSET
        else:
            finished_at = self.finished_at

        patches: dict[str, Any] | None | Unset
        if isinstance(self.patches, Unset):
            patches = UNSET
        elif isinstance(self.patches, AiPatchesOut):
            patches = self.patches.to_dict()
        else:
            patches = self.patches

        reason: None | str | Unset
        if isinstance(self.reason, Unset):
            reason = UNSET
        else:
            reason = self.reason

        source: dict[str, Any] | None | Unset
        if isinstance(self.source, Unset):
            source = UNSET
        elif isinstance(self.source, AiJobOutSourceType0):
            source = self.source.to_dict()
        else:
            source = self.source

        started_at: None | str | Unset
        if isinstance(self.started_at, Unset):
            started_at = UNSET
        else:
            started_at = self.started_at

        title: None | str | Unset
        if isinstance(self.title, Unset):
            title = UNSET
        else:
            title = self.title

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "id": id,
                "kind": kind,
                "mode": mode,
                "problems": problems,
                "seats": seats,
                "state": state,
                "usage": usage,
            }
        )
        if document_id is not UNSET:
            field_dict["documentId"] = document_id
        if finished_at is not UNSET:
            field_dict["finishedAt"] = finished_at
        if patches is not UNSET:
            field_dict["patches"] = patches
        if reason is not UNSET:
            field_dict["reason"] = reason
        if source is not UNSET:
            field_dict["source"] = source
        if started_at is not UNSET:
            field_dict["startedAt"] = started_at
        if title is not UNSET:
            field_dict["title"] = title

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.ai_job_out_source_type_0 import AiJobOutSourceType0
        from ..models.ai_patches_out import AiPatchesOut
        from ..models.ai_seat_out import AiSeatOut
        from ..models.ai_usage_out import AiUsageOut

        d = dict(src_dict)
        created_at = d.pop("createdAt")

        id = d.pop("id")

        kind = d.pop("kind")

        mode = d.pop("mode")

        problems = cast(list[str], d.pop("problems"))

        seats = []
        _seats = d.pop("seats")
        for seats_item_data in _seats:
            seats_item = AiSeatOut.from_dict(seats_item_data)

            seats.append(seats_item)

        state = d.pop("state")

        usage = AiUsageOut.from_dict(d.pop("usage"))

        def _parse_document_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        document_id = _parse_document_id(d.pop("documentId", UNSET))

        def _parse_finished_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        finished_at = _parse_finished_at(d.pop("finishedAt", UNSET))

        def _parse_patches(data: object) -> AiPatchesOut | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                patches_type_1 = AiPatchesOut.from_dict(data)

                return patches_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AiPatchesOut | None | Unset, data)

        patches = _parse_patches(d.pop("patches", UNSET))

        def _parse_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reason = _parse_reason(d.pop("reason", UNSET))

        def _parse_source(data: object) -> AiJobOutSourceType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                source_type_0 = AiJobOutSourceType0.from_dict(data)

                return source_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AiJobOutSourceType0 | None | Unset, data)

        source = _parse_source(d.pop("source", UNSET))

        def _parse_started_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        started_at = _parse_started_at(d.pop("startedAt", UNSET))

        def _parse_title(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        title = _parse_title(d.pop("title", UNSET))

        ai_job_out = cls(
            created_at=created_at,
            id=id,
            kind=kind,
            mode=mode,
            problems=problems,
            seats=seats,
            state=state,
            usage=usage,
            document_id=document_id,
            finished_at=finished_at,
            patches=patches,
            reason=reason,
            source=source,
            started_at=started_at,
            title=title,
        )

        ai_job_out.additional_properties = d
        return ai_job_out

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
