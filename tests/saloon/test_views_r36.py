"""R36 through the pages: the host lowers the Unwanted card without a seat at the game."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth.models import User

from saloon.engine import game as g
from saloon.models import SaloonLine
from tests.kit import new_game
from tests.saloon.conftest import state_of
from tests.saloon.test_views import client_for, post, watcher  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db


def test_a_host_without_a_seat_lowers_the_unwanted_card_R36(
    campaign: Any,
    dealer: User,
    player_a: User,
    player_b: User,
    watcher: User,  # noqa: F811
) -> None:
    """R36: the host may lower the Unwanted card whether or not they hold a seat at the game
    (the engine used to answer "That player is not at this table")."""
    saloon = new_game(
        "saloon", campaign=campaign, actor=dealer, players=[player_a, player_b, watcher],
        rng=random.Random(3),
    )  # fmt: skip
    post(client_for(player_a), saloon, g.RaiseUnwanted("p1"))
    state_of(saloon)  # the newest version, for the next form
    host = client_for(dealer)
    assert "Lower it as the host" in host.get(saloon.get_absolute_url()).content.decode()
    url = saloon.get_absolute_url() + "move/lower-host/"
    assert host.post(url, {"version": saloon.version}).status_code == 302
    assert state_of(saloon).unwanted == ""
    last = SaloonLine.objects.filter(saloon=saloon).order_by("-pk").first()
    assert last is not None
    assert last.text.endswith("the host, lowers the Unwanted card raised by Abe: play goes on.")
