"""Verifying a webhook delivery (Standard Webhooks): `webhook-id`, `webhook-timestamp` and a
signature header (`webhook-signature`, or `service-signature` carrying the same values) whose
`v1,<base64 HMAC-SHA256 of id.timestamp.body>` matches one of the endpoint's secrets. During a
rotation a delivery carries one signature per live secret, so a receiver holding either the old
or the new secret accepts it."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ._errors import SignetError

TOLERANCE_SECONDS = 300
# A delivery carries one signature per live secret (two during a rotation); more is not ours.
_MAX_SIGNATURES = 8


class WebhookVerificationError(SignetError):
    """The delivery is not from Signet, was changed, or is too old or too new: answer 400."""

    def __init__(self, message: str) -> None:
        super().__init__("invalid", message)


@dataclass(frozen=True)
class WebhookEvent:
    """A verified delivery. `webhook_id` is the same on every retry and replay of it: skip ids
    already handled. `data["document"]` is the document as it was; fetch it for its present."""

    webhook_id: str
    id: str
    type: str
    created_at: str
    test: bool
    data: dict[str, Any] = field(default_factory=dict)
    raw: dict[str, Any] = field(default_factory=dict)

    @property
    def document_id(self) -> str | None:
        doc = self.data.get("document")
        return doc.get("id") if isinstance(doc, dict) else None


def _key(secret: str) -> bytes:
    """`whsec_` then the key in base64 (Signet writes base64url without padding; the
    standard alphabet is taken too)."""
    raw = secret.removeprefix("whsec_").strip()
    raw = raw.replace("-", "+").replace("_", "/")
    raw += "=" * (-len(raw) % 4)
    try:
        return base64.b64decode(raw, validate=True)
    except ValueError as e:
        raise ValueError("not a webhook secret (whsec_...)") from e


def _header(headers: Mapping[str, str], name: str) -> str | None:
    for k, v in headers.items():
        if k.lower() == name:
            return v
    return None


def verify_webhook(
    body: bytes | str,
    headers: Mapping[str, str],
    secret: str | Iterable[str],
    *,
    tolerance: int = TOLERANCE_SECONDS,
    now: float | None = None,
) -> WebhookEvent:
    """The typed event of a delivery, or `WebhookVerificationError`.

    `body` is the raw body exactly as received (before any JSON parsing); `secret` is the
    endpoint's `whsec_...` secret, or several (an old and a new one while rotating).
    """
    raw = body.encode() if isinstance(body, str) else bytes(body)
    secrets = [secret] if isinstance(secret, str) else list(secret)
    if not secrets:
        raise ValueError("no webhook secret given")
    keys = [_key(s) for s in secrets]
    msg_id = _header(headers, "webhook-id")
    stamp = _header(headers, "webhook-timestamp")
    signatures = " ".join(
        v
        for v in (
            _header(headers, "webhook-signature"),
            _header(headers, "service-signature"),
        )
        if v
    )
    if not msg_id or not stamp or not signatures:
        raise WebhookVerificationError(
            "missing webhook-id, webhook-timestamp or a signature header"
        )
    try:
        sent = int(stamp)
    except ValueError:
        raise WebhookVerificationError("webhook-timestamp is not a number") from None
    now_s = time.time() if now is None else now
    if sent < now_s - tolerance:
        raise WebhookVerificationError("the delivery is older than the tolerance")
    if sent > now_s + tolerance:
        raise WebhookVerificationError("the delivery is dated in the future")
    signed = msg_id.encode() + b"." + stamp.encode() + b"." + raw
    expected = [
        base64.b64encode(hmac.new(k, signed, hashlib.sha256).digest()) for k in keys
    ]
    matched = False
    for given in signatures.split()[: 2 * _MAX_SIGNATURES]:
        version, _, value = given.partition(",")
        if version != "v1":
            continue
        if any(hmac.compare_digest(value.encode(), e) for e in expected):
            matched = True
            break
    if not matched:
        raise WebhookVerificationError("no signature matches the secret")
    try:
        event = json.loads(raw)
    except ValueError:
        raise WebhookVerificationError("the body is not JSON") from None
    if not isinstance(event, dict):
        raise WebhookVerificationError("the body is not an event")
    return WebhookEvent(
        webhook_id=msg_id,
        id=str(event.get("id", "")),
        type=str(event.get("type", "")),
        created_at=str(event.get("createdAt", "")),
        test=bool(event.get("test", False)),
        data=event.get("data") if isinstance(event.get("data"), dict) else {},
        raw=event,
    )
