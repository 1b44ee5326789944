"""Conflicts at the table, on the kit's bases (``tables.models``) where the fields match: the
engine's state in one row (``TableRow``), the timeline (``TimelineLine``), the move keys
(``MoveKeyBase``). A hand is held by a character, not a user, so ``Seat`` keeps its own shape.
The constraints keep the names they were made with (migration 0008 changes no table)."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from dustdevils.idempotency import MoveKeyBase
from tables.models import TableRow, TimelineLine


class Side(models.TextChoices):
    """The sides of a conflict (R14, R18): a hand's ``side`` in the engine's state."""

    PLAYERS = "players", "Players' side"
    DEALER = "dealer", "Dealer's side"
    THIRD = "third", "A third side"


class Conflict(TableRow):
    """One Deal to its resolution. ``state`` is the engine's state (conflicts.engine.serial);
    every move locks this row, checks ``version`` and bumps it (``tables.moves``)."""

    class Phase(models.TextChoices):
        """The engine's ``Phase`` (the same values; a test holds them equal) and its label."""

        SIZING = "sizing", "Sizing the Deal"
        DRAW = "draw", "The Draw"
        LAYING = "laying", "Called: choose your lays"
        RESOLUTION = "resolution", "Lays on the table"
        DONE = "done", "Over"
        FOLDED = "folded", "Folded"
        CANCELLED = "cancelled", "Cancelled before the Deal"

    OVER = (Phase.DONE, Phase.FOLDED, Phase.CANCELLED)

    session = models.ForeignKey(
        "campaigns.GameSession",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="conflicts",
    )
    title = models.CharField(max_length=160)
    # The state's phase, for queries.
    phase = models.CharField(max_length=12, choices=Phase.choices, db_index=True)
    previous = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="continued_by"
    )  # R20: "Deal again"
    # R32: a conflict that settles an action of a fight, and the round it was started in.
    fight = models.ForeignKey(
        "fights.Fight",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="conflicts",
    )
    fight_round = models.PositiveIntegerField(null=True, blank=True)
    abandoned_at = models.DateTimeField(null=True, blank=True)

    class Meta(TableRow.Meta):
        pass

    def __str__(self) -> str:
        return self.title


class Seat(models.Model):
    """A hand in a conflict (the engine's ``pid``) and the character behind it, if any."""

    conflict = models.ForeignKey(Conflict, on_delete=models.CASCADE, related_name="seats")
    pid = models.CharField(max_length=20)
    character = models.ForeignKey(
        "characters.Character", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    goal = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["conflict", "pid"], name="seat_pid_once"),
        ]

    def __str__(self) -> str:
        return f"{self.pid} in {self.conflict}"


class Event(TimelineLine):
    """The conflict's timeline: every step, who did it, what was revealed when."""

    conflict = models.ForeignKey(Conflict, on_delete=models.CASCADE, related_name="events")

    class Meta(TimelineLine.Meta):
        constraints = [
            models.UniqueConstraint(fields=["conflict", "seq"], name="event_seq_once"),
        ]


class MoveKey(MoveKeyBase):
    """An idempotency key: a repeated submit (a double click) is recognised and changes nothing."""

    conflict = models.ForeignKey(Conflict, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["conflict", "key"], name="move_key_once"),
            models.CheckConstraint(condition=~Q(key=""), name="move_key_not_empty"),
        ]


class Snapshot(models.Model):
    """The engine's state after each move (and at the set-up), for the replay of a finished
    conflict (issue 18). It holds every hand and the deck, like ``Conflict.state``: it reaches a
    screen only through ``selectors.replay_view`` and the engine's ``visible_cards`` (R10)."""

    conflict = models.ForeignKey(Conflict, on_delete=models.CASCADE, related_name="snapshots")
    version = models.PositiveIntegerField()
    state = models.JSONField()

    class Meta:
        ordering = ["version"]
        constraints = [
            models.UniqueConstraint(fields=["conflict", "version"], name="snapshot_version_once"),
        ]

    def __str__(self) -> str:
        return f"{self.conflict} at version {self.version}"
