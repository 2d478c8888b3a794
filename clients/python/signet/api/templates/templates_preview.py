from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.template_preview_in import TemplatePreviewIn
from ...models.template_preview_out import TemplatePreviewOut
from ...types import Response


def _get_kwargs(
    *,
    body: TemplatePreviewIn,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/templates/preview",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
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
    *,
    client: AuthenticatedClient,
    body: TemplatePreviewIn,
) -> Response[Error | TemplatePreviewOut]:
    """The pages a signer would see, drawn from words not saved yet, with each field's box (an addition)

    Args:
        body (TemplatePreviewIn): Words not saved yet, to see as a signer would.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | TemplatePreviewOut]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: TemplatePreviewIn,
) -> Error | TemplatePreviewOut | None:
    """The pages a signer would see, drawn from words not saved yet, with each field's box (an addition)

    Args:
        body (TemplatePreviewIn): Words not saved yet, to see as a signer would.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | TemplatePreviewOut
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: TemplatePreviewIn,
) -> Response[Error | TemplatePreviewOut]:
    """The pages a signer would see, drawn from words not saved yet, with each field's box (an addition)

    Args:
        body (TemplatePreviewIn): Words not saved yet, to see as a signer would.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | TemplatePreviewOut]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: TemplatePreviewIn,
) -> Error | TemplatePreviewOut | None:
    """The pages a signer would see, drawn from words not saved yet, with each field's box (an addition)

    Args:
        body (TemplatePreviewIn): Words not saved yet, to see as a signer would.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | TemplatePreviewOut
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
