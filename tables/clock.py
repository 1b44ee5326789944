"""The table kit's clock: the server's time, for moves that race (a duel's "Via!") and for the
phones that must show the same instant. ``now_ms()`` is the one clock a game's moves read (the
engines have none: the service passes it in). ``server_time`` answers ``GET /time`` with it, so
a browser can measure its offset to the server's clock (``static/js/table_clock.js``: a few
round trips, the shortest one's midpoint) and schedule an instant the server named."""

from __future__ import annotations

import time

from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET


def now_ms() -> int:
    """The server's wall clock, in milliseconds since the epoch."""
    return time.time_ns() // 1_000_000


@never_cache
@require_GET
def server_time(request: HttpRequest) -> JsonResponse:
    """``{"now": <ms>}``: the server's clock, for anyone (it says nothing about any table)."""
    return JsonResponse({"now": now_ms()})
