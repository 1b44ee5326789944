"""The gunfights in the "In play now" banner (``campaigns.running``, registered in
``GunfighterConfig.ready``): those not over in which the viewer has a seat, and every one at a
table the viewer hosts. A seated gunfighter is a player (``dealer=False``), so the one-off
lobby takes a guest to a game the host starts for them (``campaigns.running.new_seat``)."""

from __future__ import annotations

from django.db.models import Exists, OuterRef

from campaigns.running import RunningTable, Seats, seated_running
from gunfighter.engine.state import Phase
from gunfighter.models import Gunfight, GunfightSeat

PHASE_LABELS = {
    Phase.CHOOSE.value: "choosing decks",
    Phase.PREPARE.value: "before a showdown",
    Phase.SHOWDOWN.value: "the showdown",
}


def running(seats: Seats) -> list[RunningTable]:
    mine = GunfightSeat.objects.filter(gunfight=OuterRef("pk"), user_id=seats.user_id)
    return seated_running(
        seats, kind="gunfighter", model=Gunfight, seated=Exists(mine), labels=PHASE_LABELS,
        url_name="gunfighter:detail",
    )  # fmt: skip
