"""Campaigns, who sits at them, invitations, notes and numbered sessions."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Campaign(models.Model):
    """A table of people: a Dust Devils campaign, or a one-off table.

    A **one-off table** (``kind`` = one-off) is how people outside any campaign play Death
    Enters the Saloon (issue 20): a small campaign of its own, made with its first game's host
    seated in the Dealer's chair (who alone makes invitation links, as in a campaign). Being a
    campaign with memberships, everything keeps its one scoping rule (``campaigns.access``:
    non-members get 404) and the invitation links of ``campaigns.services`` seat the guests.
    It has no Dust Devils pages of its own: its page is its saloon lobby, and the home page
    lists it apart, under "One-off tables"."""

    class Kind(models.TextChoices):
        CAMPAIGN = "campaign", "Campaign"
        ONE_OFF = "one_off", "One-off table"

    name = models.CharField(max_length=120)
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.CAMPAIGN)
    slug = models.SlugField(max_length=140, unique=True)
    setting = models.CharField(
        max_length=200, blank=True, help_text="Where it happens, e.g. Last Oak, Kansas."
    )
    pitch = models.TextField(blank=True, help_text="The situation, in a few lines.")
    # R11 house rule: an extra card for each winner of the previous hand of a continued fight.
    winner_bonus = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        if self.is_one_off:  # its page is its saloon lobby (a URL name: no import of saloon)
            return reverse("saloon:list", kwargs={"slug": self.slug})
        return reverse("campaigns:detail", kwargs={"slug": self.slug})

    @property
    def is_one_off(self) -> bool:
        return self.kind == self.Kind.ONE_OFF


class Membership(models.Model):
    class Role(models.TextChoices):
        DEALER = "dealer", _("Dealer")
        PLAYER = "player", _("Player")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.PLAYER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-role", "joined_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "user"], name="membership_once_per_campaign"
            ),
            models.UniqueConstraint(
                fields=["campaign"],
                condition=Q(role="dealer"),
                name="membership_one_dealer_per_campaign",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()}) in {self.campaign}"

    @property
    def is_dealer(self) -> bool:
        return self.role == self.Role.DEALER


def hash_token(token: str) -> str:
    """Invitation tokens are stored hashed: a leaked database row cannot be used to join."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class Invite(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invites")
    token_hash = models.CharField(max_length=64, unique=True)
    label = models.CharField(
        max_length=80, blank=True, help_text="Who it is for, so you can tell links apart."
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Invitation to {self.campaign} ({self.status})"

    @property
    def status(self) -> str:
        if self.revoked_at:
            return "revoked"
        if self.used_at:
            return "used"
        if self.expires_at <= timezone.now():
            return "expired"
        return "open"

    @property
    def is_usable(self) -> bool:
        return self.status == "open"


class Note(models.Model):
    """Dealer prep notes: the situation, unresolved questions, anything worth keeping."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="notes")
    title = models.CharField(max_length=120)
    body = models.TextField(blank=True)
    position = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["position", "id"]

    def __str__(self) -> str:
        return self.title


class GameSession(models.Model):
    """One evening at the table. Devil ratings are set for each session (R21)."""

    class Status(models.TextChoices):
        PLANNED = "planned", "Planned"
        OPEN = "open", "Being played"
        ENDED = "ended", "Ended"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="sessions")
    number = models.PositiveIntegerField()
    date = models.DateField(null=True, blank=True)
    notes = models.TextField(blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLANNED)
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    last_activity_at = models.DateTimeField(null=True, blank=True)
    # R22: the Dealer may rule that damage carries over into the next session, for everyone
    # (this flag) or for named characters (``carry_over_for``). Set when the session ends.
    damage_carries_over = models.BooleanField(default=False)
    carry_over_for = models.ManyToManyField(
        "characters.Character", blank=True, related_name="carried_over_in"
    )

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"], name="session_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="session_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.campaign} — session {self.number}"


class DevilRating(models.Model):
    """R21: a character's Devil rating for one session, set by its player (the Dealer for NPCs)."""

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="devil_ratings")
    character = models.ForeignKey(
        "characters.Character", on_delete=models.CASCADE, related_name="devil_ratings"
    )
    rating = models.PositiveSmallIntegerField()
    set_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    set_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["session", "character"], name="devil_rating_once_per_session"
            ),
            models.CheckConstraint(
                condition=Q(rating__gte=1, rating__lte=3), name="devil_rating_1_to_3"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.character} Devil {self.rating} in {self.session}"


class SessionEvent(models.Model):
    """The session's own log: started, ended (by the Dealer or the stale-session sweep), the
    recovery job's result. Shown on the session page to the whole table."""

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="events")
    at = models.DateTimeField(default=timezone.now)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    text = models.TextField()

    class Meta:
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return self.text


class JobRun(models.Model):
    """A background job that has run for a session, once: the unique record that makes a
    re-run (a redelivered or repeated task) a no-op. It is written in the same transaction as
    the job's changes, so it exists exactly when the changes do."""

    class Job(models.TextChoices):
        RECOVER = "recover_session", "Recovery at the session's end (R22)"

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="job_runs")
    job = models.CharField(max_length=40, choices=Job.choices)
    started_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)
    # What it did, in numbers (e.g. points restored), for the session page and the logs.
    summary = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["started_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["session", "job"], name="job_run_once_per_session"),
        ]

    def __str__(self) -> str:
        return f"{self.get_job_display()} for {self.session}"


class WantedLink(models.Model):
    """Wanted!: how an important NPC is tied to a player character's Devil (RAW DEALER)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="links")
    npc = models.ForeignKey("characters.Character", on_delete=models.CASCADE, related_name="+")
    pc = models.ForeignKey("characters.Character", on_delete=models.CASCADE, related_name="+")
    devil_touched = models.CharField(
        max_length=200, blank=True, help_text="Which part of the Devil this NPC stirs up."
    )
    notes = models.TextField(blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["npc", "pc"], name="wanted_link_once"),
        ]

    def __str__(self) -> str:
        return f"{self.npc} ↔ {self.pc}"


class FormKey(models.Model):
    """A create form's idempotency key (``dustdevils.idempotency``), kept with what the form
    made: the same form sent again — a double click, twenty identical posts at once — finds
    it and makes nothing more (``tables.once.made_once``). A new campaign or one-off table,
    a planned session, a note, a fight, a game of the saloon."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=64)
    # The campaign made, or the one the thing was made in (the key goes with it).
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="+")
    made_model = models.CharField(max_length=100)  # "campaigns.note"
    made_id = models.PositiveBigIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="form_key_once"),
            models.CheckConstraint(condition=~Q(key=""), name="form_key_not_empty"),
        ]

    def __str__(self) -> str:
        return self.key
