"""The table clock: one instant, on the server's clock, at which every phone at a table fires the
same edges (issue 31: The Gunfighter's showdown — 5 s of countdown, then 5 s of play — and Saloon
Showdown's "Via!").

The server decides the instant: a move stores ``start_at()`` (the server's epoch milliseconds, a
little in the future so the live stream reaches every phone first) in the game's state, and the
page prints it with ``{% table_clock start edges %}`` (``tables/_clock.html``). Each phone
estimates its offset from the server's clock from a few round trips to ``now_view`` (``GET
/clock/``: the server's epoch ms, never cached), keeps the sample with the lowest round trip,
and fires each edge at ``start + edge`` on the server's clock (``static/js/table_clock.js``:
a beep and a vibration at each edge, and the event ``table-clock:edge``). Phones that are late
(a reconnect) fire only the edges still to come. Knows no game.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

if TYPE_CHECKING:
    from tables.words import Text

# How far ahead of the tap the clock starts: the time the stream needs to reach every phone
# (a phone that hears of it later still fires the later edges on time).
LEAD_MS = 1500


def now_ms() -> int:
    """The server's clock: milliseconds since the epoch."""
    return time.time_ns() // 1_000_000


def start_at(lead_ms: int = LEAD_MS) -> int:
    """The instant a clock started now begins, on the server's clock."""
    return now_ms() + lead_ms


@dataclass(frozen=True)
class Clock:
    """A clock as a page prints it: its ``start`` (server epoch ms), its ``edges`` (ms after
    the start at which the phones fire: 0 is the start itself) and their ``labels`` (what the
    phone shows until that edge, e.g. "Draw in", "Play!")."""

    start: int
    edges: Sequence[int]
    labels: Sequence[Text] = ()

    @property
    def end(self) -> int:
        return self.start + max(self.edges, default=0)

    def over(self, now: int) -> bool:
        return now >= self.end

    @property
    def edges_attr(self) -> str:
        return ",".join(str(int(e)) for e in self.edges)

    @property
    def labels_attr(self) -> str:
        return "|".join(str(label) for label in self.labels)  # (a label may be lazy: translated)


@never_cache
@require_GET
def now_view(request: HttpRequest) -> JsonResponse:
    """``{"now": <server epoch ms>}``, for the phones' offset estimate. Public (it tells the
    time), never stored by any cache."""
    return JsonResponse({"now": now_ms()})
