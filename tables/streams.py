"""The live-stream glue a game needs on the one live-table protocol
(``dustdevils.live.tables.LiveTable``): the safety net's version read of a game's tables
(``versions_of``), the stream view of one table (``stream_view``) and, for a game whose every
screen is made from its row and the viewer alone (``render(viewer, row)``, through the game's
per-viewer choke point), the whole ``LiveTable`` (``member_table``): the shared read is the row
with its campaign and the members' roles, and a viewer who left the campaign (or a table moved
to another) gets nothing. The saloon's and Saloon Showdown's screens are made so."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db import models
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.views.decorators.http import require_GET

from dustdevils.live.tables import LiveTable, Viewer

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


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


@dataclass(frozen=True)
class MemberRead:
    """A table's row (with its campaign) and its campaign's members' roles, by user id."""

    row: Any
    roles: dict[int, str]

    @property
    def version(self) -> int:
        return int(self.row.version)


def member_table(
    *,
    kind: str,
    model: type[models.Model],
    render: Callable[[Viewer, Any], str],
    admit: Callable[[Any, str], Any],
    missing: StrOrPromise,
    load_row: Callable[[int], Any] | None = None,
    reads_db: bool = True,
) -> LiveTable[MemberRead]:
    """A ``LiveTable`` of ``model``'s rows (each with ``campaign`` and ``version``: read by
    ``load_row``, None for no such row), its screens rendered by ``render`` (which reads the
    database, a viewer's seat or the timeline, unless ``reads_db`` is False)."""
    manager = model._default_manager

    def load(table_id: int) -> MemberRead | None:
        row: Any = (
            load_row(table_id) if load_row is not None
            else manager.select_related("campaign").filter(pk=table_id).first()
        )  # fmt: skip
        if row is None:
            return None
        # The members as ``load_row`` may have read them already (``prefetch_related``).
        return MemberRead(row, {m.user_id: m.role for m in row.campaign.memberships.all()})

    def panel(viewer: Viewer, read: MemberRead) -> str | None:
        if viewer.user_id not in read.roles or read.row.campaign.slug != viewer.slug:
            return None
        return render(viewer, read.row)

    return LiveTable(
        kind=kind, admit=admit, load=load, panel=panel, versions=versions_of(model),
        missing=missing, panel_reads_db=reads_db,
    )  # fmt: skip
