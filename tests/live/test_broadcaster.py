"""The live broadcaster carries versions only, in-process and through Redis (DESIGN.md step 3)."""

from __future__ import annotations

import asyncio

import pytest
from django.test import override_settings

from dustdevils.live import broadcast as live


async def _next(table: str, timeout: float = 3.0) -> int:
    stream = live.updates(table)
    try:
        return await asyncio.wait_for(stream.__anext__(), timeout)
    finally:
        await stream.aclose()


def test_it_hands_a_version_to_a_waiting_stream_in_process() -> None:
    async def scenario() -> int:
        waiting = asyncio.ensure_future(_next("t-inproc"))
        await asyncio.sleep(0.05)
        live.publish("t-inproc", 3)
        return await waiting

    with override_settings(BROADCASTER="inprocess"):
        assert asyncio.run(scenario()) == 3
    assert live.latest("t-inproc") == 3


def test_it_never_goes_back_to_an_older_version() -> None:
    seen: list[tuple[str, int]] = []
    unsubscribe = live.subscribe(lambda table, version: seen.append((table, version)))
    try:
        with override_settings(BROADCASTER="inprocess"):
            live.publish("t-order", 5)
            live.publish("t-order", 4)
            live.publish("t-order", 6)
    finally:
        unsubscribe()
    assert seen == [("t-order", 5), ("t-order", 6)]


@pytest.mark.redis
def test_it_carries_a_version_from_another_process_through_redis() -> None:
    """A move published by another process (here: a plain Redis client) reaches this
    process's stream through its one subscriber."""
    import redis
    from django.conf import settings

    async def scenario() -> int:
        waiting = asyncio.ensure_future(_next("t-redis", timeout=5))
        await asyncio.sleep(0.5)  # let the subscriber connect
        redis.Redis.from_url(settings.REDIS_URL).publish(live.CHANNEL_PREFIX + "t-redis", "9")
        return await waiting

    with override_settings(BROADCASTER="redis"):
        assert asyncio.run(scenario()) == 9
