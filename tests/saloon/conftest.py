"""The saloon's cast: the campaign's Dealer and two players make three at the table (Delia,
Abe and Bess, seated clockwise in that order); the outsider belongs to no campaign."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.utils.datastructures import MultiValueDict

from saloon.engine import game as g
from saloon.engine.serial import state_from_data
from saloon.game import SALOON
from saloon.models import Saloon
from tables.moves import Moved
from tables.play import move as site_move
from tests.kit import new_game


@pytest.fixture
def saloon(campaign: Any, dealer: Any, player_a: Any, player_b: Any) -> Saloon:
    return new_game(  # type: ignore[no-any-return]
        "saloon", campaign=campaign, actor=dealer, players=[dealer, player_a, player_b],
        rng=random.Random(3),
    )  # fmt: skip


def state_of(saloon: Saloon) -> g.SaloonState:
    saloon.refresh_from_db()
    return state_from_data(saloon.state)


ACTION = {
    g.Discard: "discard", g.Draw: "draw", g.Prompt: "prompt", g.Answer: "answer",
    g.FollowUp: "follow_up", g.Pass: "pass", g.Shoot: "shoot", g.RaiseUnwanted: "raise",
    g.LowerUnwanted: "lower", g.Leave: "leave", g.SwapWith: "swap", g.PickArchetype: "pick",
    g.Tell: "tell", g.NameCharacter: "name", g.Continue: "continue",
}  # fmt: skip


def form_of(move: g.Move, version: int | None) -> dict[str, Any]:
    data: dict[str, Any] = {"version": version}
    if isinstance(move, g.Discard):
        data["keep"] = [c.text for c in move.keep]
    if isinstance(move, g.Draw | g.Shoot):
        data["position"] = move.position
    if isinstance(move, g.Prompt):
        data["subject"] = f"pid:{move.subject_pid}" if move.subject_pid else move.subject
        data["text"] = move.text
    if isinstance(move, g.Answer | g.FollowUp | g.Tell):
        data["text"] = move.text
    if isinstance(move, g.SwapWith):
        data["other"] = move.other
    if isinstance(move, g.PickArchetype):
        data["card"] = move.card.text
    return data


def play(
    saloon: Saloon, user: Any, move: g.Move, *, version: int | None = None, key: str = "",
    rng: random.Random | None = None,
) -> Moved[Any]:  # fmt: skip
    """An engine's move (as ``random_move`` makes it) posted by ``user`` through its form and
    the site's pipeline, as their page would post it (no version: the table as it is)."""
    posted = form_of(move, version) | {"key": key}
    data = MultiValueDict({k: v if isinstance(v, list) else [str(v)] for k, v in posted.items()})
    if version is None:
        del data["version"]
    form = SALOON.moves[ACTION[type(move)]](data)
    assert form.is_valid(), form.errors
    return site_move(
        SALOON, table_id=saloon.pk, campaign=saloon.campaign, user=user, form=form, rng=rng
    )
