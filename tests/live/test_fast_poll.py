"""Issue 28 (smaller items): when Redis goes down, the safety net's poll switches to its fast
interval at once (``LIVE_POLL_SECONDS / 6``, at least 1 s) — not after the rest of the slow
poll's sleep, which made updates take 21 s instead of the documented 5 s."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from django.test import override_settings

from dustdevils.live import broadcast as live
from dustdevils.live import tables as live_tables


def test_the_safety_net_polls_at_once_when_redis_goes_down(monkeypatch: Any) -> None:
    health = {"ok": True}
    monkeypatch.setattr(live, "redis_healthy", lambda: health["ok"])
    polled: list[float] = []

    def versions(ids: list[int]) -> list[tuple[int, int]]:
        polled.append(time.monotonic())
        return []

    table: live_tables.LiveTable[Any] = live_tables.LiveTable(
        kind="pollprobe", load=lambda _: None, panel=lambda viewer, read: None,
        versions=versions, admit=lambda user, slug: None,
    )  # fmt: skip

    async def scenario() -> float:
        screen = live.Updates("pollprobe-1")  # a screen of table 1 is open here
        net = asyncio.get_running_loop().create_task(live_tables._safety_net(table))
        await asyncio.sleep(0.3)  # the net is asleep in its 30 s poll
        assert not polled
        down = time.monotonic()
        health["ok"] = False
        live._set_healthy(False)  # Redis goes away: the broadcaster announces it
        for _ in range(40):
            if polled:
                break
            await asyncio.sleep(0.05)
        net.cancel()
        screen.close()
        return (polled[0] if polled else float("inf")) - down

    try:
        with override_settings(LIVE_POLL_SECONDS=30):
            waited = asyncio.run(scenario())
    finally:
        live._set_healthy(True)
    assert waited < 1.5, f"the first poll came {waited:.1f} s after Redis went down"
