"""The transports under every call: an `Idempotency-Key` for each POST that has none (kept
across the retries of that request), and retries of what may succeed later (a 429, a retryable
5xx, a connection that could not be made), waiting as `Retry-After` says or backing off."""

from __future__ import annotations

import asyncio
import random
import time
import uuid

import httpx

from ._errors import SignetError, retry_after_seconds

# The statuses worth asking again; the body's `retryable` has the last word on 5xx.
_RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
# Never wait longer than this between two attempts, whatever Retry-After says.
MAX_WAIT = 60.0


def _prepare(request: httpx.Request) -> bool:
    """Adds the idempotency key; whether the request may be sent again."""
    if request.method == "POST" and "idempotency-key" not in request.headers:
        request.headers["Idempotency-Key"] = f"py_{uuid.uuid4().hex}"
    return request.method in ("GET", "HEAD", "PUT", "DELETE", "OPTIONS") or (
        "idempotency-key" in request.headers
    )


def _body_retryable(response: httpx.Response) -> bool:
    if response.status_code == 429:
        return True
    try:
        err = response.json().get("error", {})
        return bool(err.get("retryable", False))
    except (ValueError, AttributeError):
        # No error body (a proxy in front): a 502/503/504 is worth another try.
        return response.status_code in (502, 503, 504)


def _unreachable(e: httpx.TransportError) -> SignetError:
    """No answer came (the server could not be reached, or the connection broke)."""
    err = SignetError("transport", f"no answer from the server: {e}", retryable=True)
    err.__cause__ = e
    return err


def _wait(response: httpx.Response | None, attempt: int) -> float:
    if response is not None:
        after = retry_after_seconds(response)
        if after is not None:
            return min(after, MAX_WAIT)
    # 0.5 s, 1 s, 2 s, ... with jitter, so many clients do not return at the same moment.
    return min(MAX_WAIT, 0.5 * 2**attempt) * (0.5 + random.random() / 2)


class RetryTransport(httpx.BaseTransport):
    def __init__(
        self, inner: httpx.BaseTransport, max_retries: int, sleep=time.sleep
    ) -> None:
        self._inner = inner
        self._max_retries = max_retries
        self._sleep = sleep

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        may_resend = _prepare(request)
        attempt = 0
        while True:
            try:
                response = self._inner.handle_request(request)
            except (httpx.ConnectError, httpx.ConnectTimeout) as e:
                # Nothing reached the server: always safe to try again.
                if attempt >= self._max_retries:
                    raise _unreachable(e) from e
                self._sleep(_wait(None, attempt))
                attempt += 1
                continue
            except httpx.TransportError as e:
                raise _unreachable(e) from e
            if (
                attempt < self._max_retries
                and response.status_code in _RETRY_STATUSES
                and (may_resend or response.status_code == 429)
            ):
                response.read()
                if _body_retryable(response):
                    response.close()
                    self._sleep(_wait(response, attempt))
                    attempt += 1
                    continue
            return response

    def close(self) -> None:
        self._inner.close()


class AsyncRetryTransport(httpx.AsyncBaseTransport):
    def __init__(
        self, inner: httpx.AsyncBaseTransport, max_retries: int, sleep=asyncio.sleep
    ) -> None:
        self._inner = inner
        self._max_retries = max_retries
        self._sleep = sleep

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        may_resend = _prepare(request)
        attempt = 0
        while True:
            try:
                response = await self._inner.handle_async_request(request)
            except (httpx.ConnectError, httpx.ConnectTimeout) as e:
                if attempt >= self._max_retries:
                    raise _unreachable(e) from e
                await self._sleep(_wait(None, attempt))
                attempt += 1
                continue
            except httpx.TransportError as e:
                raise _unreachable(e) from e
            if (
                attempt < self._max_retries
                and response.status_code in _RETRY_STATUSES
                and (may_resend or response.status_code == 429)
            ):
                await response.aread()
                if _body_retryable(response):
                    await response.aclose()
                    await self._sleep(_wait(response, attempt))
                    attempt += 1
                    continue
            return response

    async def aclose(self) -> None:
        await self._inner.aclose()
