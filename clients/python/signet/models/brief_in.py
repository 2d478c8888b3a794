from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.brief_in_answers_type_0 import BriefInAnswersType0
    from ..models.brief_payment_in import BriefPaymentIn


T = TypeVar("T", bound="BriefIn")


@_attrs_define
class BriefIn:
    """
    Attributes:
        answers (BriefInAnswersType0 | None | Unset): The wizard's other answers by question key: `parties` (role words,
            or objects with
            `role` and `label`), `terms`, `law`, ...
        final (None | str | Unset): Last words from the person: what the draft must say or avoid.
        kind (None | str | Unset): `document` or `template`; must agree with `mode` when both are given.
        payment (BriefPaymentIn | None | Unset):
        type_ (None | str | Unset): The kind of document: one of the wizard's types (`nda`, `services`, ...) or a few
            words.
    """

    answers: BriefInAnswersType0 | None | Unset = UNSET
    final: None | str | Unset = UNSET
    kind: None | str | Unset = UNSET
    payment: BriefPaymentIn | None | Unset = UNSET
    type_: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.brief_in_answers_type_0 import BriefInAnswersType0
        from ..models.brief_payment_in import BriefPaymentIn

        answers: dict[str, Any] | None | Unset
        if isinstance(self.answers, Unset):
            answers = UNSET
        elif isinstance(self.answers, BriefInAnswersType0):
            answers = self.answers.to_dict()
        else:
            answers = self.answers

        final: None | str | Unset
        if isinstance(self.final, Unset):
            final = UNSET
        else:
            final = self.final

        kind: None | str | Unset
        if isinstance(self.kind, Unset):
            kind = UNSET
        else:
            kind = self.kind

        payment: dict[str, Any] | None | Unset
        if isinstance(self.payment, Unset):
            payment = UNSET
        elif isinstance(self.payment, BriefPaymentIn):
            payment = self.payment.to_dict()
        else:
            payment = self.payment

        type_: None | str | Unset
        if isinstance(self.type_, Unset):
            type_ = UNSET
        else:
            type_ = self.type_

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if answers is not UNSET:
            field_dict["answers"] = answers
        if final is not UNSET:
            field_dict["final"] = final
        if kind is not UNSET:
            field_dict["kind"] = kind
        if payment is not UNSET:
            field_dict["payment"] = payment
        if type_ is not UNSET:
            field_dict["type"] = type_

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.brief_in_answers_type_0 import BriefInAnswersType0
        from ..models.brief_payment_in import BriefPaymentIn

        d = dict(src_dict)

        def _parse_answers(data: object) -> BriefInAnswersType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                answers_type_0 = BriefInAnswersType0.from_dict(data)

                return answers_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(BriefInAnswersType0 | None | Unset, data)

        answers = _parse_answers(d.pop("answers", UNSET))

        def _parse_final(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        final = _parse_final(d.pop("final", UNSET))

        def _parse_kind(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        kind = _parse_kind(d.pop("kind", UNSET))

        def _parse_payment(data: object) -> BriefPaymentIn | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                payment_type_1 = BriefPaymentIn.from_dict(data)

                return payment_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(BriefPaymentIn | None | Unset, data)

        payment = _parse_payment(d.pop("payment", UNSET))

        def _parse_type_(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        type_ = _parse_type_(d.pop("type", UNSET))

        brief_in = cls(
            answers=answers,
            final=final,
            kind=kind,
            payment=payment,
            type_=type_,
        )

        return brief_in
