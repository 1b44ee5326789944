"""The campaign file carries the fights (since version 3, issue 37: ``games.fights``, sealed:
tests/exchange/test_games.py) and the Quickness dice (R27, R30): never a secret line; a fight is
imported back with its public timeline, and so are the dice; a bad dice spec in a file is
refused with its place."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from characters.models import Character
from exchange.api import (
    ImportRefused,
    campaign_export,
    campaign_file_dump,
    campaign_file_parse,
    campaign_import,
)
from fights.models import Fight
from tests.fights.conftest import FightTable, rig

pytestmark = pytest.mark.django_db


def test_a_campaign_without_fights_writes_no_fight(campaign: Any, pc_a: Any) -> None:
    data = campaign_export(campaign)
    assert "fights" not in data  # version 2's record: a version 3 file has games.fights
    assert data["games"]["fights"] == []
    assert "quickness_dice" not in data["characters"][0]


def test_r30_a_fight_in_the_file_has_public_lines_only_and_is_imported_back(
    table: FightTable, dealer: User, cids: dict[str, str], pc_a: Any
) -> None:
    for who, total in (("abe", 13), ("bess", 7), ("crane", 8), ("gang", 5)):
        table.ok(dealer, "quickness", cid=cids[who], total=total)
    rig(table.fight, "RJ 9♣ 3♦ K♥ 4♣ Q♠ 7♦ J♦ 2♥")
    table.ok(dealer, "deal")
    table.ok(dealer, "end-fight")
    Character.objects.filter(pk=pc_a.pk).update(quickness_dice="3d8")
    campaign = table.fight.campaign
    data = campaign_export(campaign)
    [record] = data["games"]["fights"]
    texts = [line["text"] for line in record["timeline"]]
    assert record["phase"] == "over"
    assert "Round 1 dealt: Abe Slade 3, Bess Doyle 2, Mayor Crane 2, 3 Pinkertons 2." in texts
    assert not any("Dealt to" in t or "red joker" in t for t in texts)  # R30: secrets stay out
    abe = next(c for c in data["characters"] if c["name"] == "Abe Slade")
    assert abe["quickness_dice"] == "3d8"

    text = campaign_file_dump(data)
    result = campaign_import(campaign_file_parse(text), dealer=dealer)
    assert result.campaign.pk != campaign.pk
    [fight] = Fight.objects.filter(campaign=result.campaign)
    assert [e.text for e in fight.events.all()] == texts
    imported = Character.objects.get(campaign=result.campaign, name="Abe Slade")
    assert imported.quickness_dice == "3d8"


def test_r27_a_bad_dice_spec_in_a_file_is_refused_with_its_place(
    campaign: Any, pc_a: Any, dealer: User
) -> None:
    data = campaign_export(campaign)
    data["characters"][0]["quickness_dice"] = "3d7"
    with pytest.raises(ImportRefused) as refused:
        campaign_import(data, dealer=dealer)
    assert any(
        p.startswith("characters[0].quickness_dice:") and "no d7" in p
        for p in refused.value.problems
    )


def test_r31_the_record_counts_the_rounds_dealt_not_the_round_opened_after_the_last(
    table: FightTable, dealer: User, cids: dict[str, str]
) -> None:
    for who, total in (("abe", 13), ("bess", 7), ("crane", 8), ("gang", 5)):
        table.ok(dealer, "quickness", cid=cids[who], total=total)
    rig(table.fight, "RJ 9♣ 3♦ K♥ 4♣ Q♠ 7♦ J♦ 2♥")
    table.ok(dealer, "deal")
    table.ok(dealer, "end-round")
    table.ok(dealer, "end-fight")
    [record] = campaign_export(table.fight.campaign)["games"]["fights"]
    assert record["state"]["round"] == 1  # an ended fight's round: the rounds dealt
    assert record["timeline"][-1]["text"] == "The fight ends after 1 round."
    session_page = table.page(dealer, f"/c/{table.fight.campaign.slug}/sessions/1/")
    assert "over after round 1<" in session_page


def test_r31_a_fight_ended_in_the_next_rounds_quickness_says_so(
    table: FightTable, dealer: User, cids: dict[str, str]
) -> None:
    """The game night: ended in round 2's Quickness (a roll was in), the session said "over
    after round 1". It ended in round 2, before its deal; one round was dealt."""
    for who, total in (("abe", 13), ("bess", 7), ("crane", 8), ("gang", 5)):
        table.ok(dealer, "quickness", cid=cids[who], total=total)
    table.ok(dealer, "deal")
    table.ok(dealer, "end-round")
    table.ok(dealer, "quickness", cid=cids["abe"], total=9)
    table.ok(dealer, "end-fight")
    [record] = campaign_export(table.fight.campaign)["games"]["fights"]
    assert record["state"]["round"] == 1  # an ended fight's round: the rounds dealt
    end = record["timeline"][-1]
    assert end["text"] == "The fight ends in round 2's Quickness, before its deal (1 round dealt)."
    assert end["round"] == 2
    session_page = table.page(dealer, f"/c/{table.fight.campaign.slug}/sessions/1/")
    assert "over in round 2, before its deal<" in session_page
    assert "over after round 1<" not in session_page


def test_r31_a_fight_ended_mid_countdown_counts_the_round_under_way(
    table: FightTable, dealer: User, cids: dict[str, str]
) -> None:
    for who, total in (("abe", 13), ("bess", 7), ("crane", 8), ("gang", 5)):
        table.ok(dealer, "quickness", cid=cids[who], total=total)
    table.ok(dealer, "deal")
    table.ok(dealer, "end-fight")
    [record] = campaign_export(table.fight.campaign)["games"]["fights"]
    assert record["state"]["round"] == 1  # an ended fight's round: the rounds dealt
