"""`Signet`: the generated `AuthenticatedClient` with the key, the base URL, retries,
idempotency keys and errors raised as exceptions, plus downloads of a document's files."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import quote

import httpx
from attrs import define, field

from ._errors import error_from_response
from ._transport import AsyncRetryTransport, RetryTransport
from ._version import __version__
from .client import AuthenticatedClient

DEFAULT_BASE_URL = "http://127.0.0.1:8080"


def _raise_for_error(response: httpx.Response) -> None:
    if response.status_code >= 400:
        response.read()
        raise error_from_response(response)


async def _araise_for_error(response: httpx.Response) -> None:
    if response.status_code >= 400:
        await response.aread()
        raise error_from_response(response)


@define(init=False)
class Signet(AuthenticatedClient):
    """A client of one Signet server with one API key, for the sync and async functions of
    `signet.api`:

        from signet import Signet
        from signet.api.documents import documents_get

        signet = Signet()  # SIGNET_API_KEY, SIGNET_BASE_URL
        doc = documents_get.sync("doc_...", client=signet)

    Every answer that is not a success raises a `SignetError`; a 429 or a retryable error is
    asked again up to `max_retries` times (waiting as Retry-After says); every POST carries an
    `Idempotency-Key` (a new one per call unless given), the same on each retry.
    """

    max_retries: int = field(default=2, kw_only=True)

    def __init__(
        self,
        api_key: str | None = None,
        *,
        base_url: str | None = None,
        max_retries: int = 2,
        timeout: float = 60.0,
        headers: dict[str, str] | None = None,
    ) -> None:
        key = api_key or os.environ.get("SIGNET_API_KEY")
        if not key:
            raise ValueError("no API key: pass api_key= or set SIGNET_API_KEY")
        base = (
            base_url or os.environ.get("SIGNET_BASE_URL") or DEFAULT_BASE_URL
        ).rstrip("/")
        self.__attrs_init__(
            base_url=base,
            token=key,
            timeout=httpx.Timeout(timeout),
            headers={"User-Agent": f"signet-python/{__version__}", **(headers or {})},
            raise_on_unexpected_status=True,
            max_retries=max_retries,
        )

    def _settings(self) -> dict:
        return {
            "base_url": self._base_url,
            "headers": {
                **self._headers,
                self.auth_header_name: f"{self.prefix} {self.token}",
            },
            "cookies": self._cookies,
            "timeout": self._timeout,
            "verify": self._verify_ssl,
            "follow_redirects": self._follow_redirects,
        }

    def get_httpx_client(self) -> httpx.Client:
        if self._client is None:
            self._client = httpx.Client(
                **self._settings(),
                transport=RetryTransport(
                    httpx.HTTPTransport(verify=self._verify_ssl), self.max_retries
                ),
                event_hooks={"response": [_raise_for_error]},
            )
        return self._client

    def get_async_httpx_client(self) -> httpx.AsyncClient:
        if self._async_client is None:
            self._async_client = httpx.AsyncClient(
                **self._settings(),
                transport=AsyncRetryTransport(
                    httpx.AsyncHTTPTransport(verify=self._verify_ssl), self.max_retries
                ),
                event_hooks={"response": [_araise_for_error]},
            )
        return self._async_client

    def close(self) -> None:
        if self._client is not None:
            self._client.close()

    async def aclose(self) -> None:
        if self._async_client is not None:
            await self._async_client.aclose()

    # Downloads: bytes, or streamed into a file when `to` is given (then the path is returned).

    def signed_pdf(
        self, document_id: str, to: str | os.PathLike | None = None
    ) -> bytes | Path:
        """The sealed PDF with its certificate of completion (404 until executed)."""
        return self._download(
            f"/api/v1/documents/{quote(document_id, safe='')}/signed.pdf", to
        )

    def audit_log(
        self, document_id: str, to: str | os.PathLike | None = None
    ) -> bytes | Path:
        """The document's audit trail as CSV."""
        return self._download(
            f"/api/v1/documents/{quote(document_id, safe='')}/audit-log.csv", to
        )

    async def asigned_pdf(
        self, document_id: str, to: str | os.PathLike | None = None
    ) -> bytes | Path:
        return await self._adownload(
            f"/api/v1/documents/{quote(document_id, safe='')}/signed.pdf", to
        )

    async def aaudit_log(
        self, document_id: str, to: str | os.PathLike | None = None
    ) -> bytes | Path:
        return await self._adownload(
            f"/api/v1/documents/{quote(document_id, safe='')}/audit-log.csv", to
        )

    def _download(self, url: str, to: str | os.PathLike | None) -> bytes | Path:
        http = self.get_httpx_client()
        if to is None:
            return http.get(url).content
        path = Path(to)
        part = path.with_name(path.name + ".part")
        try:
            with http.stream("GET", url) as response, open(part, "wb") as out:
                out.writelines(response.iter_bytes())
        except BaseException:
            part.unlink(missing_ok=True)
            raise
        part.replace(path)
        return path

    async def _adownload(self, url: str, to: str | os.PathLike | None) -> bytes | Path:
        http = self.get_async_httpx_client()
        if to is None:
            return (await http.get(url)).content
        path = Path(to)
        part = path.with_name(path.name + ".part")
        try:
            async with http.stream("GET", url) as response:
                # Local disk writes of a download's chunks: short, not worth a thread each.
                with open(part, "wb") as out:  # noqa: ASYNC230
                    async for chunk in response.aiter_bytes():
                        out.write(chunk)
        except BaseException:
            part.unlink(missing_ok=True)
            raise
        part.replace(path)
        return path
