"""The live broadcaster carries versions only, in-process and through Redis (docs/architecture.md,
"The shape of a table action", step 3)."""

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
        redis.Redis.from_url(settings.REDIS_URL).publish(live.channel_prefix() + "t-redis", "9")
        return await waiting

    with override_settings(BROADCASTER="redis"):
        assert asyncio.run(scenario()) == 9


# --- A shared Redis (issue 19 #3) -------------------------------------------------------------


def test_its_channels_carry_the_deployments_namespace() -> None:
    with override_settings(LIVE_NAMESPACE="tombstone"):
        assert live.channel_prefix() == "tombstone:table:"
    with override_settings(LIVE_NAMESPACE="bisbee"):
        assert live.channel_prefix() == "bisbee:table:"


def test_a_forged_version_far_ahead_never_silences_the_real_ones() -> None:
    """What Redis carries is a hint: handed on, never remembered, so the real versions that
    follow (a move's, the safety net's) still reach the streams. Junk is dropped quietly."""
    seen: list[tuple[str, int]] = []
    unsubscribe = live.subscribe(lambda table, version: seen.append((table, version)))
    prefix = live.channel_prefix().encode()
    try:
        live.deliver("t-forged", 4)
        live.heard(prefix + b"t-forged", b"999999999")  # from a shared Redis
        live.heard(prefix + b"t-forged", b"not a number")
        live.heard(b"elsewhere:table:t-forged", b"7")  # another deployment's channel
        live.deliver("t-forged", 5)  # the next real move
        live.heard(prefix + b"t-forged", b"6")
    finally:
        unsubscribe()
    assert seen == [("t-forged", 4), ("t-forged", 999999999), ("t-forged", 5), ("t-forged", 6)]


@pytest.mark.redis
def test_it_hears_only_its_own_deployments_channels_through_redis() -> None:
    import redis
    from django.conf import settings

    async def scenario() -> list[int]:
        got: list[int] = []
        stream = live.updates("t-ns")
        waiting = asyncio.ensure_future(stream.__anext__())
        await asyncio.sleep(0.5)  # let the subscriber connect
        client = redis.Redis.from_url(settings.REDIS_URL)
        client.publish("another-deployment:table:t-ns", "5")
        client.publish("dd:table:t-ns", "6")  # the old, unnamespaced channel
        client.publish(live.channel_prefix() + "t-ns", "7")
        got.append(await asyncio.wait_for(waiting, 5))
        await stream.aclose()
        return got

    with override_settings(BROADCASTER="redis"):
        assert asyncio.run(scenario()) == [7]
