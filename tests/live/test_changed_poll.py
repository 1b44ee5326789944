"""Issue 37, B7: the character sheet's, the campaign and session pages' and the "In play now"
banner's streams keep a safety net while Redis is down, as the tables' streams do: an
announcement made in another process never arrives then (the probe's sheet stayed silent for
27.6 s), so the stream says ``reconnecting`` and sends ``changed`` every LIVE_POLL_SECONDS / 6
(at least 1 s) — the page looks again through its own view — and ``live`` when Redis is back.
One way for all of them: ``dustdevils.live.sse.changed_events``."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import override_settings

from dustdevils.live import broadcast as live
from tests.live.test_streams import Event, open_stream

pytestmark = pytest.mark.django_db(transaction=True)


def urls(pc_a: Any) -> dict[str, str]:
    slug = pc_a.campaign.slug
    return {
        "sheet": f"/c/{slug}/characters/{pc_a.pk}/stream/",
        "campaign": f"/c/{slug}/stream/",
        "banner": "/running/stream/",
    }


@pytest.mark.parametrize("page", ["sheet", "campaign", "banner"])
def test_a_page_stream_polls_while_redis_is_down_then_says_live_again(
    page: str, pc_a: Any, player_a: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = urls(pc_a)[page]
    health = {"ok": False}
    monkeypatch.setattr(live, "redis_healthy", lambda: health["ok"])

    async def scenario() -> list[Event]:
        status, stream = await open_stream(player_a, url)
        assert status == 200
        assert stream is not None
        events = [await stream.next(timeout=4), await stream.next(timeout=4)]
        events.append(await stream.next(timeout=4))  # polled again: every 6 / 6 = 1 s
        health["ok"] = True
        live._set_healthy(True)  # Redis is back: the broadcaster says so
        events.append(await stream.next(timeout=4))
        await stream.close()
        return events

    live._set_healthy(False)
    try:
        with override_settings(BROADCASTER="inprocess", LIVE_POLL_SECONDS=6):
            events = asyncio.run(scenario())
    finally:
        live._set_healthy(True)
    assert [e.event for e in events] == ["status", "changed", "changed", "status"]
    assert (events[0].data, events[-1].data) == ("reconnecting", "live")
    assert events[1].id is not None
    assert events[2].id is not None
    assert events[2].id > events[1].id
