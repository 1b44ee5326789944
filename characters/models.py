"""Characters (player and non-player), their knacks and the chip ledger."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone

from cards.dice import DiceSpec, parse_dice
from characters.rules import ATTRIBUTE_LABELS, ATTRIBUTES, max_knacks


def _attribute_constraints() -> list[models.BaseConstraint]:
    # R29: a rating 0–5 and a current value between 0 and the rating.
    out: list[models.BaseConstraint] = []
    for name in ATTRIBUTES:
        out.append(
            models.CheckConstraint(
                condition=Q(**{f"{name}__gte": 0, f"{name}__lte": 5}),
                name=f"character_{name}_0_to_5",
            )
        )
        out.append(
            models.CheckConstraint(
                condition=Q(**{f"{name}_current__gte": 0, f"{name}_current__lte": F(name)}),
                name=f"character_{name}_current_within_rating",
            )
        )
    return out


class Character(models.Model):
    class Kind(models.TextChoices):
        PC = "pc", "Player character"
        NPC = "npc", "Non-player character"

    class Fate(models.TextChoices):
        # R17: how the player ends the character's story.
        DIES = "dies", "Dies"
        RETIRES = "retires", "Retires"
        GOES_MAD = "goes_mad", "Goes mad"
        SETTLES_DOWN = "settles_down", "Settles down"
        MOVES_ON = "moves_on", "Moves on"
        OTHER = "other", "In their own words"

    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="characters"
    )
    kind = models.CharField(max_length=3, choices=Kind.choices, default=Kind.PC)
    # A player character's player; empty for non-player characters, which the Dealer runs.
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="characters",
    )
    name = models.CharField(max_length=120)
    vocation = models.CharField(max_length=120, blank=True)
    description = models.TextField(blank=True)
    back_story = models.TextField(blank=True)

    hand = models.PositiveSmallIntegerField(default=1)
    hand_current = models.PositiveSmallIntegerField(default=1)
    eye = models.PositiveSmallIntegerField(default=1)
    eye_current = models.PositiveSmallIntegerField(default=1)
    guts = models.PositiveSmallIntegerField(default=1)
    guts_current = models.PositiveSmallIntegerField(default=1)
    heart = models.PositiveSmallIntegerField(default=1)
    heart_current = models.PositiveSmallIntegerField(default=1)

    trait_1 = models.CharField("first trait", max_length=120, blank=True)
    trait_2 = models.CharField("second trait", max_length=120, blank=True)

    devil = models.TextField(blank=True, help_text="The dark past that haunts the character.")
    # A non-player character's secrets: the Dealer's alone. No page, fragment, stream or
    # export a player can open ever shows them (tests/characters/test_secrets.py).
    secrets = models.TextField(blank=True)
    # The Devil's standing rating; each session keeps its own (campaigns.DevilRating, R21).
    devil_rating = models.PositiveSmallIntegerField(null=True, blank=True)

    # The running chip total. The ledger (ChipEntry) is the record; this counter exists so the
    # database itself can refuse a negative balance, even under concurrent spends.
    chips = models.PositiveIntegerField(default=0)

    # R27 (house rule): the Quickness dice, "NdX" (d4–d12), set by the Dealer; empty: (Hand)d6.
    quickness_dice = models.CharField(max_length=8, blank=True)
    # A player's new character waits for the Dealer's approval before it is seated in a
    # conflict (selectors.in_play); the Dealer's own, imported and starter characters are
    # approved as they are made. Once approved, its player no longer moves rating points.
    approved = models.BooleanField(default=True)

    out_of_play = models.BooleanField(default=False)
    fate = models.CharField(max_length=20, choices=Fate.choices, blank=True)
    epitaph = models.TextField(blank=True)
    left_play_at = models.DateTimeField(null=True, blank=True)

    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["kind", "name"]
        constraints = [
            *_attribute_constraints(),
            models.CheckConstraint(condition=Q(chips__gte=0), name="character_chips_not_negative"),
            models.CheckConstraint(
                condition=Q(devil_rating__isnull=True)
                | Q(devil_rating__gte=1, devil_rating__lte=3),
                name="character_devil_rating_1_to_3",
            ),
            models.CheckConstraint(
                condition=Q(kind="npc") | Q(player__isnull=False) | Q(out_of_play=True),
                name="character_pc_has_player",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse(
            "characters:sheet", kwargs={"slug": self.campaign.slug, "character_id": self.pk}
        )

    @property
    def is_pc(self) -> bool:
        return self.kind == self.Kind.PC

    @property
    def quickness(self) -> DiceSpec:
        """R27: the Quickness dice: what the Dealer set, else (Hand)d6 (the current Hand, at
        least one die)."""
        if self.quickness_dice:
            return parse_dice(self.quickness_dice)
        return DiceSpec(max(1, self.hand_current), 6)

    @property
    def guts_dice(self) -> DiceSpec:
        """R26/R27 as the app reads them: a surprised character's Guts check rolls (Guts)d6,
        the current Guts, at least one die (as Quickness is (Hand)d6)."""
        return DiceSpec(max(1, self.guts_current), 6)

    @property
    def is_important(self) -> bool:
        """An NPC with a Devil is important: it gets its own hand (R12)."""
        return bool(self.devil.strip())

    def rating(self, attribute: str) -> int:
        return int(getattr(self, attribute))

    def current(self, attribute: str) -> int:
        return int(getattr(self, f"{attribute}_current"))

    @property
    def attributes(self) -> list[dict[str, object]]:
        """Rows for templates: name, label, suit, rating, current, difficulty taken."""
        from characters.rules import ATTRIBUTE_SUITS

        return [
            {
                "name": name,
                "label": ATTRIBUTE_LABELS[name],
                "suit": ATTRIBUTE_SUITS[name],
                "rating": self.rating(name),
                "current": self.current(name),
                "difficulty": self.rating(name) - self.current(name),
            }
            for name in ATTRIBUTES
        ]

    @property
    def road_to_hell_attributes(self) -> list[str]:
        """R17: attributes at 0. Any one puts the character on their last leg."""
        return [name for name in ATTRIBUTES if self.current(name) == 0]

    @property
    def awaiting_epitaph(self) -> bool:
        """R17: out of play at the end of its last conflict; its player has not written the
        end yet."""
        return self.out_of_play and not self.epitaph

    @property
    def status(self) -> str:
        if self.out_of_play:
            return "out"
        if self.road_to_hell_attributes:
            return "road"
        return "active"

    @property
    def status_label(self) -> str:
        if self.awaiting_epitaph:
            return "Out of play: the end is still to be written"
        if self.out_of_play:
            return "Out of play"
        zero = self.road_to_hell_attributes
        if zero:
            names = " and ".join(ATTRIBUTE_LABELS[a] for a in zero)
            return f"On the Road to Hell ({names} at 0)"
        return "Active"

    @property
    def traits(self) -> list[str]:
        return [t for t in (self.trait_1, self.trait_2) if t]

    @property
    def knack_limit(self) -> int:
        return max_knacks(self.hand, self.eye)


class Knack(models.Model):
    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="knacks")
    name = models.CharField(max_length=80)
    rating = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["-rating", "name"]
        constraints = [
            models.UniqueConstraint(fields=["character", "name"], name="knack_once_per_character"),
            models.CheckConstraint(condition=Q(rating__gte=1, rating__lte=4), name="knack_1_to_4"),
        ]

    def __str__(self) -> str:
        return f"{self.name} {self.rating}"


class ChipEntry(models.Model):
    """One row of a character's chip ledger (R15): every chip earned or spent, and why."""

    class Reason(models.TextChoices):
        STARTING = "starting", "Starting chips"
        GRANT = "grant", "Dealer's grant"
        STAKES = "stakes", "Stakes won"
        DEALER_AWARD = "dealer_award", "Dealer's award"
        EXTRA_CARD = "extra_card", "Extra card in the Deal"
        EXTRA_DRAW = "extra_draw", "Extra card in the Draw"
        FOLD = "fold", "Fold"
        NARRATION_BID = "narration_bid", "Narration bid"
        IMPROVE_ATTRIBUTE = "improve_attribute", "Improved an attribute"
        IMPROVE_KNACK = "improve_knack", "Improved a knack"
        NEW_KNACK = "new_knack", "Bought a new knack"
        CORRECTION = "correction", "Correction"
        IMPORTED = "imported", "Imported"

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="chip_entries")
    amount = models.IntegerField()
    balance_after = models.PositiveIntegerField()
    reason = models.CharField(max_length=20, choices=Reason.choices)
    note = models.CharField(max_length=200, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    session = models.ForeignKey(
        "campaigns.GameSession",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="chip_entries",
    )
    conflict = models.ForeignKey(
        "conflicts.Conflict",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="chip_entries",
    )
    # The idempotency key of the form that made this change (a spend, a grant): the same form
    # sent twice changes chips once. Blank for changes no form repeats (a conflict's moves
    # carry their own key; imports; corrections).
    key = models.CharField(max_length=64, blank=True, default="")
    # "Now" unless given: an imported ledger row keeps its own time (in bulk, one query per
    # few hundred rows — auto_now_add would overwrite it and need an update per row).
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name_plural = "chip entries"
        constraints = [
            models.UniqueConstraint(
                fields=["character", "key"], condition=~Q(key=""), name="chip_entry_key_once"
            ),
            models.CheckConstraint(condition=~Q(amount=0), name="chip_entry_not_zero"),
            models.CheckConstraint(
                condition=Q(balance_after__gte=0), name="chip_entry_balance_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.amount:+d} {self.get_reason_display()} ({self.character})"


class AttributeChange(models.Model):
    """One change to an attribute's current value, and why: the character's history across
    sessions (Difficulty taken R9, points restored in play R16/R22, recovery at a session's
    end R22). Improvements bought with chips are in the chip ledger (R15). A Dealer's edit
    of an approved sheet is here too: the rating's change when the rating moved, else the
    current value's."""

    class Reason(models.TextChoices):
        DIFFICULTY = "difficulty", "Difficulty taken"
        RESTORE = "restore", "Restored in play"
        RECOVERY = "recovery", "Recovered at the session's end"
        DEALER_EDIT = "dealer_edit", "Set by the Dealer"

    character = models.ForeignKey(
        Character, on_delete=models.CASCADE, related_name="attribute_changes"
    )
    session = models.ForeignKey(
        "campaigns.GameSession",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="attribute_changes",
    )
    conflict = models.ForeignKey(
        "conflicts.Conflict",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="attribute_changes",
    )
    attribute = models.CharField(max_length=5, choices=list(ATTRIBUTE_LABELS.items()))
    before = models.PositiveSmallIntegerField()
    after = models.PositiveSmallIntegerField()
    reason = models.CharField(max_length=12, choices=Reason.choices)
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(before=F("after")), name="attribute_change_changes"
            ),
            models.CheckConstraint(
                condition=Q(before__lte=5, after__lte=5), name="attribute_change_0_to_5"
            ),
            models.CheckConstraint(
                condition=Q(attribute__in=list(ATTRIBUTES)), name="attribute_change_attribute"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.character} {self.attribute} {self.before} → {self.after} ({self.reason})"

    @property
    def points(self) -> int:
        return self.after - self.before


class SessionSnapshot(models.Model):
    """A character as a session ended, before recovery: current values, ratings and chips.
    The sheet's history chart is drawn from these, one point per session."""

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="snapshots")
    session = models.ForeignKey(
        "campaigns.GameSession", on_delete=models.CASCADE, related_name="snapshots"
    )
    hand = models.PositiveSmallIntegerField()
    hand_current = models.PositiveSmallIntegerField()
    eye = models.PositiveSmallIntegerField()
    eye_current = models.PositiveSmallIntegerField()
    guts = models.PositiveSmallIntegerField()
    guts_current = models.PositiveSmallIntegerField()
    heart = models.PositiveSmallIntegerField()
    heart_current = models.PositiveSmallIntegerField()
    chips = models.PositiveIntegerField()
    taken_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["session__number"]
        constraints = [
            models.UniqueConstraint(fields=["character", "session"], name="session_snapshot_once"),
        ]

    def __str__(self) -> str:
        return f"{self.character} at the end of {self.session}"

    def current(self, attribute: str) -> int:
        return int(getattr(self, f"{attribute}_current"))

    def rating(self, attribute: str) -> int:
        return int(getattr(self, attribute))
