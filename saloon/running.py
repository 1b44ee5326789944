"""The saloon games in the "In play now" banner (``campaigns.running``, registered in
``SaloonConfig.ready``): those not over (``Saloon.OVER``) in which the viewer has a seat, and
every one at a table the viewer hosts (the Dealer's chair of the campaign or one-off table)."""

from __future__ import annotations

from django.db.models import Exists, OuterRef

from campaigns.running import RunningTable, Seats, seated_running
from saloon.engine.state import Phase
from saloon.models import Saloon, SaloonSeat

# The phases still being played, as the banner names them.
PHASE_LABELS = {
    Phase.ARCHETYPES.value: "picking archetypes",
    Phase.DISCARD.value: "discarding pairs",
    Phase.SWAP.value: "the Doomed's swap",
    Phase.PLAY.value: "in play",
    Phase.DUEL.value: "the duel",
}


def running(seats: Seats) -> list[RunningTable]:
    mine = SaloonSeat.objects.filter(saloon=OuterRef("pk"), user_id=seats.user_id)
    return seated_running(
        seats, kind="saloon", model=Saloon, seated=Exists(mine), labels=PHASE_LABELS,
        url_name="saloon:detail",
    )  # fmt: skip
