"""Saloon Showdown's screens live, on the one live-table protocol through the kit
(``tables.screens.member_table``): each screen is rendered through ``showdown_view``, the same
partial the page renders, so no hidden count reaches a stream that the page would not show."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET

from campaigns.access import membership_for
from dustdevils.live.tables import Viewer
from showdown.models import Showdown
from showdown.selectors import showdown_view
from tables.screens import member_table


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


@require_GET
async def showdown_stream(request: HttpRequest, slug: str, showdown_id: int) -> HttpResponseBase:
    """A player's phone (or a watcher's screen), live."""
    return await SHOWDOWNS.open(request, slug, showdown_id, as_table=False)


@require_GET
async def table_stream(request: HttpRequest, slug: str, showdown_id: int) -> HttpResponseBase:
    """The shared table screen, live (public facts only)."""
    return await SHOWDOWNS.open(request, slug, showdown_id, as_table=True)
