"""The saloon's live screens on the one live-table protocol (dustdevils/live/tables.py): the
process's safety-net poll catches a move whose announcement was lost. (What each stream may
carry is tests/saloon/test_hidden.py.)"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import override_settings

from dustdevils.live import broadcast as live
from saloon.engine import game as g
from saloon.models import Saloon
from tests.live.test_streams import in_thread, open_stream
from tests.saloon.conftest import play, state_of
from tests.saloon.kit import random_move

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_safety_net_catches_a_saloon_move_whose_announcement_was_lost(
    saloon: Saloon, campaign: Any, dealer: User, player_a: User, player_b: User, monkeypatch: Any
) -> None:
    users = {"p1": dealer, "p2": player_a, "p3": player_b}
    monkeypatch.setattr(live, "publish", lambda table, version: None)  # every announcement lost
    url = saloon.get_absolute_url() + "stream/"
    before = saloon.version

    def move() -> None:
        state = state_of(saloon)
        chosen = random_move(state, random.Random(5))
        while isinstance(chosen, g.RaiseUnwanted):
            chosen = random_move(state, random.Random())
        play(saloon, users[chosen.pid], chosen, rng=random.Random(5))

    async def scenario() -> tuple[str | None, int | None]:
        _, stream = await open_stream(player_a, url)
        assert stream is not None
        first = await stream.next()
        assert (first.event, first.id) == ("snapshot", before)
        await in_thread(move)
        event = await stream.next(timeout=5)
        await stream.close()
        return event.event, event.id

    with override_settings(BROADCASTER="inprocess", LIVE_POLL_SECONDS=0.3, LIVE_PING_SECONDS=30):
        got = asyncio.run(scenario())
    assert got == ("update", before + 1)
