"""What every table's models share, as abstract bases and constraints (no table of its own):
a game's state row (``TableRow``), its seats (``TableSeat``), its timeline line
(``TimelineLine``), and the constraints of its seats, lines and move keys, each named after the
model that uses them."""

from __future__ import annotations

from typing import ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import get_language

from tables.words import said_in


class TableRow(models.Model):
    """A game's table: its engine's ``state`` (JSON), the ``version`` the kit moves on, the
    state's ``phase`` (for lists; the game's ``OVER`` phases end it) and its campaign (a
    one-off table is a campaign of kind one-off). The pipeline: ``tables.moves``."""

    OVER: tuple[str, ...] = ()
    # Its game's kind (its page's ``<kind>_id``) and the URL namespace of its pages, told by
    # the site when the game registers (``tables.site``).
    KIND: ClassVar[str] = ""
    NAMESPACE: ClassVar[str] = ""

    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="%(class)ss"
    )
    state = models.JSONField()
    version = models.PositiveIntegerField(default=0)
    phase = models.CharField(max_length=12, db_index=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    last_move_at = models.DateTimeField(auto_now=True)

    class Meta:
        abstract = True
        ordering = ["-created_at"]

    def get_absolute_url(self) -> str:
        """Its page: a seated player's phone, or a watcher's screen."""
        kwargs = {"slug": self.campaign.slug, f"{self.KIND}_id": self.pk}
        return reverse(f"{self.NAMESPACE or self.KIND}:detail", kwargs=kwargs)

    @property
    def is_over(self) -> bool:
        return self.phase in self.OVER


class TableSeat(models.Model):
    """A player at a game's table: ``pid`` their place in the engine's state, ``position`` the
    seat, clockwise. The game adds its foreign key to its table and ``seat_constraints``."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    pid = models.CharField(max_length=20)
    position = models.PositiveSmallIntegerField()

    class Meta:
        abstract = True
        ordering = ["position"]


def seat_constraints(fk: str) -> list[models.BaseConstraint]:
    """One seat per user, per pid and per position at a table."""
    return [
        models.UniqueConstraint(fields=[fk, what], name=f"%(app_label)s_%(class)s_{what}_once")
        for what in ("user", "pid", "position")
    ]


class TimelineLine(models.Model):
    """A line of a table's public timeline: numbered (``seq``, unique per table:
    ``seq_once``), the table's version it was written at, who did it and what happened. The
    game adds its foreign key to its table (``tables.moves.Table.fk``) and its own fields."""

    seq = models.PositiveIntegerField()
    version = models.PositiveIntegerField()
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    text = models.TextField()
    # What was said, kept apart so each reader sees it in their own language (issue 39): the
    # English message with {name} places, and its values as JSON text (``cards.words``,
    # ``tables.words``: text, not a JSONField, so reading a timeline decodes nothing until a
    # line is shown, and then once per process and language). A line without a message
    # (written before, or by a game that says only ``text``) is shown as its ``text``.
    message = models.TextField(blank=True, default="")
    values = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        abstract = True
        ordering = ["seq"]

    def __str__(self) -> str:
        return self.shown

    @property
    def shown(self) -> str:
        """The line in the active language (the reader's)."""
        return said_in(self.message, self.values, get_language()) if self.message else self.text


def seq_once(fk: str) -> models.UniqueConstraint:
    """A timeline's lines are numbered once per table."""
    return models.UniqueConstraint(fields=[fk, "seq"], name="%(app_label)s_%(class)s_seq_once")


def key_once(fk: str) -> list[models.BaseConstraint]:
    """A move key (``dustdevils.idempotency.MoveKeyBase``) is kept once per table, never empty."""
    return [
        models.UniqueConstraint(fields=[fk, "key"], name="%(app_label)s_%(class)s_once"),
        models.CheckConstraint(condition=~Q(key=""), name="%(app_label)s_%(class)s_not_empty"),
    ]
