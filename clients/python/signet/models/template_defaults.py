from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.template_defaults_send_type_0 import TemplateDefaultsSendType0


T = TypeVar("T", bound="TemplateDefaults")


@_attrs_define
class TemplateDefaults:
    """What a document made from a template starts with.

    Attributes:
        client_description (None | str | Unset): What the people are told the document is, kept with the template for
            the application
            and the builder.
        description (None | str | Unset): The document's description (the sender's, never shown to a signer).
        message (None | str | Unset): The invitation's message.
        send (None | TemplateDefaultsSendType0 | Unset): Sending options; a document's own `send` wins key by key.
    """

    client_description: None | str | Unset = UNSET
    description: None | str | Unset = UNSET
    message: None | str | Unset = UNSET
    send: None | TemplateDefaultsSendType0 | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.template_defaults_send_type_0 import TemplateDefaultsSendType0

        client_description: None | str | Unset
        if isinstance(self.client_description, Unset):
            client_description = UNSET
        else:
            client_description = self.client_description

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        message: None | str | Unset
        if isinstance(self.message, Unset):
            message = UNSET
        else:
            message = self.message

        send: dict[str, Any] | None | Unset
        if isinstance(self.send, Unset):
            send = UNSET
        elif isinstance(self.send, TemplateDefaultsSendType0):
            send = self.send.to_dict()
        else:
            send = self.send

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if client_description is not UNSET:
            field_dict["clientDescription"] = client_description
        if description is not UNSET:
            field_dict["description"] = description
        if message is not UNSET:
            field_dict["message"] = message
        if send is not UNSET:
            field_dict["send"] = send

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.template_defaults_send_type_0 import TemplateDefaultsSendType0

        d = dict(src_dict)

        def _parse_client_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        client_description = _parse_client_description(
            d.pop("clientDescription", UNSET)
        )

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        def _parse_message(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        message = _parse_message(d.pop("message", UNSET))

        def _parse_send(data: object) -> None | TemplateDefaultsSendType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                send_type_0 = TemplateDefaultsSendType0.from_dict(data)

                return send_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TemplateDefaultsSendType0 | Unset, data)

        send = _parse_send(d.pop("send", UNSET))

        template_defaults = cls(
            client_description=client_description,
            description=description,
            message=message,
            send=send,
        )

        return template_defaults
