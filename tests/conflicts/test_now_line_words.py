"""Issue 36's words on the conflicts' screens: after a narration bid the NOW line says where the
bidding stands (it kept asking the bidder to bid, R16); a conflict that turned into a gunfight
is listed as such, not "Cancelled before the Deal"."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from campaigns.models import GameSession
from characters.services import chips_grant
from conflicts.engine import conflict as engine
from conflicts.models import Conflict
from conflicts.services import HandSpec, conflict_create, pid_of
from fights.services import fight_create
from tests.conflicts.test_views import Table, arrange, cards, dealt, posse, quick_odds
from tests.fights.conftest import session

__all__ = ["posse", "quick_odds", "session"]  # fixtures
pytestmark = pytest.mark.django_db


@pytest.fixture
def table(client: Client, posse: Conflict) -> Table:
    return Table(client, posse)


def now_line(html: str) -> str:
    found = re.search(r'<strong class="next-step__text">(.*?)</strong>', html, re.S)
    assert found is not None
    return found.group(1)


def test_after_a_bid_the_now_line_says_where_the_bidding_stands_R16(
    table: Table, dealer: User, player_a: User, player_b: User, pc_a: Any, pc_b: Any
) -> None:
    dealt(table, dealer, pc_a, pc_b)
    arrange(
        table.conflict,
        {
            pid_of(pc_a): cards("2♣ 3♠ 4♦ 6♥ 7♣ 8♦ 9♣ J♥"),
            pid_of(pc_b): cards("A♠ 2♦ 3♣ 8♣ 10♦ Q♥"),
            "stud": cards("K♥ K♦ K♠ Q♠ Q♦"),
        },
    )
    table.ok(dealer, "call", now="on")
    table.ok(dealer, "reveal")
    for player, pc in ((player_a, pc_a), (player_b, pc_b)):  # Difficulty first, then the bids
        state = table.state()
        owed = next(o for o in state.owed if o.pid == pid_of(pc))
        allocation = engine.default_allocation(owed, state.participant(pid_of(pc)).currents)
        table.ok(player, "allocate", pid=pid_of(pc), **allocation)
    assert now_line(table.page(player_a)) == "Bess Doyle holds the narration: bid to take it?"
    table.ok(player_a, "bid", pid=pid_of(pc_a), amount=2)
    line = now_line(table.page(player_a))
    assert "bid to take it" not in line
    assert line == "Your bid of 2 chips leads: waiting for the Dealer to close the bids"
    chips_grant(character_id=pc_b.pk, amount=2, actor=None)
    assert now_line(table.page(player_b)) == "Keep the narration? Match the bid of 2 chips"
    table.ok(player_b, "bid", pid=pid_of(pc_b), amount=2)
    assert now_line(table.page(player_b)) == (
        "You matched the bid of 2 chips: waiting for the Dealer to close the bids"
    )
    assert now_line(table.page(player_a)) == "Bess Doyle matched your bid of 2 chips: raise it?"


def test_a_conflict_that_became_a_gunfight_is_listed_as_such(
    campaign: Any, dealer: User, session: GameSession, pc_a: Any, npc: Any, client: Client
) -> None:
    standoff = conflict_create(
        campaign=campaign, actor=dealer, title="Standoff at the bank", session=session,
        hands=[HandSpec(character=pc_a, goal="Get the deed"),
               HandSpec(character=npc, goal="Keep it")],
    )  # fmt: skip
    fight_create(
        campaign=campaign, actor=dealer, session=session, title="", characters=[pc_a, npc],
        rng=random.Random(3), from_conflict=standoff,
    )  # fmt: skip
    standoff.refresh_from_db()
    assert standoff.phase == Conflict.Phase.CANCELLED
    client.force_login(dealer)
    html = client.get(f"/c/{campaign.slug}/conflicts/").content.decode()
    assert "Cancelled before the Deal" not in html
    assert "Became a fight" in html
