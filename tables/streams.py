"""The live-stream glue a game needs on the one live-table protocol
(``dustdevils.live.tables.LiveTable``): the safety net's version read of a game's tables
(``versions_of``) and the stream view of one table (``stream_view``)."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from django.db import models
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.views.decorators.http import require_GET

from dustdevils.live.tables import LiveTable


def versions_of(model: type[models.Model]) -> Callable[[list[int]], list[tuple[int, int]]]:
    """(id, version) of the tables of ``model`` among ``ids``: one query."""

    def versions(ids: list[int]) -> list[tuple[int, int]]:
        return list(model._default_manager.filter(pk__in=ids).values_list("pk", "version"))

    return versions


def stream_view(
    table: LiveTable[Any], *, as_table: bool = False
) -> Callable[..., Coroutine[Any, Any, HttpResponseBase]]:
    """The view of one table's live stream: its URL takes the table's ``slug`` and one id
    (``<kind>_id``). ``as_table``: the shared screen's stream (public facts only)."""

    @require_GET
    async def stream(request: HttpRequest, slug: str, **ids: int) -> HttpResponseBase:
        (table_id,) = ids.values()
        return await table.open(request, slug, int(table_id), as_table=as_table)

    return stream
