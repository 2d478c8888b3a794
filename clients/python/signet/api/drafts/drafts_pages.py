from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.template_preview_out import TemplatePreviewOut
from ...types import Response


def _get_kwargs(
    draft_ref: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/drafts/{draft_ref}/pages".format(
            draft_ref=quote(str(draft_ref), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | TemplatePreviewOut | None:
    if response.status_code == 200:
        response_200 = TemplatePreviewOut.from_dict(response.json())

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

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | TemplatePreviewOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    draft_ref: str,
    *,
    client: AuthenticatedClient,
) -> Response[Error | TemplatePreviewOut]:
    """The pages of the draft document a draft made, drawn as a send lays them out (an addition, for
    Scribe)

    Args:
        draft_ref (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | TemplatePreviewOut]
    """

    kwargs = _get_kwargs(
        draft_ref=draft_ref,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    draft_ref: str,
    *,
    client: AuthenticatedClient,
) -> Error | TemplatePreviewOut | None:
    """The pages of the draft document a draft made, drawn as a send lays them out (an addition, for
    Scribe)

    Args:
        draft_ref (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | TemplatePreviewOut
    """

    return sync_detailed(
        draft_ref=draft_ref,
        client=client,
    ).parsed


async def asyncio_detailed(
    draft_ref: str,
    *,
    client: AuthenticatedClient,
) -> Response[Error | TemplatePreviewOut]:
    """The pages of the draft document a draft made, drawn as a send lays them out (an addition, for
    Scribe)

    Args:
        draft_ref (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | TemplatePreviewOut]
    """

    kwargs = _get_kwargs(
        draft_ref=draft_ref,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    draft_ref: str,
    *,
    client: AuthenticatedClient,
) -> Error | TemplatePreviewOut | None:
    """The pages of the draft document a draft made, drawn as a send lays them out (an addition, for
    Scribe)

    Args:
        draft_ref (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | TemplatePreviewOut
    """

    return (
        await asyncio_detailed(
            draft_ref=draft_ref,
            client=client,
        )
    ).parsed
