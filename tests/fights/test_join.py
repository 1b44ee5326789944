"""Someone joins a fight under way (the engine's Join, R23, R26), from the Dealer's join page:
a character of the campaign, one who left coming back, or a line of extras. Only the Dealer;
bad input refused in plain words with nothing written; a stale page and a double click
change nothing; no card on the join page, and the newcomer's cards stay hidden (R30)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from campaigns.services import campaign_create
from characters.models import Character
from characters.services import character_create
from fights.models import FightSeat
from tests.conflicts.test_views import card_tokens
from tests.fights.conftest import FightTable, rig
from tests.fights.test_views import deal

pytestmark = pytest.mark.django_db


@pytest.fixture
def deputy(campaign: Any) -> Character:
    data = {
        "name": "Deputy Hale", "hand": 3, "eye": 2, "guts": 3, "heart": 2,
        "devil": "Wants the badge to mean something.", "devil_rating": 2,
    }  # fmt: skip
    return character_create(campaign=campaign, kind="npc", player=None, data=data, knacks={})


def join_url(table: FightTable) -> str:
    return f"{table.url}join/"


def join(table: FightTable, user: User | None, **data: Any) -> Any:
    table.keys += 1
    payload = {"version": table.version, "key": f"join-key-{table.keys}", **data}
    return table.as_user(user).post(join_url(table), payload)


def written(table: FightTable) -> tuple[Any, ...]:
    table.fight.refresh_from_db()
    f = table.fight
    return (f.version, f.state, f.events.count(), FightSeat.objects.filter(fight=f).count())


def test_the_dealer_brings_a_character_in_and_it_is_dealt_from_the_next_round(
    table: FightTable, dealer: User, cids: dict[str, str], deputy: Character, npc: Any
) -> None:
    deal(table, dealer, cids)
    page = table.page(dealer, join_url(table))
    assert "Deputy Hale" in page
    assert f'value="{npc.pk}"' not in page  # Mayor Crane is fighting already
    assert card_tokens(page) == set()  # the join page shows no card
    response = join(table, dealer, character=deputy.pk)
    assert response.status_code == 302
    assert response["Location"] == table.url
    state = table.state()
    joined = state.combatant(f"c{deputy.pk}")
    assert (joined.name, joined.kind.value, joined.hand, joined.cap) == (
        "Deputy Hale",
        "npc",
        (),
        5,
    )
    assert FightSeat.objects.get(fight=table.fight, cid=f"c{deputy.pk}").character == deputy
    assert "Deputy Hale joins the fight: cards from the next round." in table.messages(dealer)
    assert table.fight.events.filter(text__startswith="Deputy Hale joins").exists()


def test_a_line_of_extras_joins_surprised_and_needs_guts_from_the_next_round_R26(
    table: FightTable, dealer: User, cids: dict[str, str]
) -> None:
    deal(table, dealer, cids)
    assert join(table, dealer, extras="2 more Pinkertons 2d6", surprised="on").status_code == 302
    seat = FightSeat.objects.get(fight=table.fight, cid="x2")
    assert (seat.name, seat.size, seat.kind) == ("2 more Pinkertons", 2, "extras")
    newcomer = table.state().combatant("x2")
    assert (str(newcomer.quickness), newcomer.surprised, newcomer.size) == ("2d6", True, 2)
    table.ok(dealer, "end-round")
    console = table.page(dealer)
    assert "Roll Guts (" in console


def test_one_who_left_comes_back(
    table: FightTable, dealer: User, cids: dict[str, str], pc_b: Any
) -> None:
    deal(table, dealer, cids)
    table.ok(dealer, "leave", cid=cids["bess"])
    page = table.page(dealer, join_url(table))
    assert "left the fight: comes back" in page
    before = FightSeat.objects.filter(fight=table.fight).count()
    assert join(table, dealer, character=pc_b.pk).status_code == 302
    assert not table.state().combatant(cids["bess"]).out
    assert FightSeat.objects.filter(fight=table.fight).count() == before  # her seat, again
    assert "Bess Doyle is back in the fight: cards from the next round." in table.messages(dealer)


@pytest.mark.parametrize(
    ("data", "says"),
    [
        ({}, "Pick one character, or write one line of extras"),
        ({"extras": "2 Pinkertons 2d6", "character": "PICK"}, "one newcomer at a time"),
        ({"extras": "2 Pinkertons 0d6"}, "0d6"),
        ({"extras": "2 Pinkertons 3d7"}, "d7"),
        ({"extras": "99 Pinkertons 2d6"}, "1 to 50 members"),
        ({"extras": "2 Pinkertons\n3 Rangers"}, "One line of extras at a time"),
        ({"character": "PC_A"}, "already in this fight"),
        ({"character": "OTHER"}, "no such character in this campaign"),
        ({"character": "abc"}, "Enter a whole number"),
    ],
)
def test_bad_input_is_refused_in_plain_words_and_nothing_is_written(
    table: FightTable, dealer: User, pc_a: Any, deputy: Character, data: dict[str, str], says: str
) -> None:
    elsewhere = campaign_create(dealer=dealer, name="Elsewhere", setting="")
    stranger = character_create(
        campaign=elsewhere, kind="npc", player=None, knacks={},
        data={"name": "Stranger", "hand": 2, "eye": 2, "guts": 2, "heart": 2, "devil": "",
              "devil_rating": 0},
    )  # fmt: skip
    ids = {"PICK": deputy.pk, "PC_A": pc_a.pk, "OTHER": stranger.pk}
    data = {k: str(ids.get(v, v)) for k, v in data.items()}
    before = written(table)
    response = join(table, dealer, **data)
    assert response.status_code == 200
    page = response.content.decode().replace("&#x27;", "'").replace("&quot;", '"')
    assert says.lower() in page.lower()
    assert written(table) == before


def test_a_stale_page_and_a_double_click_change_nothing(
    table: FightTable, dealer: User, cids: dict[str, str], deputy: Character
) -> None:
    stale = table.version
    table.ok(dealer, "quickness", cid=cids["abe"], total=13)
    before = written(table)
    response = table.as_user(dealer).post(
        join_url(table), {"version": stale, "key": "k-stale", "character": deputy.pk}
    )
    assert response.status_code == 200
    assert "moved on since that page was loaded" in response.content.decode()
    assert written(table) == before
    payload = {"version": table.version, "key": "k-twice", "character": deputy.pk}
    assert table.as_user(dealer).post(join_url(table), payload).status_code == 302
    once = written(table)
    assert table.as_user(dealer).post(join_url(table), payload).status_code == 302
    assert written(table) == once


def test_a_fight_that_is_over_takes_nobody(
    table: FightTable, dealer: User, deputy: Character
) -> None:
    table.ok(dealer, "end-fight")
    assert "This fight is over: nobody can join it now." in table.page(dealer, join_url(table))
    before = written(table)
    response = join(table, dealer, character=deputy.pk)
    assert "This fight is over." in response.content.decode()
    assert written(table) == before


def test_only_the_dealer_may_bring_someone_in(
    table: FightTable, player_a: User, outsider: User, deputy: Character
) -> None:
    before = written(table)
    assert table.as_user(player_a).get(join_url(table)).status_code == 403
    assert join(table, player_a, character=deputy.pk).status_code == 403
    assert table.as_user(outsider).get(join_url(table)).status_code == 404
    assert join(table, outsider, character=deputy.pk).status_code == 404
    anonymous = table.as_user(None).get(join_url(table))
    assert anonymous.status_code == 302
    assert "/accounts/login/" in anonymous["Location"]
    # The move URL too: a player cannot post a join to it directly.
    response = table.post(player_a, "join", character=deputy.pk)
    assert response.status_code == 403
    assert written(table) == before


def test_a_newcomers_cards_reach_only_the_dealer_R30(
    table: FightTable, dealer: User, player_a: User, player_b: User, cids: dict[str, str],
    deputy: Character,
) -> None:  # fmt: skip
    join(table, dealer, character=deputy.pk)
    for who, total in (("abe", 13), ("bess", 7), ("crane", 8), ("gang", 5)):
        table.ok(dealer, "quickness", cid=cids[who], total=total)
    table.ok(dealer, "quickness", cid=f"c{deputy.pk}", total=13)
    rig(table.fight, "RJ 9♣ 3♦ K♥ 4♣ Q♠ 7♦ J♦ 2♥ 5♠ 6♠ 8♠")
    table.ok(dealer, "deal")
    theirs = {c.text for c in table.state().combatant(f"c{deputy.pk}").hand}
    assert len(theirs) == 3
    assert theirs <= card_tokens(table.page(dealer))
    for player in (player_a, player_b):
        assert not theirs & card_tokens(table.page(player))
    assert not theirs & card_tokens(table.page(dealer, f"{table.url}table/"))
