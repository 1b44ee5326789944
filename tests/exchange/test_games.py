"""Issue 37 #1: every game in the campaign file — fights, Death Enters the Saloon, Saloon
Showdown and The Gunfighter — with their seats and timelines, in every phase, finished or
running; a running game sealed (no value a viewer may not see is written: R30 for a fight, the
saloon's hands, SS15's counts) and, brought back, dealt or hidden again by the server, said on
its timeline; the file's format at version 3, version-2 files still read; a restore says game
by game what it did."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from campaigns.models import Campaign
from cards.deck import FULL_DECK
from exchange.api import (
    ImportRefused,
    campaign_export,
    campaign_file_dump,
    campaign_file_parse,
    campaign_import,
    campaign_restore,
)
from exchange.structure import schema
from fights.engine.seal import unsealed as fight_unsealed
from fights.models import Fight
from gunfighter.models import Gunfight
from saloon.engine.game import public_cards
from saloon.engine.seal import unsealed as saloon_unsealed
from saloon.engine.serial import state_from_data as saloon_state
from saloon.models import Saloon
from showdown.models import Showdown
from tables.codecs import codecs
from tests.exchange.games_kit import PHASES, game_row, with_state

pytestmark = pytest.mark.django_db

MODELS: dict[str, Any] = {
    "fights": Fight, "gunfights": Gunfight, "saloons": Saloon, "showdowns": Showdown,
}  # fmt: skip
CASES = [(kind, phase) for kind, phases in PHASES.items() for phase in phases]
CARDS = {card.text for card in FULL_DECK}


def codec(kind: str) -> Any:
    return next(c for c in codecs() if c.kind == kind)


@pytest.fixture
def game(
    request: pytest.FixtureRequest, campaign: Campaign, dealer: User, player_a: User,
    player_b: User, pc_a: Any, pc_b: Any, npc: Any,
) -> Any:  # fmt: skip
    kind, phase = request.param
    return game_row(kind, phase, campaign, [dealer, player_a, player_b],
                    characters=[pc_a, pc_b, npc])  # fmt: skip


def lines_of(row: Any) -> list[tuple[Any, ...]]:
    lines = row.events.filter(secret=False) if isinstance(row, Fight) else row.lines.all()
    return [
        (line.seq, line.version, line.text, line.actor.get_username() if line.actor else None,
         line.created_at)
        for line in lines.order_by("seq")
    ]  # fmt: skip


def seats_of(row: Any) -> list[tuple[Any, ...]]:
    if isinstance(row, Fight):
        return [(s.kind, s.character.name if s.character else None, s.name, s.size)
                for s in row.seats.order_by("pk")]  # fmt: skip
    return [(s.user.get_username(), s.pid, s.position) for s in row.seats.all()]


def public(kind: str, row: Any) -> Any:
    """What everyone at the table may know of a game's state: its sealed state (the file's),
    with a fight's combatants named by name rather than by id (an id is a database key)."""
    data = codec(kind).seal(row.state)
    if kind == "fights":
        names = {c["cid"]: c["name"] for c in data["combatants"]}
        text = repr(data)
        for cid, name in sorted(names.items(), key=lambda item: -len(item[0])):
            text = text.replace(repr(cid), repr(name))
        return text
    if kind == "showdowns":  # who had entered a count enters it again (SS15)
        for held in ("bluff", "event"):
            if data[held] is not None:
                data[held].pop("counted")
    if kind == "saloons" and data["phase"] == "discard":  # dealt out again: the pairs too
        players = [{**p, "hand": len(p["hand"]), "discarded": None} for p in data["players"]]
        data = {**data, "players": players, "discards": None, "deal": None}
    return data


@pytest.mark.parametrize("game", CASES, indirect=True, ids=[f"{k}-{p}" for k, p in CASES])
def test_every_game_in_every_phase_comes_back_with_its_seats_lines_and_public_state(
    game: Any, campaign: Campaign, dealer: User, player_a: User, client: Client
) -> None:
    kind = next(k for k, model in MODELS.items() if isinstance(game, model))
    data = campaign_export(campaign)
    assert (data["version"], list(data["games"])) == (3, sorted(MODELS))
    [written] = data["games"][kind]
    assert written["state"] == codec(kind).seal(game.state)  # sealed, whatever the phase
    text = campaign_file_dump(data)
    result = campaign_import(campaign_file_parse(text), dealer=dealer, seat_members=True)

    new = MODELS[kind].objects.get(campaign=result.campaign)
    assert (new.title, new.phase) == (game.title, game.phase)
    assert seats_of(new) == seats_of(game)
    assert public(kind, new) == public(kind, game)
    old_lines, new_lines = lines_of(game), lines_of(new)
    assert new_lines[: len(old_lines)] == old_lines
    [said] = result.games
    assert said.startswith(f"{codec(kind).noun} “{game.title}”: ")
    redealt = new_lines[len(old_lines) :]
    if redealt:  # a running game whose hidden values were dealt or hidden again: said so
        assert not game.is_over
        [(_seq, version, line, actor, _)] = redealt
        assert (version, actor) == (game.version + 1, "dealer") == (new.version, "dealer")
        assert line.startswith("Restored from a campaign file")
        assert line in said
        if kind in ("saloons", "showdowns"):  # a line of what happened, nobody's (Game.note)
            restored = new.lines.order_by("seq").last()
            assert (restored.kind, restored.pid) == ("rule", "")
    else:
        assert new.version == game.version
    for user in (dealer, player_a):  # every page shows, for the Dealer and for a player
        client.force_login(user)
        assert client.get(new.get_absolute_url()).status_code == 200


RUNNING_HIDDEN = [
    ("fights", "countdown"), ("fights", "sleeve"), ("fights", "quickness"), ("fights", "over"),
    ("saloons", "play"), ("saloons", "duel"), ("saloons", "over"),
    ("showdowns", "bluff"), ("showdowns", "event"),
]  # fmt: skip


def variant(kind: str, state: dict[str, Any]) -> dict[str, Any]:
    """The same game with its hidden values otherwise: other hands, another deck order, other
    counts (the public facts the same)."""
    if kind == "fights":
        return fight_unsealed(codec(kind).seal(state), random.Random(99))[0]
    if kind == "saloons":
        return saloon_unsealed(codec(kind).seal(state), random.Random(99))[0]
    other = copy.deepcopy(state)
    held = other["bluff"] or other["event"]
    held["counts"] = [[pid, 9 - n] for pid, n in held["counts"]]
    return other


def without_times(game: dict[str, Any]) -> dict[str, Any]:
    return {**game, "created_at": None, "timeline": [{**line, "at": None}
                                                     for line in game["timeline"]]}  # fmt: skip


@pytest.mark.parametrize(
    "game", RUNNING_HIDDEN, indirect=True, ids=[f"{k}-{p}" for k, p in RUNNING_HIDDEN]
)
def test_two_games_that_differ_only_in_hidden_values_write_the_same_file(
    game: Any, campaign: Campaign
) -> None:
    """R30, the saloon's hands, SS15: a file carries no value some viewer may not see. Two
    games alike but for their hands, sleeves, deck order or counts are written alike, and
    every card a game's state names is one every viewer sees."""
    kind = next(k for k, model in MODELS.items() if isinstance(game, model))
    other = variant(kind, game.state)
    assert other != game.state
    with_state(game, other)
    first, second = campaign_export(campaign)["games"][kind]
    assert without_times(first) == without_times(second)
    named = {v for v in repr(first["state"]).split("'") if v in CARDS}
    if kind == "fights":
        seen = {*game.state["deck"]["discards"], *(p["card"] for p in game.state["table"])}
        # A revealed Fate draw's joker was public when it came up (R25), wherever it is now.
        seen |= {d["cause"] for d in game.state["fate_draws"] if d["revealed"]}
        assert named <= seen
    if kind == "saloons":
        assert named <= {c.text for c in public_cards(saloon_state(game.state))}


@pytest.mark.parametrize("game", [("fights", "countdown"), ("saloons", "play")], indirect=True,
                         ids=["fight", "saloon"])  # fmt: skip
def test_a_file_that_names_the_hidden_cards_cannot_choose_them(
    game: Any, campaign: Campaign, dealer: User
) -> None:
    """A forged file (or an older one) giving every hand and the deck's order: they are dealt
    again from a fresh shuffle, whatever it says."""
    kind = next(k for k, model in MODELS.items() if isinstance(game, model))
    data = campaign_export(campaign)
    data["games"][kind][0]["state"] = copy.deepcopy(game.state)  # the cards, all of them
    result = campaign_import(data, dealer=dealer)
    new = MODELS[kind].objects.get(campaign=result.campaign)
    if kind == "fights":
        assert new.state["deck"]["stock"] != game.state["deck"]["stock"]
    else:
        assert [p["hand"] for p in new.state["players"]] != [
            p["hand"] for p in game.state["players"]
        ]


@pytest.mark.parametrize("game", [("fights", "countdown")], indirect=True, ids=["fight"])
def test_a_restore_puts_every_game_back_and_says_what_it_did(
    game: Any, campaign: Campaign, dealer: User
) -> None:
    data = campaign_export(campaign)
    Fight.objects.filter(pk=game.pk).update(title="Changed since")
    result = campaign_restore(data, campaign=campaign, dealer=dealer)
    [fight] = Fight.objects.filter(campaign=campaign)
    assert fight.title == "Shootout"
    assert fight.pk != game.pk
    [said] = result.games
    assert said.startswith("Fight “Shootout”: Restored from a campaign file in the middle of")
    # R30: each hand dealt again is told to its player alone (and the Dealer).
    secret = list(fight.events.filter(secret=True, version=fight.version))
    assert {tuple(line.cids) for line in secret} == {
        (c["cid"],) for c in fight.state["combatants"] if c["hand"] or c["sleeve"]
    }


@pytest.mark.parametrize("game", [("showdowns", "bluff")], indirect=True, ids=["showdown"])
def test_a_version_2_file_still_imports_and_brings_no_game(
    game: Any, campaign: Campaign, dealer: User
) -> None:
    data = campaign_export(campaign)
    data["version"] = 2
    del data["games"]
    data["fights"] = [{"title": "Old", "session": None, "rounds": 1, "over": True,
                       "timeline": [{"round": 1, "text": "Round 1 dealt."}]}]  # fmt: skip
    result = campaign_import(campaign_file_parse(campaign_file_dump(data)), dealer=dealer)
    assert result.games == ()
    assert not Showdown.objects.filter(campaign=result.campaign).exists()
    assert result.campaign.characters.count() == campaign.characters.count()


@pytest.mark.parametrize(
    ("kind", "phase", "change", "says"),
    [
        ("fights", "countdown", lambda g: g["state"].update(deck=[]),
         "games.fights[0].state: is not a fight's state the engine can load"),
        ("saloons", "play", lambda g: g["state"]["players"][0].update(hand=["??"] * 60),
         "games.saloons[0].state: is not a Death Enters the Saloon's state"),
        ("showdowns", "bluff", lambda g: g["state"]["players"][0].update(loot="lots"),
         "games.showdowns[0].state: is not a Saloon Showdown's state"),
        ("gunfights", "prepare", lambda g: g["seats"][0].update(user="stranger"),
         'games.gunfights[0].seats[0].user: "stranger" is not one of the members'),
        ("fights", "over", lambda g: g["seats"][0].update(character="nobody"),
         "games.fights[0].seats[0].character: must be the key of a pc in characters"),
        ("fights", "countdown", lambda g: g["seats"][1].update(character="abe-slade"),
         'games.fights[0].seats[1].character: "abe-slade" has two seats in this fight'),
        ("saloons", "play", lambda g: g["state"].update(deal=10**12),
         "games.saloons[0].state: is not a Death Enters the Saloon's state"),
        ("fights", "countdown", lambda g: g.update(version=2**31 - 1),
         "games.fights[0].version: must be 0–2147483646, got 2147483647"),
        ("saloons", "over", lambda g: g["timeline"][0].update(kind="gossip"),
         'games.saloons[0].timeline[0].kind: must be one of "answer", "cue"'),
        ("showdowns", "play", lambda g: g.update(phase="over"),
         'games.showdowns[0].phase: is "over", but the state\'s is "play"'),
    ],
    ids=["fight-state", "saloon-cards", "showdown-type", "seat", "fight-seat", "fight-twice",
         "saloon-deal", "version", "line", "phase"],
)  # fmt: skip
def test_a_wrong_game_is_refused_in_words_and_nothing_is_written(
    kind: str, phase: str, change: Any, says: str, campaign: Campaign, dealer: User,
    player_a: User, player_b: User, pc_a: Any, pc_b: Any, npc: Any,
) -> None:  # fmt: skip
    game_row(kind, phase, campaign, [dealer, player_a, player_b], characters=[pc_a, pc_b, npc])
    data = campaign_export(campaign)
    change(data["games"][kind][0])
    before = Campaign.objects.count()
    with pytest.raises(ImportRefused) as refused:
        campaign_import(data, dealer=dealer)
    assert any(p.startswith(says) for p in refused.value.problems), refused.value.problems
    assert Campaign.objects.count() == before


def test_the_schema_names_every_kind_of_game_there_is() -> None:
    assert sorted(schema()["properties"]["games"]["properties"]) == sorted(MODELS)
    assert sorted(c.kind for c in codecs()) == sorted(MODELS)


@pytest.mark.parametrize("game", [("saloons", "play")], indirect=True, ids=["saloon"])
def test_a_game_whose_page_cannot_be_shown_is_refused_and_nothing_is_written(
    game: Any, campaign: Campaign, dealer: User
) -> None:
    """As a conflict's (issue 28): a state the engine loads but a page trips on."""
    data = campaign_export(campaign)
    data["games"]["saloons"][0]["state"]["doomed"] = "nobody"
    before = Campaign.objects.count()
    with pytest.raises(ImportRefused) as refused:
        campaign_import(data, dealer=dealer)
    [problem] = refused.value.problems
    assert problem.startswith("games.saloons[0].state: the engine loads it, but its page cannot")
    assert Campaign.objects.count() == before
