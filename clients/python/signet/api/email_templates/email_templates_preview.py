from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.email_preview_out import EmailPreviewOut
from ...models.email_wording_in import EmailWordingIn
from ...models.error import Error
from ...types import UNSET, Response, Unset


def _get_kwargs(
    kind: str,
    *,
    body: EmailWordingIn,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/email-templates/{kind}/preview".format(
            kind=quote(str(kind), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> EmailPreviewOut | Error | None:
    if response.status_code == 200:
        response_200 = EmailPreviewOut.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[EmailPreviewOut | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    kind: str,
    *,
    client: AuthenticatedClient,
    body: EmailWordingIn,
    idempotency_key: str | Unset = UNSET,
) -> Response[EmailPreviewOut | Error]:
    """Render wording with made-up names: subject, preview line, plain-text body and HTML; nothing is saved

    Args:
        kind (str):
        idempotency_key (str | Unset):
        body (EmailWordingIn): Saved wording of one kind: every field optional, blank or null
            meaning the standard words.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EmailPreviewOut | Error]
    """

    kwargs = _get_kwargs(
        kind=kind,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    kind: str,
    *,
    client: AuthenticatedClient,
    body: EmailWordingIn,
    idempotency_key: str | Unset = UNSET,
) -> EmailPreviewOut | Error | None:
    """Render wording with made-up names: subject, preview line, plain-text body and HTML; nothing is saved

    Args:
        kind (str):
        idempotency_key (str | Unset):
        body (EmailWordingIn): Saved wording of one kind: every field optional, blank or null
            meaning the standard words.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EmailPreviewOut | Error
    """

    return sync_detailed(
        kind=kind,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    kind: str,
    *,
    client: AuthenticatedClient,
    body: EmailWordingIn,
    idempotency_key: str | Unset = UNSET,
) -> Response[EmailPreviewOut | Error]:
    """Render wording with made-up names: subject, preview line, plain-text body and HTML; nothing is saved

    Args:
        kind (str):
        idempotency_key (str | Unset):
        body (EmailWordingIn): Saved wording of one kind: every field optional, blank or null
            meaning the standard words.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EmailPreviewOut | Error]
    """

    kwargs = _get_kwargs(
        kind=kind,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    kind: str,
    *,
    client: AuthenticatedClient,
    body: EmailWordingIn,
    idempotency_key: str | Unset = UNSET,
) -> EmailPreviewOut | Error | None:
    """Render wording with made-up names: subject, preview line, plain-text body and HTML; nothing is saved

    Args:
        kind (str):
        idempotency_key (str | Unset):
        body (EmailWordingIn): Saved wording of one kind: every field optional, blank or null
            meaning the standard words.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EmailPreviewOut | Error
    """

    return (
        await asyncio_detailed(
            kind=kind,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
