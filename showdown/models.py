"""Saloon Showdown at a table (a campaign's, or a one-off's), on the kit's model bases
(``tables.models``): the engine's state in one row, who sits where, the public timeline and the
moves' idempotency keys."""

from __future__ import annotations

from django.db import models

from dustdevils.idempotency import MoveKeyBase
from showdown.engine.state import Phase
from tables.models import TableRow, TableSeat, TimelineLine, key_once, seat_constraints, seq_once


class Showdown(TableRow):
    """One game. ``state`` is the engine's (showdown.engine.state); every move goes through the
    table kit, which locks this row and moves ``version`` on."""

    OVER = (Phase.OVER.value,)  # THE definition of "over" (the banner, ``is_over``)

    title = models.CharField(max_length=160, default="Saloon Showdown")

    def __str__(self) -> str:
        return self.title


class ShowdownSeat(TableSeat):
    """A player at the game."""

    showdown = models.ForeignKey(Showdown, on_delete=models.CASCADE, related_name="seats")

    class Meta(TableSeat.Meta):
        constraints = seat_constraints("showdown")

    def __str__(self) -> str:
        return f"{self.pid} at {self.showdown}"


class ShowdownLine(TimelineLine):
    """The public timeline: what happened, the money, whose turn, the end. No hidden number is
    ever written here before it is revealed (SS15)."""

    class Kind(models.TextChoices):
        RULE = "rule", "What happened"
        TURN = "turn", "Whose turn"
        MONEY = "money", "Money"
        END = "end", "The end"

    showdown = models.ForeignKey(Showdown, on_delete=models.CASCADE, related_name="lines")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    pid = models.CharField(max_length=20, blank=True)

    class Meta(TimelineLine.Meta):
        constraints = [seq_once("showdown")]


class ShowdownMoveKey(MoveKeyBase):
    """An idempotency key: a double tap is recognised and changes nothing."""

    showdown = models.ForeignKey(Showdown, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = key_once("showdown")
