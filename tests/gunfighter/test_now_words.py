"""What "Now" says on each screen (issue 36): never "waiting for ." with nobody to wait for; the
winner reads "You win", not an empty "Your move"; a gunfighter who is out gets no "Your move",
and the take-back (GF11) only for the mat just entered, if it is theirs."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.test import Client

from gunfighter.engine import game as g
from gunfighter.engine import state as s
from gunfighter.engine.serial import state_to_data
from gunfighter.models import Gunfight
from tests.gunfighter.conftest import state_of
from tests.gunfighter.kit import AFTER, to_showdown
from tests.kit import new_game

pytestmark = pytest.mark.django_db


def page(user: Any, gunfight: Gunfight) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(gunfight.get_absolute_url())
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def hosted(campaign: Any, dealer: Any, player_a: Any, player_b: Any) -> Gunfight:
    """Abe (p1) and Bess (p2) play; Delia, the Dealer, hosts without a seat."""
    return new_game(
        "gunfighter",
        campaign=campaign,
        actor=dealer,
        players=[player_a, player_b],
        rng=random.Random(3),
    )


def put(gunfight: Gunfight, state: s.GunfightState) -> None:
    Gunfight.objects.filter(pk=gunfight.pk).update(state=state_to_data(state))


def test_the_hosts_screen_never_waits_for_nobody(hosted: Gunfight, dealer: Any) -> None:
    state = state_of(hosted)
    for f in state.standing:
        state = g.apply(state, s.BandolierSet(f.pid), random.Random(0))[0]
    for f in state.standing:  # R38: the clock waits for a covert card or "no covert card"
        state = g.apply(state, s.NoCovert(f.pid), random.Random(0))[0]
    assert g.whose_move(state) == ("p1",)  # R39: only the one who starts the clock
    put(hosted, state)
    html = page(dealer, hosted)
    assert "waiting for ." not in html
    assert "waiting for Abe." in html


def test_the_winner_reads_you_win_and_the_fallen_get_no_move(
    campaign: Any, dealer: Any, player_a: Any, player_b: Any
) -> None:
    """Abe (p1) shoots Bess (p2) down on her mat, then Delia (p3) on hers, which ends it."""
    gunfight = new_game(
        "gunfighter", campaign=campaign, actor=dealer, players=[player_a, player_b, dealer],
        rng=random.Random(3),
    )  # fmt: skip
    state = to_showdown(state_of(gunfight))
    while state.phase != s.Phase.OVER:
        pid = g.reviewing(state)
        hits = (("p1", 3),) if pid != "p1" else ()
        mat = s.EnterMat(pid, now_ms=AFTER, hits=hits, left=0, last="p1" if hits else "")
        state = g.apply(state, mat, random.Random(0))[0]
    assert state.winner == "p1"
    assert g.taken_back(state) == ("p3", "p2", "p1")
    put(gunfight, state)
    winner = page(player_a, gunfight)
    assert "You win!" in winner
    assert "Your move" not in winner
    fallen = page(player_b, gunfight)  # out on an earlier mat: no move, no take-back
    assert "Your move" not in fallen
    assert "take it back" not in fallen
    assert "Abe is the last gunfighter standing" in fallen
    last = page(dealer, gunfight)  # out on her own mat, the last one entered: GF11 still
    assert "Your move" not in last
    assert "I entered my mat wrong: take it back" in last
