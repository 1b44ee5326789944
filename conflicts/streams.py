"""Live conflict screens: the Dealer's console, a player's view and the shared table view, on
the one live-table protocol (``dustdevils.live.tables``). The shared read is ``table_read``;
each screen is rendered from it through the per-viewer choke point ``conflict_view`` (R10) —
the same partial the detail or table page renders, so no card can reach a stream that the page
would not show."""

from __future__ import annotations

from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET

from campaigns.access import membership_for
from campaigns.models import Membership
from conflicts.engine.conflict import Phase
from conflicts.models import Conflict
from conflicts.reads import TableRead, table_read
from conflicts.selectors import conflict_view
from conflicts.services import controlled_pids_among
from dustdevils.live.tables import LiveTable, Viewer


def _panel(viewer: Viewer, data: TableRead) -> str | None:
    """This viewer's main panel from a shared read, or None when they are no longer in the
    campaign (or the conflict moved elsewhere). No query: safe inside the event loop."""
    conflict = data.conflict
    role = data.roles.get(viewer.user_id)
    if role is None or conflict.campaign.slug != viewer.slug:
        return None
    membership = Membership(campaign=conflict.campaign, user_id=viewer.user_id, role=role)
    if viewer.as_table:
        context = conflict_view(data, membership, as_table=True)
        template = "conflicts/table.html#main"
    else:
        context = conflict_view(data, membership)
        context.update(notice="", error="")
        template = "conflicts/detail.html#main"
    context["csrf_token"] = viewer.csrf_token
    return render_to_string(template, context)


def _load(conflict_id: int) -> TableRead | None:
    """``table_read``, in the streams' worker thread. In the Draw and the laying, each player's
    odds and discard advice are looked up here too, and remembered in the process: the shared
    cache is asked in this thread, never in the event loop where the screens are rendered
    (a Redis that stalls must not hold up every stream of the process: issue 29)."""
    data = table_read(conflict_id)
    if data is None or data.state.phase not in (Phase.DRAW, Phase.LAYING):
        return data
    for user_id, role in data.roles.items():
        membership = Membership(campaign=data.conflict.campaign, user_id=user_id, role=role)
        if not membership.is_dealer and controlled_pids_among(data.seats, membership):
            conflict_view(data, membership)  # its odds and advice, remembered (advice.py)
    return data


def _versions(ids: list[int]) -> list[tuple[int, int]]:
    return list(Conflict.objects.filter(pk__in=ids).values_list("pk", "version"))


CONFLICTS: LiveTable[TableRead] = LiveTable(
    kind="conflict",
    admit=membership_for,
    load=_load,
    panel=_panel,
    versions=_versions,
    missing="No such conflict in this campaign.",
)


@require_GET
async def conflict_stream(request: HttpRequest, slug: str, conflict_id: int) -> HttpResponseBase:
    """The Dealer's console or the player's view, live."""
    return await CONFLICTS.open(request, slug, conflict_id, as_table=False)


@require_GET
async def table_stream(request: HttpRequest, slug: str, conflict_id: int) -> HttpResponseBase:
    """The shared table view, live (public facts only, R10)."""
    return await CONFLICTS.open(request, slug, conflict_id, as_table=True)
