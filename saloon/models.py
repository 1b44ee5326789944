"""Death Enters the Saloon at a campaign's table: the engine's state in one row, who sits
where, and the timeline with the answers typed."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse

from dustdevils.idempotency import MoveKeyBase
from saloon.engine.state import Phase


class Saloon(models.Model):
    """One game. ``state`` is the engine's state (saloon.engine.serial); every move locks this
    row, checks ``version`` and bumps it."""

    # The phases in which the game has ended: THE definition of "over" (the "In play now"
    # banner, ``is_over``), like ``Conflict.OVER``.
    OVER = (Phase.OVER.value,)

    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="saloons"
    )
    title = models.CharField(max_length=160, default="Death Enters the Saloon")
    state = models.JSONField()
    version = models.PositiveIntegerField(default=0)
    phase = models.CharField(max_length=12, db_index=True)  # the state's phase, for lists
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    last_move_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.title

    def get_absolute_url(self) -> str:
        return reverse("saloon:detail", kwargs={"slug": self.campaign.slug, "saloon_id": self.pk})

    @property
    def is_over(self) -> bool:
        return self.phase in self.OVER

    @property
    def channel(self) -> str:
        """The broadcaster's name for this table (dustdevils.live.broadcast)."""
        return f"saloon-{self.pk}"


class SaloonSeat(models.Model):
    """A player at the saloon table: ``pid`` is their place in the engine's state; ``position``
    the seat, clockwise."""

    saloon = models.ForeignKey(Saloon, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    pid = models.CharField(max_length=20)
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["saloon", "user"], name="saloon_seat_user_once"),
            models.UniqueConstraint(fields=["saloon", "pid"], name="saloon_seat_pid_once"),
            models.UniqueConstraint(fields=["saloon", "position"], name="saloon_seat_position"),
        ]

    def __str__(self) -> str:
        return f"{self.pid} at {self.saloon}"


class SaloonLine(models.Model):
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
    seq = models.PositiveIntegerField()
    version = models.PositiveIntegerField()
    deal = models.PositiveIntegerField(default=0)  # the engine's deal when written
    kind = models.CharField(max_length=10, choices=Kind.choices)
    pid = models.CharField(max_length=20, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    text = models.TextField()
    said = models.TextField(blank=True)
    # S4: struck from the story while the Unwanted card was up (its words are gone for good).
    struck = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["seq"]
        constraints = [
            models.UniqueConstraint(fields=["saloon", "seq"], name="saloon_line_seq_once"),
        ]

    def __str__(self) -> str:
        return self.text


class SaloonMoveKey(MoveKeyBase):
    """An idempotency key: a repeated submit (a double click) is recognised and changes nothing."""

    saloon = models.ForeignKey(Saloon, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["saloon", "key"], name="saloon_move_key_once"),
            models.CheckConstraint(condition=~Q(key=""), name="saloon_move_key_not_empty"),
        ]
