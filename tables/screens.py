"""The live screens of a table rendered from its own row (the kit's glue to
``dustdevils.live.tables``): for a game whose every screen is made from the row and the viewer
alone (``render(viewer, row)``, through the game's per-viewer choke point), the shared read is the
row with its campaign and the members' roles, and a viewer who left the campaign (or a table
moved to another) gets nothing. ``member_table(kind=…, model=…, render=…, admit=…)`` is the
whole ``LiveTable``; the saloon's and Saloon Showdown's screens are made so."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import models

from dustdevils.live.tables import LiveTable, Viewer


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
    missing: str,
) -> LiveTable[MemberRead]:
    """A ``LiveTable`` of ``model``'s rows (each with ``campaign`` and ``version``), its screens
    rendered by ``render`` (which reads the database: a viewer's seat, the timeline)."""
    manager = model._default_manager

    def load(table_id: int) -> MemberRead | None:
        row: Any = manager.select_related("campaign").filter(pk=table_id).first()
        if row is None:
            return None
        members = row.campaign.memberships.values_list("user_id", "role")
        return MemberRead(row, dict(members))

    def panel(viewer: Viewer, read: MemberRead) -> str | None:
        if viewer.user_id not in read.roles or read.row.campaign.slug != viewer.slug:
            return None
        return render(viewer, read.row)

    def versions(ids: list[int]) -> list[tuple[int, int]]:
        return list(manager.filter(pk__in=ids).values_list("pk", "version"))

    return LiveTable(
        kind=kind, admit=admit, load=load, panel=panel, versions=versions, missing=missing,
        panel_reads_db=True,
    )  # fmt: skip
