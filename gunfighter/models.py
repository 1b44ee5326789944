"""The Gunfighter at a table (a campaign's, or a one-off's): the engine's state in one row, who
sits where, the public timeline and the moves' idempotency keys."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse

from dustdevils.idempotency import MoveKeyBase
from gunfighter.engine.state import Phase


class Gunfight(models.Model):
    """One game. ``state`` is the engine's state (gunfighter.engine.serial); every move goes
    through the table kit, which locks this row and bumps ``version``."""

    OVER = (Phase.OVER.value,)  # THE definition of "over" (campaigns.running)

    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="gunfights"
    )
    title = models.CharField(max_length=160, default="The Gunfighter")
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
            "gunfighter:detail", kwargs={"slug": self.campaign.slug, "gunfighter_id": self.pk}
        )

    @property
    def is_over(self) -> bool:
        return self.phase in self.OVER


class GunfightSeat(models.Model):
    """A gunfighter at the table: ``pid`` their place in the engine's state, ``position`` the
    seat, clockwise."""

    gunfight = models.ForeignKey(Gunfight, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    pid = models.CharField(max_length=20)
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["gunfight", "user"], name="gunfight_seat_user_once"),
            models.UniqueConstraint(fields=["gunfight", "pid"], name="gunfight_seat_pid_once"),
            models.UniqueConstraint(fields=["gunfight", "position"], name="gunfight_seat_position"),
        ]

    def __str__(self) -> str:
        return f"{self.pid} at {self.gunfight}"


class GunfightLine(models.Model):
    """The public timeline: what happened, showdown by showdown."""

    gunfight = models.ForeignKey(Gunfight, on_delete=models.CASCADE, related_name="lines")
    seq = models.PositiveIntegerField()
    version = models.PositiveIntegerField()
    showdown = models.PositiveIntegerField(default=0)
    pid = models.CharField(max_length=20, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    text = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["seq"]
        constraints = [
            models.UniqueConstraint(fields=["gunfight", "seq"], name="gunfight_line_seq_once"),
        ]

    def __str__(self) -> str:
        return self.text


class GunfightMoveKey(MoveKeyBase):
    """An idempotency key: a repeated submit (a double tap) is recognised and changes nothing."""

    gunfight = models.ForeignKey(Gunfight, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["gunfight", "key"], name="gunfight_move_key_once"),
            models.CheckConstraint(condition=~Q(key=""), name="gunfight_move_key_not_empty"),
        ]
