"""Saloon Showdown's screens live, on the one live-table protocol through the kit
(``tables.streams.member_table``): each screen is rendered through ``showdown_view``, the same
partial the page renders, so no hidden count reaches a stream that the page would not show."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.template.loader import render_to_string

from campaigns.access import membership_for
from dustdevils.live.tables import Viewer
from showdown.models import Showdown
from showdown.selectors import showdown_view
from tables.streams import member_table, stream_view


def render(viewer: Viewer, showdown: Showdown) -> str:
    """This viewer's main panel (only the user's key is read: their seat, the host's role)."""
    user = get_user_model()(pk=viewer.user_id)
    context = showdown_view(showdown, user, as_table=viewer.as_table)
    context.update(csrf_token=viewer.csrf_token, notice="", error="")
    template = "showdown/table.html#main" if viewer.as_table else "showdown/detail.html#main"
    return render_to_string(template, context)


SHOWDOWNS = member_table(
    kind="showdown", model=Showdown, render=render, admit=membership_for,
    missing="No such game at this table.",
)  # fmt: skip


# A player's phone (or a watcher's screen), live; and the shared table screen (public facts).
showdown_stream = stream_view(SHOWDOWNS)
table_stream = stream_view(SHOWDOWNS, as_table=True)
