"""Fixtures for the fight tests: a running session at Dry Gulch, a fight in it (the two players'
characters, the Dealer's Mayor Crane and a line of three Pinkertons), and ``FightTable``, which
drives a fight through HTTP as the people at the table would."""

from __future__ import annotations

import random
from collections.abc import Callable
from html import unescape
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from campaigns.game_sessions import session_start
from campaigns.models import GameSession
from fights.engine import action_deck as engine
from fights.engine.serial import state_from_data, state_to_data
from fights.models import Fight
from fights.services import ExtrasSpec, cid_of, fight_create
from tests.fights.fight_kit import stacked
from tests.kit import TableDriver

PINKERTONS = "x1"


@pytest.fixture
def session(campaign: Any, dealer: User) -> GameSession:
    return session_start(campaign=campaign, actor=dealer)


@pytest.fixture
def seeded(monkeypatch: pytest.MonkeyPatch) -> Callable[[int], None]:
    """``seeded(7)``: every shuffle, roll and Fate draw the views cause comes from
    random.Random(7)."""

    def use(seed: int) -> None:
        monkeypatch.setattr("fights.services.system_rng", lambda: random.Random(seed))

    use(11)
    return use


@pytest.fixture
def gunfight(
    campaign: Any, dealer: User, session: GameSession, pc_a: Any, pc_b: Any, npc: Any
) -> Fight:
    """Abe and Bess against Mayor Crane and three Pinkertons, round 1, nobody surprised."""
    return fight_create(
        campaign=campaign, actor=dealer, session=session, title="Shootout at the livery",
        characters=[pc_a, pc_b, npc], extras=[ExtrasSpec("3 Pinkertons", 3, "2d6")],
        rng=random.Random(3),
    )  # fmt: skip


def state_of(fight: Fight) -> engine.FightState:
    fight.refresh_from_db()
    return state_from_data(fight.state)


def rig(fight: Fight, top: str) -> None:
    """Test set-up: put these cards on top of the deck (the rest below, the 54 conserved); the
    discard pile stays as it is, less any card put on top."""
    state = state_of(fight)
    wanted = set(top.split())
    pile = " ".join(c.text for c in state.deck.discards if c.text not in wanted)
    state = stacked(state, top, pile)
    fight.state = state_to_data(state)
    fight.save(update_fields=["state"])


class FightTable(TableDriver):
    """Drives one fight through the views."""

    key_prefix = "fight-key"

    def __init__(self, client: Client, fight: Fight) -> None:
        super().__init__(client, fight)
        self.fight = fight

    def state(self) -> engine.FightState:
        return state_of(self.fight)

    def refused(self, user: User, action: str, says: str, **data: Any) -> str:
        """A move that must be refused in plain words (htmx: the panel with the message, status
        200), with nothing written: the same version, state and timeline."""
        before = (self.version, self.fight.state, self.fight.events.count())
        response = self.post(user, action, htmx=True, **data)
        assert response.status_code == 200, response
        html = unescape(response.content.decode())
        assert 'role="alert"' in html, html[:2000]
        assert says in html, f"expected {says!r} in the refusal"
        self.fight.refresh_from_db()
        assert (self.fight.version, self.fight.state, self.fight.events.count()) == before
        return html


@pytest.fixture
def table(client: Client, gunfight: Fight) -> FightTable:
    return FightTable(client, gunfight)


@pytest.fixture
def cids(pc_a: Any, pc_b: Any, npc: Any) -> dict[str, str]:
    return {"abe": cid_of(pc_a), "bess": cid_of(pc_b), "crane": cid_of(npc), "gang": PINKERTONS}
