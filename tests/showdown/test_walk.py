"""Random games of four through the services, every screen rendered at every step: each
player's phone, the host's, the shared table screen, as pages and as the live stream's panels.
Every phase's template is rendered (threats, bluffs, duels, triellos, standoffs, events, the
tie-break, the end) and none shows a count to anyone but its owner before all are in (SS15).
Under the ``dev`` profile each screen every third step, in turn (``tests.conftest.due``): every
step is still rendered for someone; all of them at every step under ``ci``."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from campaigns.models import Membership
from cards.errors import IllegalMove
from showdown.engine import moves as m
from showdown.engine.state import Phase
from tables.errors import Refused as ShowdownError
from tests.conftest import due
from tests.kit import engine_move, new_game
from tests.showdown.conftest import state_of
from tests.showdown.kit import random_move

pytestmark = pytest.mark.django_db


WANTED = {"threat", "bluff", "event", "fight:duel", "fight:triello", "fight:standoff"}


def test_every_screen_renders_at_every_step_of_random_games(
    campaign: Any, dealer: User, player_a: User, player_b: User, django_user_model: type[User]
) -> None:
    fourth = django_user_model.objects.create_user("dora", first_name="Dora")
    Membership.objects.create(campaign=campaign, user=fourth, role=Membership.Role.PLAYER)
    players = [dealer, player_a, player_b, fourth]
    users = {f"p{i + 1}": u for i, u in enumerate(players)}
    clients = {}
    for pid, user in users.items():
        clients[pid] = Client()
        clients[pid].force_login(user)
    seen: set[str] = set()
    for seed in range(8):  # games until every kind of screen was rendered
        play_one(campaign, dealer, players, users, clients, seed, seen)
        if seen >= WANTED:
            break
    assert seen >= WANTED


def play_one(
    campaign: Any, dealer: User, players: list[User], users: dict[str, User],
    clients: dict[str, Client], seed: int, seen: set[str],
) -> None:  # fmt: skip
    showdown = new_game(
        "showdown", campaign=campaign, actor=dealer, players=players,
        dealer=players[seed % 4].pk, events=True, roulette=seed % 2 == 1,
    )  # fmt: skip
    url = showdown.get_absolute_url()
    rng, clock = random.Random(seed), [0]
    step = 0
    for _ in range(600):
        state = state_of(showdown)
        if state.phase == Phase.OVER:
            break
        move = random_move(state, rng, clock)
        user = dealer if isinstance(move, m.HostMove) else users[move.pid]
        try:
            engine_move(
                "showdown", showdown, user, move, host=isinstance(move, m.HostMove), rng=rng
            )
        except (ShowdownError, IllegalMove):
            continue
        step += 1
        state = state_of(showdown)
        seen.add(state.phase.value + (f":{state.fight.kind.value}" if state.fight else ""))
        hidden = state.event.counts if state.event else state.bluff.counts if state.bluff else ()
        counts = dict(hidden)
        for viewer, (pid, client) in enumerate(clients.items()):
            if not due(step, viewer):
                continue
            page = client.get(url, HTTP_HX_REQUEST="true")
            assert page.status_code == 200
            html = page.content.decode()
            mine = f"You entered {counts[pid]}." if pid in counts else None
            assert html.count("You entered") == (1 if mine else 0)
            assert mine is None or mine in html
        if due(step, len(clients)):
            assert clients["p1"].get(url + "table/", HTTP_HX_REQUEST="true").status_code == 200
    assert state_of(showdown).phase == Phase.OVER
