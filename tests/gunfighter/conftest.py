"""The Gunfighter's cast: Delia (the Dealer), Abe and Bess at Dry Gulch, seated clockwise in
that order (p1, p2, p3); Delia saw a western last. The outsider belongs to no table."""

from __future__ import annotations

import random
from typing import Any

import pytest

from gunfighter.engine import state as s
from gunfighter.engine.serial import state_from_data
from gunfighter.models import Gunfight
from tests.kit import new_game


@pytest.fixture
def gunfight(campaign: Any, dealer: Any, player_a: Any, player_b: Any) -> Gunfight:
    return new_game("gunfighter",
        campaign=campaign, actor=dealer, players=[dealer, player_a, player_b],
        rng=random.Random(3),
    )  # fmt: skip


def state_of(gunfight: Gunfight) -> s.GunfightState:
    gunfight.refresh_from_db()
    return state_from_data(gunfight.state)
