"""Saloon Showdown at a table: the engine's state in one row, who sits where, and the timeline."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse

from dustdevils.idempotency import MoveKeyBase
from showdown.engine.state import Phase


class Showdown(models.Model):
    """One game. ``state`` is the engine's (showdown.engine.state); every move goes through the
    table kit, which locks this row and moves ``version`` on."""

    OVER = (Phase.OVER.value,)  # THE definition of "over" (the banner, ``is_over``)

    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="showdowns"
    )
    title = models.CharField(max_length=160, default="Saloon Showdown")
    state = models.JSONField()
    version = models.PositiveIntegerField(default=0)
    phase = models.CharField(max_length=12, db_index=True)
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
        return reverse(
            "showdown:detail", kwargs={"slug": self.campaign.slug, "showdown_id": self.pk}
        )

    @property
    def is_over(self) -> bool:
        return self.phase in self.OVER


class ShowdownSeat(models.Model):
    """A player: ``pid`` is their place in the engine's state; ``position`` clockwise."""

    showdown = models.ForeignKey(Showdown, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    pid = models.CharField(max_length=20)
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["showdown", "user"], name="showdown_seat_user_once"),
            models.UniqueConstraint(fields=["showdown", "pid"], name="showdown_seat_pid_once"),
            models.UniqueConstraint(fields=["showdown", "position"], name="showdown_seat_position"),
        ]

    def __str__(self) -> str:
        return f"{self.pid} at {self.showdown}"


class ShowdownLine(models.Model):
    """The public timeline: what happened, the money, whose turn, the end. No hidden number is
    ever written here before it is revealed."""

    class Kind(models.TextChoices):
        RULE = "rule", "What happened"
        TURN = "turn", "Whose turn"
        MONEY = "money", "Money"
        END = "end", "The end"

    showdown = models.ForeignKey(Showdown, on_delete=models.CASCADE, related_name="lines")
    seq = models.PositiveIntegerField()
    version = models.PositiveIntegerField()
    kind = models.CharField(max_length=8, choices=Kind.choices)
    pid = models.CharField(max_length=20, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    text = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["seq"]
        constraints = [
            models.UniqueConstraint(fields=["showdown", "seq"], name="showdown_line_seq_once"),
        ]

    def __str__(self) -> str:
        return self.text


class ShowdownMoveKey(MoveKeyBase):
    """An idempotency key: a double tap is recognised and changes nothing."""

    showdown = models.ForeignKey(Showdown, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["showdown", "key"], name="showdown_move_key_once"),
            models.CheckConstraint(condition=~Q(key=""), name="showdown_move_key_not_empty"),
        ]
