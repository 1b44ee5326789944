"""Issue 28 #1, #2, #4: secrets never leave a running table, and no file can stack a deck.

The probe: ``export.json`` of a campaign with a conflict in play held the undealt deck order,
the whole shuffle, the salt and every hand (R10: no screen shows them before the end); and
"export, move the aces and jokers to the top of the stock, recompute the commitment with the
exported salt, restore" was accepted, the end's audit still saying "It matches". Now the file
says how many cards each hidden place holds, never which, and a restore deals them again from
a fresh shuffle under a new commitment, said on the timeline (conflicts.engine.restore). And a
state the screens cannot read is refused at the import, or answers 409 where one is met."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from campaigns.models import Campaign, Membership
from cards.deck import FULL_DECK, commitment
from conflicts.engine import conflict as engine
from conflicts.engine.restore import HIDDEN
from conflicts.engine.serial import state_from_data, state_to_data
from conflicts.models import Conflict, Snapshot
from conflicts.services import pid_of
from exchange.api import ImportRefused, campaign_export, campaign_import, campaign_restore
from saloon.engine.serial import state_from_data as saloon_state
from tests.conflicts.test_views import Table, dealt, posse, quick_odds, table
from tests.exchange.test_conflicts import counts, evening
from tests.test_every_url import make_objects

pytestmark = pytest.mark.django_db
__all__ = ["posse", "quick_odds", "table"]


# Each test its own Dry Gulch (tests/conftest.py): some play it, some fill it with every game.


@pytest.fixture
def at_table(
    table: Table, dealer: User, player_a: User, player_b: User, pc_a: Any, pc_b: Any, npc: Any
) -> Campaign:
    """tests/exchange/test_conflicts.py's evening."""
    return evening(table, dealer, player_a, player_b, pc_a, pc_b, npc)


@pytest.fixture
def objects(
    campaign: Any, dealer: User, player_a: User, player_b: User, pc_a: Any, pc_b: Any, npc: Any
) -> dict[str, Any]:
    """Every object a campaign URL names (tests/test_every_url.py)."""
    return make_objects(campaign, dealer, player_a, player_b, pc_a, pc_b, npc)


CARDS = {card.text for card in FULL_DECK}
IN_PLAY = "Cards at the saloon"  # at_table's conflict in the Draw


def cards_named(data: object) -> set[str]:
    found: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, str) and value in CARDS:
            found.add(value)

    walk(data)
    return found


def in_play(data: dict[str, Any]) -> dict[str, Any]:
    conflict: dict[str, Any] = next(c for c in data["conflicts"] if c["title"] == IN_PLAY)
    return conflict


def test_the_export_of_a_running_conflict_holds_no_hand_no_stock_and_no_salt(
    at_table: Campaign, client: Client, dealer: User
) -> None:
    running = Conflict.objects.get(title=IN_PLAY)
    salt = running.state["salt"]
    assert salt  # the database holds them, of course
    assert running.state["deck"]["stock"]
    client.force_login(dealer)
    text = client.get(f"/c/{at_table.slug}/export.json").content.decode()

    assert salt not in text
    exported = in_play(json.loads(text))
    assert cards_named(exported) == set()  # not one card: no hand, no discard, no stock
    state = exported["state"]
    assert (state["order"], state["salt"], state["commitment"]) == ([], "", "")
    sizes = [len(p["hand"]) for p in running.state["participants"]]
    assert [p["hand"] for p in state["participants"]] == [[HIDDEN] * n for n in sizes]
    assert exported["snapshots"] == []  # the replay would hold every hand
    # A finished conflict is written whole: R10 makes its cards public once it ends.
    finished = json.loads(text)["conflicts"][0]
    assert finished["phase"] == "done"
    assert finished["state"]["salt"]
    assert cards_named(finished["state"]) == CARDS


def _stacked(data: dict[str, Any]) -> dict[str, Any]:
    """The probe's file: the running conflict's full state as an older export held it, the aces
    and jokers moved to the top of the stock, the commitment recomputed with its salt."""
    running = Conflict.objects.get(title=IN_PLAY)
    state = copy.deepcopy(running.state)
    best = ["RJ", "BJ", "A♠", "A♥", "A♦", "A♣"]
    stock = state["deck"]["stock"]
    in_stock = [t for t in best if t in stock]
    state["deck"]["stock"] = in_stock + [t for t in stock if t not in in_stock]
    state["order"] = [
        *(t for p in state["participants"] for t in p["hand"]),
        *state["deck"]["stock"],
    ]
    loaded = state_from_data(state)
    state["commitment"] = commitment(loaded.order, state["salt"])
    forged = copy.deepcopy(data)
    in_play(forged)["state"] = state_to_data(state_from_data(state))
    return forged


def test_a_restore_cannot_stack_the_deck(
    at_table: Campaign, client: Client, dealer: User, player_a: User, pc_a: Any
) -> None:
    forged = _stacked(campaign_export(at_table))
    wanted = in_play(forged)["state"]

    campaign_restore(copy.deepcopy(forged), campaign=at_table, dealer=dealer)

    restored = Conflict.objects.get(campaign=at_table, title=IN_PLAY)
    state = restored.state
    assert state["deck"]["stock"] != wanted["deck"]["stock"]
    assert state["deck"]["stock"][:2] != wanted["deck"]["stock"][:2]
    assert [p["hand"] for p in state["participants"]] != [p["hand"] for p in wanted["participants"]]
    assert [len(p["hand"]) for p in state["participants"]] == [
        len(p["hand"]) for p in wanted["participants"]
    ]  # each hand keeps its size
    assert (state["salt"], state["commitment"]) != (wanted["salt"], wanted["commitment"])
    assert state_from_data(state).commitment == commitment(
        state_from_data(state).order, state["salt"]
    )
    last = restored.events.order_by("seq").last()
    assert last is not None
    assert "dealt again" in last.text
    assert state["commitment"][:16] in last.text  # the new fingerprint, said on the timeline
    assert restored.version == in_play(forged)["version"] + 1
    assert [s.version for s in Snapshot.objects.filter(conflict=restored)] == [restored.version]
    # The conflict plays on from the new deal: her own hand, in the restored table.
    table = Table(client, restored)
    table.ok(player_a, "draw", pid=pid_of(pc_a), stand="1")
    assert table.state().participant(pid_of(pc_a)).drew


def test_the_audit_at_the_end_checks_the_new_shuffle(
    table: Table, client: Client, dealer: User, player_a: User, player_b: User,
    pc_a: Any, pc_b: Any,
) -> None:  # fmt: skip
    dealt(table, dealer, pc_a, pc_b)
    campaign = table.conflict.campaign
    data = campaign_export(campaign)
    old = Conflict.objects.get(pk=table.conflict.pk).state["commitment"]

    campaign_restore(data, campaign=campaign, dealer=dealer)

    restored = Table(client, Conflict.objects.get(campaign=campaign))
    seats = {s.character.player: s.pid for s in restored.conflict.seats.all() if s.character}
    restored.ok(player_a, "draw", pid=seats[player_a], stand="1")
    restored.ok(player_b, "draw", pid=seats[player_b], stand="1")
    restored.ok(dealer, "call")
    restored.ok(dealer, "reveal")
    if not restored.state().bids_closed:
        restored.ok(dealer, "close-bids")
    for o in restored.state().owed:
        p = restored.state().participant(o.pid)
        who = {pid: user for user, pid in seats.items()}.get(o.pid, dealer)
        restored.ok(who, "allocate", pid=o.pid, **engine.default_allocation(o, p.currents))
    restored.ok(dealer, "finish")
    page = restored.page(player_a)
    new = restored.state().commitment
    assert new != old
    assert new in page
    assert "It matches" in page


def test_a_running_fight_and_saloon_game_leave_none_of_their_hidden_cards_in_the_file(
    objects: dict[str, Any], campaign: Campaign
) -> None:
    """Issue 37: every game is in the file now, sealed (tests/exchange/test_games.py): a
    running fight's stock, a saloon game's hands are there as "??" only, and no secret line."""
    from fights.models import Fight
    from saloon.models import Saloon

    fight = Fight.objects.get(pk=objects["fight_id"])
    saloon = Saloon.objects.get(pk=objects["saloon_id"])
    assert fight.state["deck"]["stock"]  # in the database, of course
    assert any(p.hand for p in saloon_state(saloon.state).players)
    data = campaign_export(campaign)
    [fought], [played] = data["games"]["fights"], data["games"]["saloons"]
    assert set(fought["state"]["deck"]["stock"]) == {HIDDEN}
    assert {card for p in played["state"]["players"] for card in p["hand"]} == {HIDDEN}
    secret = [e.text for e in fight.events.all() if e.secret]
    assert not {line["text"] for line in fought["timeline"]} & set(secret)


@pytest.mark.parametrize("bad", ["2026-13-45", [1, 2]])
@pytest.mark.parametrize("which", [0, 2])  # the finished conflict, the one in play
def test_a_state_the_screens_cannot_read_is_refused_and_nothing_is_written(
    at_table: Campaign, dealer: User, bad: object, which: int
) -> None:
    data = campaign_export(at_table)
    data["conflicts"][which]["state"]["participants"][0]["attributes"] = bad
    before = counts()
    for attempt in (
        lambda: campaign_import(copy.deepcopy(data), dealer=dealer),
        lambda: campaign_restore(copy.deepcopy(data), campaign=at_table, dealer=dealer),
    ):
        with pytest.raises(ImportRefused) as refused:
            attempt()
        assert any(
            p.startswith(f"conflicts[{which}].state:") and "attributes" in p
            for p in refused.value.problems
        ), refused.value.problems
    assert counts() == before


def test_a_page_that_meets_a_state_it_cannot_read_answers_409(
    at_table: Campaign, client: Client, dealer: User, player_a: User
) -> None:
    running = Conflict.objects.get(title=IN_PLAY)
    state = copy.deepcopy(running.state)
    state["participants"][0]["attributes"] = "2026-13-45"  # written before this checks
    Conflict.objects.filter(pk=running.pk).update(state=state)
    url = running.get_absolute_url()
    for user in (dealer, player_a):
        client.force_login(user)
        for page in (url, url + "table/"):
            response = client.get(page)
            assert response.status_code == 409, page
            assert "cannot be read" in response.content.decode()
    client.force_login(dealer)
    moved = client.post(url + "move/call/", {"version": running.version, "key": "k"})
    assert moved.status_code == 409
    assert Conflict.objects.get(pk=running.pk).state == state  # nothing changed


def test_only_the_dealer_downloads_the_file(
    at_table: Campaign, client: Client, player_a: User
) -> None:
    Membership.objects.filter(campaign=at_table, user=player_a).update(role="player")
    client.force_login(player_a)
    assert client.get(f"/c/{at_table.slug}/export.json").status_code == 403
