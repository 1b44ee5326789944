"""Every page of the card games is readable by everyone (issue 36 #5): axe-core finds no WCAG
2.1 A or AA violation on any page of Death Enters the Saloon, Saloon Showdown or The Gunfighter
in any phase — the host's phone, a player's phone, the shared table screen — on a phone
(390×844) and a laptop (1280×800), and every card shown is announced in words. The games are
played by the kits' random players (tests/*/kit.py) through the services, never by clicking;
one Chromium serves the module."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from django.contrib.auth.models import User

from cards.errors import IllegalMove
from gunfighter.engine import state as gs
from gunfighter.engine.serial import state_to_data as gunfight_data
from saloon.engine import game as sg
from showdown.engine import moves as sm
from tables.errors import Refused
from tests.e2e.readers import Readers
from tests.e2e.test_readable_tables import look_at_table, people
from tests.gunfighter.conftest import state_of as gunfight_state
from tests.gunfighter.kit import random_move as gunfight_random_move
from tests.kit import engine_move, new_game
from tests.saloon.conftest import state_of as saloon_state
from tests.saloon.kit import random_move as saloon_random_move
from tests.showdown.conftest import state_of as showdown_state
from tests.showdown.kit import random_move as showdown_random_move

pytestmark = pytest.mark.e2e
__all__ = ["people"]


def walk(
    people: Readers, url: str, phase_of: Callable[[], str], next_move: Callable[[set[str]], Any],
    play: Callable[[Any], None], wanted: set[str], *, table: bool = True, limit: int = 1500,
) -> set[str]:  # fmt: skip
    """Random legal moves through the services until the game is over, everyone's pages
    looked at the first time the game is in each phase (``phase_of``); the phases seen."""
    seen: set[str] = set()
    for _ in range(limit):
        phase = phase_of()
        if phase not in seen:
            seen.add(phase)
            if table:
                look_at_table(people, url, phase)
            else:
                people.look(url, phase)
        if phase.endswith("over"):
            break
        try:
            play(next_move(seen))
        except (IllegalMove, Refused):  # a random table's move the rules refuse
            continue
    assert seen >= wanted, wanted - seen
    return seen


def test_death_enters_the_saloon_is_readable_in_every_phase(
    people: Readers, campaign: Any, dealer: User, player_a: User, player_b: User
) -> None:
    users = {"p1": dealer, "p2": player_a, "p3": player_b}
    saloon = new_game(
        "saloon", campaign=campaign, actor=dealer, players=list(users.values()), pick=True,
        rng=random.Random(3),
    )  # fmt: skip
    rng = random.Random(4)

    def phase() -> str:
        state = saloon_state(saloon)
        step = f" {state.turn.step.value}" if state.turn and state.phase == sg.Phase.PLAY else ""
        return f"the saloon, {state.phase.value}{step}{', unwanted up' if state.unwanted else ''}"

    def play(made: sg.Move) -> None:
        saloon.refresh_from_db()
        engine_move("saloon", saloon, users[made.pid], made, version=saloon.version, rng=rng)

    walk(
        people, saloon.get_absolute_url(), phase, lambda seen: saloon_random_move(
            saloon_state(saloon), rng), play,
        {f"the saloon, {p}" for p in ("archetypes", "discard", "play draw", "play answer", "over")},
    )  # fmt: skip
    people.assert_none()


def test_saloon_showdown_is_readable_in_every_phase(
    people: Readers, campaign: Any, dealer: User, player_a: User, player_b: User
) -> None:
    users = {"p1": dealer, "p2": player_a, "p3": player_b}
    showdown = new_game(
        "showdown", campaign=campaign, actor=dealer, players=list(users.values()),
        dealer=player_a.pk, events=True,
    )  # fmt: skip
    rng, clock = random.Random(2), [0]

    def phase() -> str:
        state = showdown_state(showdown)
        kind = f" {state.fight.kind.value}" if state.fight else ""
        return f"Saloon Showdown, {state.phase.value}{kind}"

    def play(made: sm.Move) -> None:
        showdown.refresh_from_db()
        host = isinstance(made, sm.HostMove)
        user = dealer if host else users[made.pid]
        engine_move("showdown", showdown, user, made, host=host, rng=rng)

    def next_move(seen: set[str]) -> sm.Move:
        """Random moves, but the first threats end in a standoff (a third pistol joins, the
        first threatened closes it)."""
        state = showdown_state(showdown)
        threat = state.threat
        if threat is not None and "Saloon Showdown, fight standoff" not in seen:
            if not threat.standoff:
                third = next(p for p in state.pids if p not in (threat.threatener, threat.target))
                return sm.Standoff(third)
            return sm.CloseStandoff(threat.first)
        return showdown_random_move(state, rng, clock)

    walk(
        people, showdown.get_absolute_url(), phase, next_move, play,
        {f"Saloon Showdown, {p}" for p in ("play", "threat", "bluff", "fight standoff",
                                           "fight duel", "over")},
        limit=4000,
    )  # fmt: skip
    people.assert_none()


def test_the_gunfighter_is_readable_in_every_phase(
    people: Readers, campaign: Any, dealer: User, player_a: User, player_b: User
) -> None:
    users = {"p1": dealer, "p2": player_a, "p3": player_b}
    gunfight = new_game(
        "gunfighter", campaign=campaign, actor=dealer, players=list(users.values()), choose=True,
        rng=random.Random(3),
    )  # fmt: skip
    rng, now = random.Random(6), [int(time.time() * 1000)]

    def phase() -> str:
        state = gunfight_state(gunfight)
        end = state.clock_end
        if state.phase == gs.Phase.SHOWDOWN and end is not None and end <= time.time() * 1000:
            return "The Gunfighter, review"
        return f"The Gunfighter, {state.phase.value}"

    def play(made: gs.Move) -> None:
        gunfight.refresh_from_db()
        engine_move("gunfighter", gunfight, users[made.pid], made, rng=rng)

    def next_move(seen: set[str]) -> gs.Move:
        state = gunfight_state(gunfight)
        end, at = state.clock_end, int(time.time() * 1000)
        if state.phase == gs.Phase.SHOWDOWN and end is not None and state.clock_at and end > at:
            # The clock was seen running: set it back so that it ran out (the mats' review)
            # rather than wait for it.
            early = state.clock_at - (end - at) - 1000
            gunfight.state = gunfight_data(replace(state, clock_at=early))
            gunfight.save(update_fields=["state"])
            state = gunfight_state(gunfight)
        now[0] += 1000
        return gunfight_random_move(state, rng, now[0])

    walk(
        people, gunfight.get_absolute_url(), phase, next_move, play,
        {f"The Gunfighter, {p}" for p in ("choose", "prepare", "showdown", "review", "over")},
        table=False,
    )  # fmt: skip
    people.assert_none()
