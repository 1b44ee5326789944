"""High card's table, on the kit's bases."""

from __future__ import annotations

from django.db import models

from dustdevils.idempotency import MoveKeyBase
from tables.models import TableRow, TableSeat, TimelineLine, key_once, seat_constraints, seq_once


class HighCard(TableRow):
    OVER = ("over",)

    title = models.CharField(max_length=60, default="High card")


class HighCardSeat(TableSeat):
    game = models.ForeignKey(HighCard, on_delete=models.CASCADE, related_name="seats")

    class Meta(TableSeat.Meta):
        constraints = seat_constraints("game")


class HighCardLine(TimelineLine):
    game = models.ForeignKey(HighCard, on_delete=models.CASCADE, related_name="lines")

    class Meta(TimelineLine.Meta):
        constraints = [seq_once("game")]


class HighCardKey(MoveKeyBase):
    game = models.ForeignKey(HighCard, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = key_once("game")
