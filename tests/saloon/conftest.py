"""The saloon's cast: the campaign's Dealer and two players make three at the table (Delia,
Abe and Bess, seated clockwise in that order); the outsider belongs to no campaign."""

from __future__ import annotations

import random
from typing import Any

import pytest

from saloon.engine import game as g
from saloon.engine.serial import state_from_data
from saloon.models import Saloon
from saloon.services import saloon_create


@pytest.fixture
def saloon(campaign: Any, dealer: Any, player_a: Any, player_b: Any) -> Saloon:
    return saloon_create(
        campaign=campaign, actor=dealer, players=[dealer, player_a, player_b], rng=random.Random(3)
    )


def state_of(saloon: Saloon) -> g.SaloonState:
    saloon.refresh_from_db()
    return state_from_data(saloon.state)
