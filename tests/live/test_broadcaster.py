"""The live broadcaster carries versions only, in-process and through Redis (DESIGN.md step 3)."""

from __future__ import annotations

import asyncio

import pytest
from django.http import HttpResponse
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


def failing_answer() -> None:
    with live.held():
        live.publish("t-held", 3)
        raise RuntimeError("the answer failed")


@pytest.mark.django_db  # closing a response tells Django the request finished
def test_it_holds_a_moves_announcements_until_its_answer_is_made() -> None:
    """``held()``: what is published inside is sent on the way out, in order, once — even
    when the block fails — and an inner hold leaves the sending to the outer one."""
    seen: list[tuple[str, int]] = []
    unsubscribe = live.subscribe(lambda table, version: seen.append((table, version)))
    try:
        with override_settings(BROADCASTER="inprocess"):
            with live.held():
                live.publish("t-held", 1)
                with live.held():
                    live.publish("t-held", 2)
                assert seen == []  # nothing yet: the answer is still being made
            assert seen == [("t-held", 1), ("t-held", 2)]
            with pytest.raises(RuntimeError):
                failing_answer()
            assert seen[-1] == ("t-held", 3)  # the commit happened: it is announced
            live.publish("t-held", 4)  # not holding: at once
            assert seen[-1] == ("t-held", 4)
            with live.held() as hold:
                live.publish("t-held", 5)
                response = hold.after(HttpResponse("the answer"))
            assert seen[-1] == ("t-held", 4)  # the answer has not gone out yet
            response.close()  # what every Django handler does once it is sent
            assert seen[-1] == ("t-held", 5)
    finally:
        unsubscribe()


@pytest.mark.redis
@pytest.mark.django_db  # closing a response tells Django the request finished
def test_with_redis_other_processes_hear_of_a_held_move_at_once() -> None:
    """A move's answer holds back only this process's own streams: the other processes (here:
    a plain Redis subscriber) hear of it at once and start on their screens, while this
    process's echo from Redis waits until the mover's answer has gone out."""
    import threading

    import redis
    from django.conf import settings

    other = redis.Redis.from_url(settings.REDIS_URL).pubsub()
    other.subscribe(live.CHANNEL_PREFIX + "t-early")
    assert other.get_message(timeout=2)["type"] == "subscribe"  # type: ignore[index]
    moved = threading.Event()
    answered = threading.Event()
    outcome: dict[str, object] = {}

    def the_move() -> None:  # a request's thread: publish on commit, answer, close
        with live.held() as hold:
            live.publish("t-early", 7)
            response = hold.after(HttpResponse("the answer"))
        moved.set()
        answered.wait(10)
        response.close()

    async def scenario() -> None:
        waiting = asyncio.ensure_future(_next("t-early", timeout=10))
        await asyncio.sleep(0.5)  # let this process's subscriber connect
        threading.Thread(target=the_move, daemon=True).start()
        await asyncio.to_thread(moved.wait, 5)
        message = await asyncio.to_thread(other.get_message, timeout=3)
        outcome["other"] = message and message["data"]
        await asyncio.sleep(0.5)  # this process's subscriber has had Redis's echo by now
        outcome["here before the answer"] = waiting.done()
        answered.set()
        outcome["here"] = await waiting

    try:
        with override_settings(BROADCASTER="redis"):
            asyncio.run(scenario())
    finally:
        other.close()
    assert outcome == {"other": b"7", "here before the answer": False, "here": 7}
