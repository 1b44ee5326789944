"""The "In play now" ribbon's own stream (issue 26 #4): one per person, on every page. A table
set up or ended in one of their campaigns reaches their open stream at once as ``event:
changed`` (only a version); the ribbon then fetches itself again. Logged in only; nobody hears
another's; a page that connects after a nudge it missed (``?since=``) hears of it at once."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings

from campaigns.game_sessions import session_start
from campaigns.streams import running_of
from dustdevils.live import broadcast as live
from fights.models import Fight
from fights.services import fight_create
from tests.live.test_streams import in_thread, open_stream

pytestmark = pytest.mark.django_db(transaction=True)
URL = "/running/stream/"


@override_settings(BROADCASTER="inprocess")
def test_a_fight_started_reaches_the_open_pages_of_those_concerned(
    campaign: Any, dealer: User, player_a: User, outsider: User, pc_a: Any, npc: Any,
    client: Client,
) -> None:  # fmt: skip
    session = session_start(campaign=campaign, actor=dealer)
    live.forget()

    def start() -> Fight:
        return fight_create(
            campaign=campaign, actor=dealer, session=session, title="Shootout at the livery",
            characters=[pc_a, npc], rng=random.Random(3),
        )  # fmt: skip

    async def run() -> Fight:
        assert (await open_stream(None, URL))[0] == 403
        _, abe = await open_stream(player_a, URL)
        _, otis = await open_stream(outsider, URL)
        assert abe is not None
        assert otis is not None
        try:
            assert (await abe.next(pings=True)).comment  # ": connected"
            assert (await otis.next(pings=True)).comment
            fight = await in_thread(start)
            event = await abe.next(timeout=2)
            assert event.event == "changed"
            assert event.data == str(event.id)  # a version, nothing else
            with pytest.raises(TimeoutError):
                await otis.next(timeout=0.5)  # not one of his campaigns
            return fight
        finally:
            await abe.close()
            await otis.close()

    fight = asyncio.run(run())
    asyncio.run(in_thread(lambda: None))
    # What the nudge makes the page fetch: its ribbon, now with the fight.
    client.force_login(player_a)
    assert fight.get_absolute_url() in client.get("/running/").content.decode()


@override_settings(BROADCASTER="inprocess")
def test_a_page_that_connects_late_hears_the_nudge_it_missed(player_a: User) -> None:
    live.forget()
    live.deliver(running_of(player_a.pk), 5_000)

    async def run() -> None:
        _, stream = await open_stream(player_a, f"{URL}?since=4000")
        assert stream is not None
        try:
            event = await stream.next(timeout=2)
            assert (event.event, event.id) == ("changed", 5_000)
        finally:
            await stream.close()
        _, stream = await open_stream(player_a, f"{URL}?since=5000")  # already has it
        assert stream is not None
        try:
            with pytest.raises(TimeoutError):
                await stream.next(timeout=0.3)
        finally:
            await stream.close()

    asyncio.run(run())
    asyncio.run(in_thread(lambda: None))
