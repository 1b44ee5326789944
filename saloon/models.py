"""Death Enters the Saloon at a table, on the kit's bases (``tables.models``): the engine's state
in one row, who sits where, and the timeline with the answers typed. The constraints keep the
names they were made with (no migration)."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from dustdevils.idempotency import MoveKeyBase
from saloon.engine.state import Phase
from tables.models import TableRow, TableSeat, TimelineLine


class Saloon(TableRow):
    """One game. ``state`` is the engine's state (saloon.engine.serial); every move goes through
    the table kit, which locks this row and bumps ``version``."""

    OVER = (Phase.OVER.value,)  # THE definition of "over" (tables.running)

    title = models.CharField(max_length=160, default="Death Enters the Saloon")

    def __str__(self) -> str:
        return self.title


class SaloonSeat(TableSeat):
    saloon = models.ForeignKey(Saloon, on_delete=models.CASCADE, related_name="seats")

    class Meta(TableSeat.Meta):
        constraints = [
            models.UniqueConstraint(fields=["saloon", "user"], name="saloon_seat_user_once"),
            models.UniqueConstraint(fields=["saloon", "pid"], name="saloon_seat_pid_once"),
            models.UniqueConstraint(fields=["saloon", "position"], name="saloon_seat_position"),
        ]

    def __str__(self) -> str:
        return f"{self.pid} at {self.saloon}"


class SaloonLine(TimelineLine):
    """The timeline: what happened (``rule``), the questions, cues, answers, follow-ups and
    tales (``said``: the words typed, if any). Public: no hidden card is ever written here."""

    class Kind(models.TextChoices):
        RULE = "rule", "What happened"
        QUESTION = "question", "Question"
        CUE = "cue", "Clearing a name"
        ANSWER = "answer", "Answer"
        FOLLOW_UP = "follow_up", "Follow-up"
        TELL = "tell", "Told"

    saloon = models.ForeignKey(Saloon, on_delete=models.CASCADE, related_name="lines")
    deal = models.PositiveIntegerField(default=0)  # the engine's deal when written
    kind = models.CharField(max_length=10, choices=Kind.choices)
    pid = models.CharField(max_length=20, blank=True)
    said = models.TextField(blank=True)
    # S4: struck from the story while the Unwanted card was up (its words are gone for good).
    struck = models.BooleanField(default=False)

    class Meta(TimelineLine.Meta):
        constraints = [
            models.UniqueConstraint(fields=["saloon", "seq"], name="saloon_line_seq_once"),
        ]


class SaloonMoveKey(MoveKeyBase):
    """An idempotency key: a repeated submit (a double click) is recognised and changes nothing."""

    saloon = models.ForeignKey(Saloon, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["saloon", "key"], name="saloon_move_key_once"),
            models.CheckConstraint(condition=~Q(key=""), name="saloon_move_key_not_empty"),
        ]
