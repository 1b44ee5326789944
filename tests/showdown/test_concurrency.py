"""Both duellists fire at once on real PostgreSQL: the row lock serialises the two shots, both
reach the engine (neither is refused as stale: ``seat_basis``), and the claim that stands is the
one with the earlier server time, whichever took the lock first (SS6). A double tap of the same
form at once is done once."""

from __future__ import annotations

from typing import Any

import pytest

from showdown.engine import moves as m
from showdown.game import SHOWDOWN
from showdown.models import Showdown, ShowdownLine
from tests.kit import engine_move, race
from tests.showdown.conftest import state_of

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_two_shots_at_once_the_earlier_by_the_servers_clock_stands(
    showdown: Showdown, dealer: Any, player_a: Any, player_b: Any
) -> None:
    users = {"p1": dealer, "p2": player_a, "p3": player_b}

    def play(
        pid: str, made: Any, version: int | None = None, basis: str = "", key: str = ""
    ) -> None:
        engine_move("showdown", showdown, users[pid], made, version=version, basis=basis, key=key)

    play("p3", m.Threaten("p3", "p1", "red"))
    play("p1", m.AndYou("p1"))
    play("p3", m.Ready("p3", 1000))
    play("p1", m.Ready("p1", 1000))
    state = state_of(showdown)
    version = showdown.version
    bases = {pid: SHOWDOWN.basis(state, pid) for pid in ("p1", "p3")}
    shots = {"p1": 4050, "p3": 4020}  # Bess's reached the server 30 ms earlier

    def fire(i: int) -> None:
        pid = ("p1", "p3")[i]
        shot = m.Fire(pid, shots[pid], pistol="red", zone="head", noise="Bang")
        play(pid, shot, version=version, basis=bases[pid], key=f"shot-{pid}")

    outcomes = race(2, fire)
    assert not [o for o in outcomes if isinstance(o, Exception)]  # both shots are kept
    fight = state_of(showdown).fight
    assert fight is not None
    assert fight.claim is not None
    assert fight.claim.shooter == "p3"
    assert fight.late == (("p1", 4050),)  # issue 36: the losing claim, with its time
    lines = ShowdownLine.objects.filter(showdown=showdown).values_list("text", flat=True)
    assert any("fired too, 30 ms later" in text for text in lines)
