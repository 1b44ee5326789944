"""The saloon's screens live: a player's phone (or a watcher's screen) and the shared table
screen, on the one live-table protocol through the kit (``tables.streams.member_table``). Each
screen is rendered through ``saloon_view`` — the same partial the page renders, so no card
reaches a stream that the page would not show. A saloon screen reads its viewer's seat and the
timeline itself, so it is rendered in a worker thread (a table has 3–5 players); the shared read
is the game with its campaign and the members' roles."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.template.loader import render_to_string

from campaigns.access import membership_for
from dustdevils.idempotency import FreshKey
from dustdevils.live.tables import Viewer
from saloon.models import Saloon
from saloon.selectors import saloon_view
from tables.streams import member_table, stream_view


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


# A player's phone (or a watcher's screen), live; and the shared table screen (public facts).
saloon_stream = stream_view(SALOONS)
table_stream = stream_view(SALOONS, as_table=True)
