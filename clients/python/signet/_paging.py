"""Every item of a list, page after page: lists answer `{data, page: {nextCursor}}` and take
`limit` (1 to 200) and `cursor`."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

from .types import UNSET


def each(operation: Any, *args: Any, client: Any, **kwargs: Any) -> Iterator[Any]:
    """Every item of a list operation, across its pages:

        for doc in each(documents_list, client=signet, state="sent", limit=200):
            ...

    `operation` is the generated module (`signet.api.documents.documents_list`); the other
    arguments are its own. Pages are fetched as the loop reaches them.
    """
    cursor = kwargs.pop("cursor", UNSET)
    while True:
        page = operation.sync(*args, client=client, cursor=cursor, **kwargs)
        yield from page.data
        cursor = page.page.next_cursor
        if not cursor:
            return


async def aeach(
    operation: Any, *args: Any, client: Any, **kwargs: Any
) -> AsyncIterator[Any]:
    """`each` for the async client: `async for doc in aeach(documents_list, client=signet)`."""
    cursor = kwargs.pop("cursor", UNSET)
    while True:
        page = await operation.asyncio(*args, client=client, cursor=cursor, **kwargs)
        for item in page.data:
            yield item
        cursor = page.page.next_cursor
        if not cursor:
            return


def metadata(filters: dict[str, str]) -> Any:
    """The `metadata` argument of `documents_list` for `metadata[key]=value` filters (all must
    match): `documents_list.sync(client=signet, metadata=metadata({"deal": "42"}))`.

    The generator sends a map's entries as plain `key=value`; this names each `metadata[key]`.
    """
    from .models.documents_list_metadata import DocumentsListMetadata

    return DocumentsListMetadata.from_dict(
        {f"metadata[{k}]": str(v) for k, v in filters.items()}
    )
