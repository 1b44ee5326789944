"""The saloon's screens live: a player's phone (or a watcher's screen) and the shared table
screen, on the one live-table protocol (``dustdevils.live.tables``). Each screen is rendered
through ``saloon_view`` — the same partial the page renders, so no card reaches a stream that
the page would not show. The shared read (``reads.saloon_read``: the game, the members' roles,
the seats and the timeline) is read once per version; each screen is rendered from it, with no
query."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.template.loader import render_to_string

from campaigns.access import membership_for
from dustdevils.idempotency import FreshKey
from dustdevils.live.tables import LiveTable, Viewer
from saloon.models import Saloon
from saloon.reads import SaloonRead, saloon_read
from saloon.selectors import saloon_view
from tables.streams import stream_view, versions_of


def panel(viewer: Viewer, read: SaloonRead) -> str | None:
    """This viewer's main panel from the shared read (no query), or None when they are no
    longer at this campaign's table."""
    saloon = read.saloon
    if viewer.user_id not in read.roles or saloon.campaign.slug != viewer.slug:
        return None
    user = get_user_model()(pk=viewer.user_id)  # only its key is read: the viewer's seat
    context = saloon_view(saloon, user, as_table=viewer.as_table, read=read)
    context.update(csrf_token=viewer.csrf_token, notice="", error="", fresh_key=FreshKey())
    template = "saloon/table.html#main" if viewer.as_table else "saloon/detail.html#main"
    return render_to_string(template, context)


SALOONS: LiveTable[SaloonRead] = LiveTable(
    kind="saloon",
    admit=membership_for,
    load=saloon_read,
    panel=panel,
    versions=versions_of(Saloon),
    missing="No such game in this campaign.",
)


# A player's phone (or a watcher's screen), live; and the shared table screen (public facts).
saloon_stream = stream_view(SALOONS)
table_stream = stream_view(SALOONS, as_table=True)
