from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.email_page_out import EmailPageOut
from ...models.error import Error
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    document_id: str | Unset = UNSET,
    to: str | Unset = UNSET,
    status: str | Unset = UNSET,
    kind: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["documentId"] = document_id

    params["to"] = to

    params["status"] = status

    params["kind"] = kind

    params["limit"] = limit

    params["cursor"] = cursor

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/emails",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> EmailPageOut | Error | None:
    if response.status_code == 200:
        response_200 = EmailPageOut.from_dict(response.json())

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
) -> Response[EmailPageOut | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    document_id: str | Unset = UNSET,
    to: str | Unset = UNSET,
    status: str | Unset = UNSET,
    kind: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
) -> Response[EmailPageOut | Error]:
    """The email log of the key's mode, newest first: never a body or a link

    Args:
        document_id (str | Unset):
        to (str | Unset):
        status (str | Unset):
        kind (str | Unset):
        limit (int | Unset):
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EmailPageOut | Error]
    """

    kwargs = _get_kwargs(
        document_id=document_id,
        to=to,
        status=status,
        kind=kind,
        limit=limit,
        cursor=cursor,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    document_id: str | Unset = UNSET,
    to: str | Unset = UNSET,
    status: str | Unset = UNSET,
    kind: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
) -> EmailPageOut | Error | None:
    """The email log of the key's mode, newest first: never a body or a link

    Args:
        document_id (str | Unset):
        to (str | Unset):
        status (str | Unset):
        kind (str | Unset):
        limit (int | Unset):
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EmailPageOut | Error
    """

    return sync_detailed(
        client=client,
        document_id=document_id,
        to=to,
        status=status,
        kind=kind,
        limit=limit,
        cursor=cursor,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    document_id: str | Unset = UNSET,
    to: str | Unset = UNSET,
    status: str | Unset = UNSET,
    kind: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
) -> Response[EmailPageOut | Error]:
    """The email log of the key's mode, newest first: never a body or a link

    Args:
        document_id (str | Unset):
        to (str | Unset):
        status (str | Unset):
        kind (str | Unset):
        limit (int | Unset):
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EmailPageOut | Error]
    """

    kwargs = _get_kwargs(
        document_id=document_id,
        to=to,
        status=status,
        kind=kind,
        limit=limit,
        cursor=cursor,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    document_id: str | Unset = UNSET,
    to: str | Unset = UNSET,
    status: str | Unset = UNSET,
    kind: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
) -> EmailPageOut | Error | None:
    """The email log of the key's mode, newest first: never a body or a link

    Args:
        document_id (str | Unset):
        to (str | Unset):
        status (str | Unset):
        kind (str | Unset):
        limit (int | Unset):
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EmailPageOut | Error
    """

    return (
        await asyncio_detailed(
            client=client,
            document_id=document_id,
            to=to,
            status=status,
            kind=kind,
            limit=limit,
            cursor=cursor,
        )
    ).parsed
