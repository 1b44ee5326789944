"""A fight on the action deck, on the kit's bases (``tables.models``): the engine's state in
one row (``TableRow``), who fights in it, and its timeline (``TimelineLine``).

The tables keep the names they had when fights lived in the conflicts app (``conflicts_fight``…:
``db_table``), and the constraints the names they were made with, so neither the move out of
conflicts nor onto the kit's bases changed the database (0002: state only).
A fight's seats are its combatants (characters and lines of extras, by ``cid``), not users at a
table: ``FightSeat`` keeps its own shape rather than ``TableSeat``'s (user, pid, position).
Every move locks the ``Fight`` row, checks ``version`` and bumps it (``tables.moves``).
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.urls import reverse

from dustdevils.idempotency import MoveKeyBase
from fights.engine.action_deck import Phase
from tables.models import TableRow, TimelineLine


class Fight(TableRow):
    """One fight, from the first Quickness roll to its end. ``state`` is
    ``fights.engine.serial.state_to_data`` of the engine's ``FightState``; the kit's fields
    (campaign, state, version, phase, created_by/at, last_move_at) are ``TableRow``'s."""

    # The phases in which the fight has ended: THE definition of "over" (the "In play now"
    # banner, ``is_over``), like ``Conflict.OVER``.
    OVER = (Phase.OVER.value,)

    session = models.ForeignKey(
        "campaigns.GameSession",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="fights",
    )
    title = models.CharField(max_length=160)
    # "This turns into a gunfight": the conflict the fight broke out of (issue 17). The other
    # direction is ``Conflict.fight``: a conflict that settles an action of a fight (R32).
    from_conflict = models.ForeignKey(
        "conflicts.Conflict",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="fights",
    )
    round = models.PositiveIntegerField(default=1)

    class Meta(TableRow.Meta):
        db_table = "conflicts_fight"

    def __str__(self) -> str:
        return self.title

    def get_absolute_url(self) -> str:
        return reverse("fights:detail", kwargs={"slug": self.campaign.slug, "fight_id": self.pk})


class FightSeat(models.Model):
    """A combatant (the engine's ``cid``): a character (PC or NPC) or a line of extras."""

    class Kind(models.TextChoices):
        PC = "pc", "Player character"
        NPC = "npc", "Non-player character"
        EXTRAS = "extras", "Extras"

    fight = models.ForeignKey(Fight, on_delete=models.CASCADE, related_name="seats")
    cid = models.CharField(max_length=20)
    kind = models.CharField(max_length=6, choices=Kind.choices)
    character = models.ForeignKey(
        "characters.Character", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    name = models.CharField(max_length=120)  # "3 Pinkertons" for extras; a character's name
    size = models.PositiveSmallIntegerField(default=1)

    class Meta:
        db_table = "conflicts_fightseat"
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["fight", "cid"], name="fight_seat_cid_once"),
            models.CheckConstraint(
                condition=Q(kind="extras", character__isnull=True)
                | (~Q(kind="extras") & Q(character__isnull=False)),
                name="fight_seat_character_or_extras",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} in {self.fight}"


class FightEvent(TimelineLine):
    """The fight's timeline (``TimelineLine``: seq, version, actor, text), each line with its
    round. A public line (``secret`` False) is for everyone at the table; a secret line (R30: a
    hand's cards, a sleeved card, a red joker's Fate chip) is for the Dealer and the players of
    the player characters named in ``cids``."""

    fight = models.ForeignKey(Fight, on_delete=models.CASCADE, related_name="events")
    round = models.PositiveIntegerField()
    secret = models.BooleanField(default=False)
    cids = models.JSONField(
        default=list, blank=True
    )  # a secret line's readers (besides the Dealer)

    class Meta(TimelineLine.Meta):
        db_table = "conflicts_fightevent"
        constraints = [
            models.UniqueConstraint(fields=["fight", "seq"], name="fight_event_seq_once"),
        ]


class FightMoveKey(MoveKeyBase):
    """An idempotency key: a repeated submit (a double click) is recognised and changes nothing."""

    fight = models.ForeignKey(Fight, on_delete=models.CASCADE, related_name="+")

    class Meta:
        db_table = "conflicts_fightmovekey"
        constraints = [
            models.UniqueConstraint(fields=["fight", "key"], name="fight_move_key_once"),
            models.CheckConstraint(condition=~Q(key=""), name="fight_move_key_not_empty"),
        ]
