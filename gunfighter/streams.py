"""The Gunfighter's screens live, on the one live-table protocol through the kit
(``tables.streams.member_table``): each phone's main panel rendered through ``gunfight_view``,
the same partial the page renders."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.template.loader import render_to_string

from campaigns.access import membership_for
from dustdevils.live.tables import Viewer
from gunfighter.models import Gunfight
from gunfighter.selectors import gunfight_view
from tables.streams import member_table, stream_view


def render(viewer: Viewer, gunfight: Gunfight) -> str:
    """This viewer's main panel (only the user's key is read: their seat)."""
    user = get_user_model()(pk=viewer.user_id)
    context = gunfight_view(gunfight, user)
    context.update(csrf_token=viewer.csrf_token, notice="", error="")
    return render_to_string("gunfighter/detail.html#main", context)


GUNFIGHTS = member_table(
    kind="gunfighter", model=Gunfight, render=render, admit=membership_for,
    missing="No such gunfight at this table.",
)  # fmt: skip

# A gunfighter's phone (or a watcher's screen), live.
gunfight_stream = stream_view(GUNFIGHTS)
