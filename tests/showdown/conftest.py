"""Saloon Showdown's cast: the campaign's Dealer (Delia, the host) and two players make three at
the table, seated clockwise Delia, Abe, Bess; Abe saw a western last (the dealer token)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from showdown.engine.state import State, state_from_data
from showdown.models import Showdown
from tests.kit import new_game


@pytest.fixture
def showdown(campaign: Any, dealer: Any, player_a: Any, player_b: Any) -> Showdown:
    return new_game(
        "showdown", campaign=campaign, actor=dealer, players=[dealer, player_a, player_b],
        dealer=player_a.pk, events=True,
    )  # fmt: skip


def state_of(showdown: Showdown) -> State:
    showdown.refresh_from_db()
    return state_from_data(showdown.state)


class Clock:
    """The server's clock as the views read it (``tables.clock.now_ms``), moved by hand."""

    def __init__(self) -> None:
        self.now = 1_000_000

    def __call__(self) -> int:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr("tables.clock.now_ms", fake)
    return fake


@pytest.fixture
def phones(dealer: User, player_a: User, player_b: User) -> dict[str, Client]:
    out = {}
    for pid, user in (("p1", dealer), ("p2", player_a), ("p3", player_b)):
        client = Client()
        client.force_login(user)
        out[pid] = client
    return out
