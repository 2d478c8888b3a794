"""Errors: every answer that is not a success raises a `SignetError` carrying the spec's error
shape (`kind`, `message`, `request_id`, `retryable`) and the HTTP status."""

from __future__ import annotations

import json

import httpx


class SignetError(Exception):
    """An answer in the spec's error shape, or a failure to get one.

    `kind` is one of invalid, unauthenticated, forbidden, not_found, conflict, rate_limited,
    dependency, timeout, or `transport` when no answer came (the server could not be reached, or
    the connection broke or timed out; `status` is then None). `retryable` says whether the same
    request may succeed later; the client has already retried it when it was.
    """

    def __init__(
        self,
        kind: str,
        message: str,
        *,
        status: int | None = None,
        request_id: str | None = None,
        retryable: bool = False,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(
            f"{kind}: {message}" + (f" (request {request_id})" if request_id else "")
        )
        self.kind = kind
        self.message = message
        self.status = status
        self.request_id = request_id
        self.retryable = retryable
        self.retry_after = retry_after


class InvalidRequest(SignetError):
    """400: the message names the field and the reason."""


class Unauthenticated(SignetError):
    """401: the key is missing, wrong, revoked, expired, or lacks the scope."""


class Forbidden(SignetError):
    """403: the key is valid but the action is not allowed."""


class NotFound(SignetError):
    """404."""


class Conflict(SignetError):
    """409: the resource is not in a state that allows this (or an idempotency key was reused
    with another body)."""


class RateLimited(SignetError):
    """429: over the key's per-minute budget or a daily limit; `retry_after` is in seconds."""


class DependencyError(SignetError):
    """502: a service Signet depends on failed."""


class Timeout(SignetError):
    """504: the work took too long."""


_KINDS: dict[str, type[SignetError]] = {
    "invalid": InvalidRequest,
    "unauthenticated": Unauthenticated,
    "forbidden": Forbidden,
    "not_found": NotFound,
    "conflict": Conflict,
    "rate_limited": RateLimited,
    "dependency": DependencyError,
    "timeout": Timeout,
}


def retry_after_seconds(response: httpx.Response) -> float | None:
    """The answer's Retry-After in seconds (only the delta-seconds form is sent by Signet)."""
    value = response.headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        return None


def error_from_response(response: httpx.Response) -> SignetError:
    """The exception for an answer that is not a success; the body must have been read."""
    kind, message, request_id, retryable = "", "", None, response.status_code >= 500
    try:
        body = json.loads(response.content)
        err = body.get("error") if isinstance(body, dict) else None
        if isinstance(err, dict):
            kind = str(err.get("kind", ""))
            message = str(err.get("message", ""))
            request_id = err.get("requestId")
            retryable = bool(err.get("retryable", retryable))
    except ValueError:
        pass
    if not kind:
        kind = {
            400: "invalid",
            401: "unauthenticated",
            403: "forbidden",
            404: "not_found",
            409: "conflict",
            429: "rate_limited",
            504: "timeout",
        }.get(response.status_code, "dependency")
        message = message or response.text[:200] or response.reason_phrase
    request_id = request_id or response.headers.get("request-id")
    cls = _KINDS.get(kind, SignetError)
    return cls(
        kind,
        message,
        status=response.status_code,
        request_id=request_id,
        retryable=retryable or response.status_code == 429,
        retry_after=retry_after_seconds(response),
    )
