"""Saloon Showdown in the "In play now" banner (``campaigns.running``): the games not over in
which the viewer has a seat, and every one at a table the viewer hosts."""

from __future__ import annotations

from django.db.models import Exists, OuterRef

from campaigns.running import RunningTable, Seats, seated_running
from showdown.engine.state import Phase
from showdown.models import Showdown, ShowdownSeat

PHASE_LABELS = {
    Phase.PLAY.value: "in play",
    Phase.THREAT.value: "a threat",
    Phase.BLUFF.value: "a bluff called",
    Phase.FIGHT.value: "a duel",
    Phase.EVENT.value: "an event",
}


def running(seats: Seats) -> list[RunningTable]:
    mine = ShowdownSeat.objects.filter(showdown=OuterRef("pk"), user_id=seats.user_id)
    return seated_running(
        seats, kind="showdown", model=Showdown, seated=Exists(mine), labels=PHASE_LABELS,
        url_name="showdown:detail",
    )  # fmt: skip
