"""THE HANGED MAN starter: the seed's numbers, words, links and notes (R15, R28, R29)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from campaigns.models import Campaign, Membership, Note, WantedLink
from campaigns.services import CampaignError, campaign_create, note_save
from campaigns.starters import starter_named
from characters.models import Character, ChipEntry, Knack
from characters.rules import check_sheet
from exchange.api import campaign_import
from exchange.starters import HANGED_MAN, load_hanged_man, starter_file

SEED = Path("/work/shared/seeds/002_cbff6e1e13229b59.txt")

# Copied from the seed by hand, independently of exchange/starters.py.
PCS: dict[str, dict[str, Any]] = {
    '"Gentleman" Jim Harris': {
        "vocation": "Wanted Gunfighter",
        "attributes": (4, 4, 3, 2),
        "traits": ["Richer than Croesus", "Cool as a cucumber"],
        "knacks": {"Shootin'": 4, "Drinkin'": 1, "Bargainin'": 2, "Philanderin'": 2,
                   "Gamblin'": 2},
        "devil": 3,
        "devil_starts": "“Gentleman” Jim is a wanted man.",
        "chips": 3,
    },
    "Zeke Munroe": {
        "vocation": "Guilt-ridden Bounty Hunter",
        "attributes": (5, 3, 3, 2),
        "traits": ["Strong as an ox", "Meaner than a new sheared sheep"],
        "knacks": {"Shootin'": 2, "Wrestlin'": 2, "Trackin'": 3, "Ridin'": 1, "Drinkin'": 3},
        "devil": 2,
        "devil_starts": "Zeke is a mean drunk.",
        "chips": 3,
    },
    '"Black" Jack Kerrigan': {
        "vocation": "Crooked Gambler",
        "attributes": (3, 4, 2, 4),
        "traits": ["Sly as a fox", "Sharp as a rattler's tooth"],
        "knacks": {"Gamblin'": 4, "Lyin'": 3, "Shootin'": 2, "Snoopin'": 2},
        "devil": 2,
        "devil_starts": "Black Jack is a damn cheat.",
        "chips": 4,
    },
    '"Lucky" Luke Johnson': {
        "vocation": "Lonesome Cowpoke",
        "attributes": (3, 3, 4, 3),
        "traits": ["Reckless as a blind bear", "Friendlier than a pet coon"],
        "knacks": {"Shootin'": 2, "Ridin'": 3, "Drinkin'": 3, "Ropin'": 2, "Lock Pickin'": 1},
        "devil": 2,
        "devil_starts": "In a word, Luke Johnson's Devil is isolation.",
        "chips": 6,
    },
}  # fmt: skip

IMPORTANT_NPCS: dict[str, dict[str, Any]] = {
    "Clara Hardin": {
        "attributes": (2, 3, 2, 4),
        "traits": ["Pretty as a little red wagon", "Quiet as a mouse"],
        "knacks": {"Teachin'": 2, "Seducin'": 3, "Mendin'": 2},
        "devil": 3,
        "devil_starts": "Clara’s Devil is original sin.",
    },
    "Merrill Randolph": {
        "attributes": (3, 3, 2, 4),
        "traits": ["Proud as a peacock", "Crooked as a snake"],
        "knacks": {"Politickin'": 3, "Sweet Talkin'": 2, "Drinkin'": 1, "Gamblin'": 2},
        "devil": 3,
        "devil_starts": "Merrill’s Devil is the incessant need to control others.",
    },
    '"Long" Tom Meredith': {
        "attributes": (3, 2, 4, 2),
        "traits": ["Tough as nails", "Cruel as spite"],
        "knacks": {"Interrogatin'": 2, "Shootin'": 3, "Fightin'": 3, "Ridin'": 2,
                   "Trackin'": 1},
        "devil": 2,
        "devil_starts": "Long Tom is a bully.",
    },
}  # fmt: skip

MINOR_NPCS = ["Last Oak deputy", '"Doc" Samuelson', "Delmer Barnes", '"Red" Sally']


@pytest.fixture
def last_oak(dealer: User, player_a: User, player_b: User) -> Campaign:
    """The Hanged Man with player_a running Jim, player_b Zeke, the Dealer holding the rest."""
    campaign = campaign_create(dealer=dealer, name="The Hanged Man")
    for player in (player_a, player_b):
        Membership.objects.create(campaign=campaign, user=player, role=Membership.Role.PLAYER)
    load_hanged_man(campaign=campaign, players=[player_a, player_b])
    return campaign


def _sheet(campaign: Campaign, name: str) -> Character:
    return Character.objects.get(campaign=campaign, name=name)


def _attributes(character: Character) -> tuple[int, ...]:
    return (character.hand, character.eye, character.guts, character.heart)


def _currents(character: Character) -> tuple[int, ...]:
    return tuple(character.current(a) for a in ("hand", "eye", "guts", "heart"))


def _knacks(character: Character) -> dict[str, int]:
    return dict(character.knacks.values_list("name", "rating"))


@pytest.mark.parametrize("name", list(PCS))
def test_it_gives_every_player_character_the_seeds_sheet(last_oak: Campaign, name: str) -> None:
    want = PCS[name]
    pc = _sheet(last_oak, name)
    assert pc.kind == Character.Kind.PC
    assert pc.vocation == want["vocation"]
    assert _attributes(pc) == want["attributes"]
    assert _currents(pc) == want["attributes"]  # R29: no Difficulty taken yet
    assert pc.traits == want["traits"]
    assert _knacks(pc) == want["knacks"]
    assert pc.devil_rating == want["devil"]
    assert pc.devil.startswith(want["devil_starts"])
    assert pc.back_story
    assert not pc.out_of_play


@pytest.mark.parametrize("name", list(PCS))
def test_it_grants_the_starting_chips_as_one_ledger_row(last_oak: Campaign, name: str) -> None:
    pc = _sheet(last_oak, name)
    rows = list(pc.chip_entries.values_list("amount", "balance_after", "reason"))
    assert pc.chips == PCS[name]["chips"]
    assert rows == [(PCS[name]["chips"], PCS[name]["chips"], ChipEntry.Reason.STARTING)]


@pytest.mark.parametrize("name", list(PCS))
def test_it_loads_player_characters_that_follow_r28(last_oak: Campaign, name: str) -> None:
    pc = _sheet(last_oak, name)
    summary = check_sheet(
        is_pc=True,
        ratings={a: pc.rating(a) for a in ("hand", "eye", "guts", "heart")},
        traits=pc.traits,
        knacks=_knacks(pc),
        devil=pc.devil,
        devil_rating=pc.devil_rating,
    )
    assert summary.problems == ()
    assert summary.attribute_points == 13
    assert summary.knack_points == 11


@pytest.mark.parametrize("name", list(IMPORTANT_NPCS))
def test_it_gives_the_important_npcs_the_seeds_numbers(last_oak: Campaign, name: str) -> None:
    want = IMPORTANT_NPCS[name]
    npc = _sheet(last_oak, name)
    assert npc.kind == Character.Kind.NPC
    assert npc.player is None
    assert npc.is_important  # R12: a Devil, its own hand
    assert _attributes(npc) == want["attributes"]
    assert _currents(npc) == want["attributes"]
    assert npc.traits == want["traits"]
    assert _knacks(npc) == want["knacks"]
    assert npc.devil_rating == want["devil"]
    assert npc.devil.startswith(want["devil_starts"])
    assert npc.description


def test_it_adds_the_other_npcs_as_plain_ones(last_oak: Campaign) -> None:
    for name in MINOR_NPCS:
        npc = _sheet(last_oak, name)
        assert npc.kind == Character.Kind.NPC
        assert not npc.is_important
        assert npc.devil_rating is None
        assert npc.description
        assert all(0 <= value <= 5 for value in _attributes(npc))
    assert last_oak.characters.count() == 4 + 3 + 4


def test_it_sets_the_setting_and_pitch(last_oak: Campaign) -> None:
    assert last_oak.setting == "Last Oak, Kansas"
    assert "Gentleman" in last_oak.pitch


def test_it_keeps_a_setting_the_dealer_already_wrote(dealer: User) -> None:
    campaign = campaign_create(dealer=dealer, name="Mine", setting="Dodge City", pitch="Mine.")
    load_hanged_man(campaign=campaign)
    campaign.refresh_from_db()
    assert (campaign.setting, campaign.pitch) == ("Dodge City", "Mine.")


def test_it_links_the_npcs_to_the_player_characters_devils(last_oak: Campaign) -> None:
    pairs = {
        (link.npc.name, link.pc.name)
        for link in WantedLink.objects.filter(campaign=last_oak).select_related("npc", "pc")
    }
    assert pairs == {
        ("Clara Hardin", '"Gentleman" Jim Harris'),
        ("Merrill Randolph", '"Gentleman" Jim Harris'),
        ('"Long" Tom Meredith', '"Gentleman" Jim Harris'),
        ('"Long" Tom Meredith', "Zeke Munroe"),
        ('"Long" Tom Meredith', '"Lucky" Luke Johnson'),
        ('"Long" Tom Meredith', '"Black" Jack Kerrigan'),
    }
    assert all(link.devil_touched and link.notes for link in last_oak.links.all())


def test_it_writes_the_situation_and_the_open_questions_as_notes(last_oak: Campaign) -> None:
    notes = {note.title: note.body for note in Note.objects.filter(campaign=last_oak)}
    assert notes["The situation in Last Oak"].endswith(
        "And “Gentleman” Jim Harris just rode into town."
    )
    assert "Sheriff Tom Meredith to organize a posse" in notes["The situation in Last Oak"]
    assert notes["Unresolved: the identity of the hanged man"].startswith(
        "The identity of the hanged man."
    )
    assert notes["Unresolved: Clara Hardin's husband's death"]
    assert notes["Unresolved: Long Tom's role in the lynching"]
    assert "If play starts to stall" in notes["Running the scenario"]


def test_it_writes_one_hook_per_player_character(last_oak: Campaign) -> None:
    titles = list(Note.objects.filter(campaign=last_oak).values_list("title", flat=True))
    hooks = [title.removeprefix("Hook: ") for title in titles if title.startswith("Hook: ")]
    assert sorted(hooks) == sorted(PCS)
    assert titles[0] == "The situation in Last Oak"  # notes keep the seed's order


def test_it_seats_the_players_in_order_and_gives_the_rest_to_the_dealer(
    last_oak: Campaign, dealer: User, player_a: User, player_b: User
) -> None:
    owners = {pc.name: pc.player for pc in last_oak.characters.filter(kind="pc")}
    assert owners == {
        '"Gentleman" Jim Harris': player_a,
        "Zeke Munroe": player_b,
        '"Black" Jack Kerrigan': dealer,
        '"Lucky" Luke Johnson': dealer,
    }


def test_it_refuses_a_player_who_is_not_seated(dealer: User, outsider: User) -> None:
    campaign = campaign_create(dealer=dealer, name="Empty")
    with pytest.raises(CampaignError, match="Not seated at Empty: outsider"):
        load_hanged_man(campaign=campaign, players=[outsider])
    assert campaign.characters.count() == 0
    assert campaign.notes.count() == 0


def test_it_refuses_to_load_twice_and_writes_nothing_more(last_oak: Campaign) -> None:
    counts = (Character.objects.count(), Knack.objects.count(), ChipEntry.objects.count(),
              Note.objects.count(), WantedLink.objects.count())  # fmt: skip
    with pytest.raises(CampaignError, match="loaded before"):
        load_hanged_man(campaign=last_oak)
    assert counts == (Character.objects.count(), Knack.objects.count(),
                      ChipEntry.objects.count(), Note.objects.count(),
                      WantedLink.objects.count())  # fmt: skip


def test_it_lists_the_starter_by_name() -> None:
    assert starter_named("hanged-man").title == "The Hanged Man"


@pytest.mark.skipif(not SEED.exists(), reason=f"the seed text is not at {SEED}")
def test_it_uses_the_seeds_own_words() -> None:
    # The seed's text has page breaks inside two paragraphs and escapes one dollar sign.
    seed = " ".join(SEED.read_text().replace("\\$", "$").split())
    starter = starter_file(HANGED_MAN)
    pcs = [sheet for sheet in starter["characters"] if sheet["kind"] == "pc"]
    npcs = [sheet for sheet in starter["characters"] if sheet["kind"] == "npc"]
    for sheet in (*pcs, *npcs[:3]):
        devil = sheet["devil"]
        for text in (devil["description"], sheet["back_story"], sheet["description"]):
            for paragraph in filter(None, text.split("\n\n")):
                assert paragraph in seed, sheet["name"]
        assert f"Devil ({devil['rating']}): {devil['description']}" in seed
        for trait in sheet["traits"]:
            assert re.search(rf"☞ {re.escape(trait)}\.? ", seed), trait
        for knack, rating in sheet["knacks"].items():
            pattern = re.escape(knack).replace("'", "['’]")
            assert re.search(rf"{pattern} {rating}\b", seed), (sheet["name"], knack)
    for note in starter["notes"]:
        for paragraph in note["body"].split("\n\n"):
            assert paragraph in seed


def test_it_is_a_campaign_file_the_importer_also_reads_as_a_new_campaign(dealer: User) -> None:
    result = campaign_import(starter_file(HANGED_MAN), dealer=dealer)
    campaign = result.campaign
    assert (campaign.name, campaign.setting) == ("The Hanged Man", "Last Oak, Kansas")
    assert campaign.characters.count() == 4 + 3 + 4
    assert set(campaign.characters.filter(kind="pc").values_list("player", flat=True)) == {
        dealer.pk
    }
    assert campaign.notes.count() == 9
    assert campaign.links.count() == 6


def test_its_starting_chips_are_the_dealers_grant_of_the_moment_it_is_loaded(
    dealer: User,
) -> None:
    campaign = campaign_create(dealer=dealer, name="Last Oak")
    before = timezone.now()
    load_hanged_man(campaign=campaign)
    rows = ChipEntry.objects.filter(character__campaign=campaign)
    assert rows.count() == 4
    assert all(row.actor == dealer and row.created_at >= before for row in rows)
    assert all(row.note == "Starting chips" and row.session is None for row in rows)


def test_its_notes_come_after_the_campaigns_own(dealer: User) -> None:
    campaign = campaign_create(dealer=dealer, name="Mine")
    note_save(campaign=campaign, title="My own", body="Before the starter.")
    load_hanged_man(campaign=campaign)
    titles = list(campaign.notes.order_by("position").values_list("title", flat=True))
    assert titles[:2] == ["My own", "The situation in Last Oak"]
    assert len(titles) == len(set(campaign.notes.values_list("position", flat=True))) == 10
