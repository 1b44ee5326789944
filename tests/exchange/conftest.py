"""A campaign that has been played a while, to export and import: The Hanged Man after one
session (Devil ratings, chips spent and won, Difficulty taken, a character gone to his end),
plus two characters whose names test the keys."""

from __future__ import annotations

import copy
import datetime as dt
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import User

from campaigns.models import Campaign, DevilRating, GameSession, Membership
from campaigns.services import campaign_create, note_save, session_plan
from characters.models import Character, ChipEntry
from characters.services import (
    attribute_improve,
    character_create,
    character_leave_play,
    chips_change,
    chips_grant,
)
from exchange.starters import load_hanged_man


def model_counts() -> dict[str, int]:
    """Rows of every model of the campaigns and characters apps, and users."""
    models = [
        *apps.get_app_config("campaigns").get_models(),
        *apps.get_app_config("characters").get_models(),
        User,
    ]
    return {model._meta.label: model.objects.count() for model in models}


def at(data: dict[str, Any], key: str) -> int:
    """The index of the character with ``key`` in an exported file."""
    return next(i for i, c in enumerate(data["characters"]) if c["key"] == key)


def clone(data: dict[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(data)


@pytest.fixture
def played(dealer: User, player_a: User, player_b: User) -> Campaign:
    campaign = campaign_create(dealer=dealer, name="The Hanged Man")
    for player in (player_a, player_b):
        Membership.objects.create(campaign=campaign, user=player, role=Membership.Role.PLAYER)
    load_hanged_man(campaign=campaign, players=[player_a, player_b])
    campaign.winner_bonus = True
    campaign.save(update_fields=["winner_bonus"])

    first = session_plan(campaign=campaign, date=dt.date(2026, 11, 20), notes="Jim rides in.")
    GameSession.objects.filter(pk=first.pk).update(
        status=GameSession.Status.ENDED,
        started_at=dt.datetime(2026, 11, 20, 19, 0, tzinfo=dt.UTC),
        ended_at=dt.datetime(2026, 11, 20, 23, 30, 15, 123456, tzinfo=dt.UTC),
    )
    session_plan(campaign=campaign)  # the next one, planned, no date yet

    pcs = {c.name: c for c in campaign.characters.filter(kind="pc")}
    jim, zeke = pcs['"Gentleman" Jim Harris'], pcs["Zeke Munroe"]
    luke = pcs['"Lucky" Luke Johnson']
    DevilRating.objects.create(session=first, character=jim, rating=3, set_by=player_a)
    DevilRating.objects.create(session=first, character=zeke, rating=1, set_by=player_b)

    chips_change(
        character_id=jim.pk, amount=-1, reason=ChipEntry.Reason.EXTRA_CARD, actor=player_a,
        note="Against Long Tom", session=first,
    )  # fmt: skip
    chips_grant(character_id=jim.pk, amount=5, actor=dealer, reason=ChipEntry.Reason.STAKES,
                session=first)  # fmt: skip
    attribute_improve(character_id=jim.pk, attribute="heart", actor=player_a)  # 2 → 3, 6 chips
    Character.objects.filter(pk=zeke.pk).update(hand_current=3)  # Difficulty taken (R29)
    Character.objects.filter(pk=luke.pk).update(heart_current=0)  # on the Road to Hell (R17)
    character_leave_play(
        character_id=luke.pk, fate="dies", epitaph="Alone, like he wanted.", actor=dealer
    )

    character_create(
        campaign=campaign, kind="npc", player=None,
        data={"name": "Last Oak deputy", "vocation": "Deputy sheriff", "hand": 2, "eye": 2,
              "guts": 3, "heart": 1},
        knacks={"Ridin'": 2}, currents={"guts": 1},
    )  # fmt: skip
    character_create(
        campaign=campaign, kind="npc", player=None,
        data={"name": "Señora Álvarez", "hand": 1, "eye": 3, "guts": 2, "heart": 0,
              "devil": "Wants her son back.", "devil_rating": 1, "trait_1": "Sad as rain"},
        knacks={},
    )  # fmt: skip
    note_save(campaign=campaign, title="After session 1", body="Luke died.\nZeke is hurt.")
    return campaign
