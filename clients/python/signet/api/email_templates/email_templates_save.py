from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.email_template_out import EmailTemplateOut
from ...models.email_wording_in import EmailWordingIn
from ...models.error import Error
from ...types import Response


def _get_kwargs(
    kind: str,
    *,
    body: EmailWordingIn,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/api/v1/email-templates/{kind}".format(
            kind=quote(str(kind), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> EmailTemplateOut | Error | None:
    if response.status_code == 200:
        response_200 = EmailTemplateOut.from_dict(response.json())

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
) -> Response[EmailTemplateOut | Error]:
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
) -> Response[EmailTemplateOut | Error]:
    """Save the wording of one kind in one language; a blank or null field keeps the standard words

    Args:
        kind (str):
        body (EmailWordingIn): Saved wording of one kind: every field optional, blank or null
            meaning the standard words.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EmailTemplateOut | Error]
    """

    kwargs = _get_kwargs(
        kind=kind,
        body=body,
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
) -> EmailTemplateOut | Error | None:
    """Save the wording of one kind in one language; a blank or null field keeps the standard words

    Args:
        kind (str):
        body (EmailWordingIn): Saved wording of one kind: every field optional, blank or null
            meaning the standard words.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EmailTemplateOut | Error
    """

    return sync_detailed(
        kind=kind,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    kind: str,
    *,
    client: AuthenticatedClient,
    body: EmailWordingIn,
) -> Response[EmailTemplateOut | Error]:
    """Save the wording of one kind in one language; a blank or null field keeps the standard words

    Args:
        kind (str):
        body (EmailWordingIn): Saved wording of one kind: every field optional, blank or null
            meaning the standard words.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EmailTemplateOut | Error]
    """

    kwargs = _get_kwargs(
        kind=kind,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    kind: str,
    *,
    client: AuthenticatedClient,
    body: EmailWordingIn,
) -> EmailTemplateOut | Error | None:
    """Save the wording of one kind in one language; a blank or null field keeps the standard words

    Args:
        kind (str):
        body (EmailWordingIn): Saved wording of one kind: every field optional, blank or null
            meaning the standard words.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EmailTemplateOut | Error
    """

    return (
        await asyncio_detailed(
            kind=kind,
            client=client,
            body=body,
        )
    ).parsed
