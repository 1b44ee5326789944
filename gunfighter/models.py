"""The Gunfighter at a table (a campaign's, or a one-off's): the engine's state in one row, who
sits where, the public timeline and the moves' idempotency keys."""

from __future__ import annotations

from django.db import models

from dustdevils.idempotency import MoveKeyBase
from gunfighter.engine.state import Phase
from tables.models import TableRow, TableSeat, TimelineLine, key_once, seat_constraints, seq_once


class Gunfight(TableRow):
    """One game. ``state`` is the engine's state (gunfighter.engine.serial); every move goes
    through the table kit, which locks this row and bumps ``version``."""

    OVER = (Phase.OVER.value,)  # THE definition of "over" (tables.running)

    title = models.CharField(max_length=160, default="The Gunfighter")

    def __str__(self) -> str:
        return self.title


class GunfightSeat(TableSeat):
    """A gunfighter at the table."""

    gunfight = models.ForeignKey(Gunfight, on_delete=models.CASCADE, related_name="seats")

    class Meta(TableSeat.Meta):
        constraints = seat_constraints("gunfight")

    def __str__(self) -> str:
        return f"{self.pid} at {self.gunfight}"


class GunfightLine(TimelineLine):
    """The public timeline: what happened, showdown by showdown."""

    gunfight = models.ForeignKey(Gunfight, on_delete=models.CASCADE, related_name="lines")
    showdown = models.PositiveIntegerField(default=0)
    pid = models.CharField(max_length=20, blank=True)

    class Meta(TimelineLine.Meta):
        constraints = [seq_once("gunfight")]


class GunfightMoveKey(MoveKeyBase):
    """An idempotency key: a repeated submit (a double tap) is recognised and changes nothing."""

    gunfight = models.ForeignKey(Gunfight, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = key_once("gunfight")
