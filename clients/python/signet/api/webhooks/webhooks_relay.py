from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.relay_out import RelayOut
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    after: str | Unset = UNSET,
    wait: int | Unset = UNSET,
    limit: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["after"] = after

    params["wait"] = wait

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/webhooks/{id}/relay".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | RelayOut | None:
    if response.status_code == 200:
        response_200 = RelayOut.from_dict(response.json())

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

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | RelayOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    after: str | Unset = UNSET,
    wait: int | Unset = UNSET,
    limit: int | Unset = UNSET,
) -> Response[Error | RelayOut]:
    """Stored deliveries of a relay endpoint, oldest first, each with the exact headers to forward

    Args:
        id (str):
        after (str | Unset):
        wait (int | Unset):
        limit (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | RelayOut]
    """

    kwargs = _get_kwargs(
        id=id,
        after=after,
        wait=wait,
        limit=limit,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient,
    after: str | Unset = UNSET,
    wait: int | Unset = UNSET,
    limit: int | Unset = UNSET,
) -> Error | RelayOut | None:
    """Stored deliveries of a relay endpoint, oldest first, each with the exact headers to forward

    Args:
        id (str):
        after (str | Unset):
        wait (int | Unset):
        limit (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | RelayOut
    """

    return sync_detailed(
        id=id,
        client=client,
        after=after,
        wait=wait,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    after: str | Unset = UNSET,
    wait: int | Unset = UNSET,
    limit: int | Unset = UNSET,
) -> Response[Error | RelayOut]:
    """Stored deliveries of a relay endpoint, oldest first, each with the exact headers to forward

    Args:
        id (str):
        after (str | Unset):
        wait (int | Unset):
        limit (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | RelayOut]
    """

    kwargs = _get_kwargs(
        id=id,
        after=after,
        wait=wait,
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    after: str | Unset = UNSET,
    wait: int | Unset = UNSET,
    limit: int | Unset = UNSET,
) -> Error | RelayOut | None:
    """Stored deliveries of a relay endpoint, oldest first, each with the exact headers to forward

    Args:
        id (str):
        after (str | Unset):
        wait (int | Unset):
        limit (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | RelayOut
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            after=after,
            wait=wait,
            limit=limit,
        )
    ).parsed
