"""Gunfighters tapping at once on real PostgreSQL (the kit's row lock): every "Bandolier set"
from the same page version goes through, once each; two phones starting the clock at once
start it once, and the other is told so in plain words."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth.models import User

from gunfighter.engine import state as s
from gunfighter.game import GUNFIGHTER
from gunfighter.models import GunfightLine
from tables.errors import Refused
from tests.gunfighter.conftest import state_of
from tests.kit import new_game, play, race

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_every_tap_at_once_goes_through_and_the_clock_starts_once(
    campaign: Any, dealer: User, player_a: User, player_b: User
) -> None:
    players = [dealer, player_a, player_b]
    gunfight = new_game(
        "gunfighter", campaign=campaign, actor=dealer, players=players, rng=random.Random(1)
    )
    state = state_of(gunfight)
    version = gunfight.version

    def ready(i: int) -> Any:
        pid = f"p{i + 1}"
        return play(
            "gunfighter", gunfight, players[i], "ready", version=version,
            basis=GUNFIGHTER.basis(state, pid), key=f"ready-{i}",
        )  # fmt: skip

    assert not [r for r in race(3, ready) if isinstance(r, Exception)]
    state = state_of(gunfight)
    assert all(f.ready for f in state.gunfighters)

    def clock(i: int) -> Any:
        return play("gunfighter", gunfight, players[i], "clock", key=f"clock-{i}")

    results = race(2, clock)
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(refused) == 1
    assert isinstance(refused[0], Refused)
    assert "The clock is running already." in str(refused[0])
    assert state_of(gunfight).phase == s.Phase.SHOWDOWN
    assert (
        GunfightLine.objects.filter(gunfight=gunfight, text__contains="starts the clock").count()
        == 1
    )
