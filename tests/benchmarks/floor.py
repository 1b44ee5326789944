"""The floor for the live bench: what bare Django on the same stack spends for one move.

A move at a live table is one locked POST and, in the streams' process, ONE read of the table
and a fresh panel for each of the seven people at it. Bare Django does the same work with
nothing of ours in it: a view that locks a row and bumps a counter, and one request that reads
the row once and renders seven panels of the app's size from it. The live bench
serves these beside the app (``floor_settings``: the project's settings, this urlconf) and
prints the app's CPU per move next to the floor's, measured in the same run, on the same
servers: the ratio is the figure to keep low.

Only the bench uses this module; the app never routes to it.
"""

from __future__ import annotations

import os

from django.db import transaction
from django.db.models import F
from django.http import HttpRequest, HttpResponse, HttpResponseForbidden
from django.template import engines
from django.urls import path
from django.views.decorators.http import require_GET, require_POST

from conflicts.models import Conflict
from dustdevils.urls import urlpatterns as app_urlpatterns

# A panel of the app's size (FLOOR_PANEL_BYTES, set by the bench from the app's own panels):
# rows holding a few of the row's values.
_ROW = (
    '<li class="seat"><span class="seat__name">{{ row.title }}</span>'
    '<span class="seat__phase">{{ row.phase }}</span> <span>v{{ row.version }}</span></li>\n'
)
_PANEL = engines["django"].from_string(
    '<section id="main" data-version="{{ row.version }}"><h2>{{ row.title }}</h2><ul>\n'
    + _ROW * max(1, int(os.environ.get("FLOOR_PANEL_BYTES", "13000")) // (len(_ROW) - 20))
    + "</ul><p>Last move {{ row.last_move_at|date:'H:i:s' }}</p></section>\n"
)
SCREENS = 7


@require_POST
def move(request: HttpRequest, pk: int) -> HttpResponse:
    """Lock the row and bump its counter: the bare cost of a table move's write."""
    if not request.user.is_authenticated:
        return HttpResponseForbidden("Log in first.")
    with transaction.atomic():
        Conflict.objects.select_for_update().only("pk").get(pk=pk)
        Conflict.objects.filter(pk=pk).update(version=F("version") + 1)
    return HttpResponse("ok")


@require_GET
def screens(request: HttpRequest, pk: int) -> HttpResponse:
    """Read one row once and render 7 panels from it: the bare cost of a move's screens in
    this design (a process's streams of a table share one read)."""
    if not request.user.is_authenticated:
        return HttpResponseForbidden("Log in first.")
    row = Conflict.objects.only("title", "phase", "version", "last_move_at").get(pk=pk)
    return HttpResponse("".join(_PANEL.render({"row": row}) for _ in range(SCREENS)))


urlpatterns = [
    *app_urlpatterns,
    path("floor/<int:pk>/move/", move),
    path("floor/<int:pk>/screens/", screens),
]
