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


def test_every_screen_is_made_from_the_streams_one_read_with_no_query(
    saloon: Saloon, campaign: Any, dealer: User, player_a: User, player_b: User
) -> None:
    """Issue 29: a process's live screens of a game share one read per version and render each
    viewer from it with no query (in the event loop): a seated phone, the host's (the Unwanted
    card up: may they lower it?) and the shared table screen."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from dustdevils.live.tables import Viewer
    from tables.site import site

    play(saloon, player_a, g.RaiseUnwanted("p2"))
    live = site.live("saloon")
    assert not live.panel_reads_db
    read = live.load(saloon.pk)
    assert read is not None
    viewers = [(dealer, False), (player_a, False), (player_b, False), (player_a, True)]
    with CaptureQueriesContext(connection) as queries:
        panels = [
            live.panel(Viewer(user.pk, campaign.slug, saloon.pk, as_table, "t"), read)
            for user, as_table in viewers
        ]
    assert queries.captured_queries == []
    assert all(panels)
    assert "Lower it as the host" in str(panels[0])
    assert "Lower it as the host" not in str(panels[2])


def test_the_streams_one_read_of_a_game_is_four_queries(saloon: Saloon) -> None:
    """The game with its campaign, its campaign's members, its seats and the timeline as its
    screens show it: once per version, whoever looks."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tables.site import site

    with CaptureQueriesContext(connection) as queries:
        assert site.live("saloon").load(saloon.pk) is not None
    assert len(queries.captured_queries) == 4
