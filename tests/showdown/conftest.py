"""Saloon Showdown's cast: the campaign's Dealer (Delia, the host) and two players make three at
the table, seated clockwise Delia, Abe, Bess; Abe saw a western last (the dealer token)."""

from __future__ import annotations

from typing import Any

import pytest

from showdown.engine.state import Options, State, state_from_data
from showdown.models import Showdown
from showdown.services import showdown_create


@pytest.fixture
def showdown(campaign: Any, dealer: Any, player_a: Any, player_b: Any) -> Showdown:
    return showdown_create(
        campaign=campaign, actor=dealer, players=[dealer, player_a, player_b], dealer=player_a,
        options=Options(events=True),
    )  # fmt: skip


def state_of(showdown: Showdown) -> State:
    showdown.refresh_from_db()
    return state_from_data(showdown.state)
