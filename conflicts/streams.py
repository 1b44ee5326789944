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
from conflicts import fragments
from conflicts.engine.conflict import Phase, visible_cards
from conflicts.models import Conflict
from conflicts.reads import TableRead, table_read
from conflicts.selectors import conflict_view
from conflicts.selectors.advice import remember_known_odds, table_view
from conflicts.services import controlled_pids_among
from dustdevils.live.tables import LiveTable, Viewer
from tables.pieces import once


def _panel(viewer: Viewer, data: TableRead) -> str | None:
    """This viewer's main panel from a shared read, or None when they are no longer in the
    campaign (or the conflict moved elsewhere). No query: safe inside the event loop."""
    conflict = data.conflict
    role = data.roles.get(viewer.user_id)
    if role is None or conflict.campaign.slug != viewer.slug:
        return None
    membership = Membership(campaign=conflict.campaign, user_id=viewer.user_id, role=role)
    # What every viewer sees alike, once per version in this process (public facts only, R10):
    # the shared screen, and the timeline of every screen.
    table = (conflict.pk, conflict.created_at)  # an id given again is another table
    if viewer.as_table:
        template = "conflicts/table.html#main"
        return once(
            "conflict", table, data.version, template,
            lambda: render_to_string(template, conflict_view(data, membership, as_table=True)),
        )  # fmt: skip
    timeline = once(
        "conflict", table, data.version, "conflicts/_timeline.html",
        lambda: fragments.timeline_html(data.timeline),
    )  # fmt: skip
    context = conflict_view(data, membership, timeline_html=timeline, odds=False)
    context.update(notice="", error="", csrf_token=viewer.csrf_token)
    return render_to_string("conflicts/detail.html#main", context)


def _known_odds(data: TableRead) -> None:
    """After a read's screens have gone out (in a worker thread, ``LiveTable.after``): in the
    Draw and the laying, each player's odds that the shared cache already holds are remembered
    in this process, so the next screens show them at once. Nothing is worked out here: a
    screen whose odds are not known yet asks the advisor's own fragment, which works them out
    once per odds input (issue 38)."""
    state = data.state
    if state.phase not in (Phase.DRAW, Phase.LAYING):
        return
    for user_id, role in data.roles.items():
        membership = Membership(campaign=data.conflict.campaign, user_id=user_id, role=role)
        mine = set() if membership.is_dealer else controlled_pids_among(data.seats, membership)
        if mine:
            view = table_view(state, visible_cards(state, mine, dealer=False))  # R10
            for pid in mine:
                remember_known_odds(data.conflict.pk, pid, view)


def _versions(ids: list[int]) -> list[tuple[int, int]]:
    return list(Conflict.objects.filter(pk__in=ids).values_list("pk", "version"))


CONFLICTS: LiveTable[TableRead] = LiveTable(
    kind="conflict",
    admit=membership_for,
    load=table_read,
    after=_known_odds,
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
