"""The one live-table protocol (dustdevils/live/tables.py): at most ``LIVE_DB_READS`` reads of
tables run at once in a process. (Its streams: tests/live/test_streams.py for conflicts,
tests/fights/test_streams.py for fights, tests/saloon/test_streams.py for the saloon.)"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from dustdevils.live import broadcast as live
from dustdevils.live import tables


def test_no_more_than_the_limit_of_reads_run_at_once() -> None:
    """``LIVE_DB_READS``: many tables moving at once cannot take every database connection."""
    running, most = 0, 0

    async def load(table_id: int) -> Any:
        nonlocal running, most
        running += 1
        most = max(most, running)
        await asyncio.sleep(0.01)
        running -= 1
        return SimpleNamespace(version=1)

    async def scenario() -> list[Any]:
        reads = tables.SharedReads("fight", load, 2)
        watching = [live.Updates(f"fight-{n}") for n in range(6)]
        try:
            return list(await asyncio.gather(*(reads.at_least(n, 1) for n in range(6))))
        finally:
            for updates in watching:
                updates.close()

    got = asyncio.run(scenario())
    assert [r.version for r in got] == [1] * 6
    assert most == 2
