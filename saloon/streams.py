"""The saloon's screens live: a player's phone (or a watcher's screen) and the shared table
screen, on the one live-table protocol through the kit (``tables.screens.member_table``). Each
screen is rendered through ``saloon_view`` — the same partial the page renders, so no card
reaches a stream that the page would not show. A saloon screen reads its viewer's seat and the
timeline itself, so it is rendered in a worker thread (a table has 3–5 players); the shared read
is the game with its campaign and the members' roles."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET

from campaigns.access import membership_for
from dustdevils.idempotency import FreshKey
from dustdevils.live.tables import Viewer
from saloon.models import Saloon
from saloon.selectors import saloon_view
from tables.screens import member_table


def render(viewer: Viewer, saloon: Saloon) -> str:
    """This viewer's main panel."""
    user = get_user_model()(pk=viewer.user_id)  # only its key is read: the viewer's seat
    context = saloon_view(saloon, user, as_table=viewer.as_table)
    context.update(csrf_token=viewer.csrf_token, notice="", error="", fresh_key=FreshKey())
    template = "saloon/table.html#main" if viewer.as_table else "saloon/detail.html#main"
    return render_to_string(template, context)


SALOONS = member_table(
    kind="saloon", model=Saloon, render=render, admit=membership_for,
    missing="No such game in this campaign.",
)  # fmt: skip


@require_GET
async def saloon_stream(request: HttpRequest, slug: str, saloon_id: int) -> HttpResponseBase:
    """A player's phone (or a watcher's screen), live."""
    return await SALOONS.open(request, slug, saloon_id, as_table=False)


@require_GET
async def table_stream(request: HttpRequest, slug: str, saloon_id: int) -> HttpResponseBase:
    """The shared table screen, live (public facts only)."""
    return await SALOONS.open(request, slug, saloon_id, as_table=True)
