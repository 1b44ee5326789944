"""The live conflict streams (conflicts.streams), in one process: snapshot first
for every viewer, an update per move with that viewer's own panel, never a foreign card (R10),
403/404, reconnects, the safety-net poll and the Redis-outage fallback.

Streams are read through Django's AsyncClient inside ``asyncio.run``; the stream reads the
database from worker threads, so these tests use committed data (``transaction=True``).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth.models import User
from django.db import connections
from django.test import AsyncClient, Client, override_settings

from campaigns.models import Membership
from conflicts import streams
from conflicts.engine import conflict as engine
from conflicts.models import Conflict
from conflicts.services import controlled_pids, pid_of
from dustdevils.live import broadcast as live
from dustdevils.live import tables
from dustdevils.live.sse import sse
from tests.conflicts.test_views import Table, card_tokens, posse, quick_odds, sized, texts

pytestmark = pytest.mark.django_db(transaction=True)
__all__ = ["posse", "quick_odds"]


# --- Reading a stream ---------------------------------------------------------------------------


class Event:
    def __init__(self, block: str) -> None:
        self.id: int | None = None
        self.event = "message"
        self.comment = False
        data: list[str] = []
        for line in block.split("\n"):
            if line.startswith(":"):
                self.comment = True
            elif line.startswith("id: "):
                self.id = int(line[4:])
            elif line.startswith("event: "):
                self.event = line[7:]
            elif line.startswith("data: "):
                data.append(line[6:])
        self.data = "\n".join(data)

    def __repr__(self) -> str:
        return f"<{self.event} id={self.id} {len(self.data)} chars>"


class Stream:
    """An open SSE response, read event by event."""

    def __init__(self, response: Any) -> None:
        self.response = response
        self.chunks: AsyncIterator[bytes] = aiter(response.streaming_content)
        self.buffer = ""

    async def next(self, timeout: float = 5.0, *, pings: bool = False) -> Event:
        while True:
            while "\n\n" in self.buffer:
                block, self.buffer = self.buffer.split("\n\n", 1)
                event = Event(block)
                if pings or not event.comment:
                    return event
            chunk = await asyncio.wait_for(anext(self.chunks), timeout)
            self.buffer += chunk.decode() if isinstance(chunk, bytes) else chunk

    async def close(self) -> None:
        closer = getattr(self.chunks, "aclose", None)
        if closer is not None:
            await closer()


async def open_stream(user: User | None, url: str, **headers: Any) -> tuple[int, Stream | None]:
    client = AsyncClient()
    if user is not None:
        await client.aforce_login(user)
    response = await client.get(url, **headers)
    if not response.streaming:
        return response.status_code, None
    assert response["Content-Type"].startswith("text/event-stream")
    assert response["Cache-Control"] == "no-store"  # issue 37: what no cache may keep
    assert response["X-Accel-Buffering"] == "no"
    return response.status_code, Stream(response)


def allowed(table: Table, user: User, *, shared: bool) -> set[str]:
    state = table.state()
    if shared:
        return texts(engine.visible_cards(state, (), dealer=False))
    membership = Membership.objects.get(user=user, campaign=table.conflict.campaign)
    mine = controlled_pids(table.conflict, membership)
    return texts(engine.visible_cards(state, mine, dealer=membership.is_dealer))


@pytest.fixture
def dealt(client: Client, posse: Conflict, dealer: User, pc_a: Any, pc_b: Any) -> Table:
    table = Table(client, posse)
    sized(table, dealer, pc_a, pc_b)
    table.ok(dealer, "deal")
    return table


@pytest.fixture
def cast(dealer: User, player_a: User, player_b: User) -> dict[str, User]:
    return {"dealer": dealer, "player_a": player_a, "player_b": player_b}


def in_thread(function: Callable[[], Any]) -> Any:
    """``function`` in a worker thread, which then closes its database connection (left open,
    it would keep the test database from being dropped at the end)."""

    def closing() -> Any:
        try:
            return function()
        finally:
            connections.close_all()

    return sync_to_async(closing, thread_sensitive=False)()


# --- The protocol -------------------------------------------------------------------------------


def test_it_sends_each_viewer_a_snapshot_then_an_update_with_only_their_cards_R10(
    dealt: Table, cast: dict[str, User], pc_a: Any, pc_b: Any
) -> None:
    t = dealt
    url, table_url = t.url + "stream/", t.url + "table/stream/"
    before = t.version
    may = {name: allowed(t, user, shared=False) for name, user in cast.items()}
    may_table = allowed(t, cast["dealer"], shared=True)
    own_a = texts(t.state().participant(pid_of(pc_a)).hand)

    async def scenario() -> dict[str, list[Event]]:
        opened = {name: await open_stream(user, url) for name, user in cast.items()}
        _, table_stream = await open_stream(cast["player_b"], table_url)
        assert table_stream is not None
        seen: dict[str, list[Event]] = {name: [] for name in [*cast, "table"]}
        for name, (status, stream) in opened.items():
            assert status == 200
            assert stream is not None
            seen[name].append(await stream.next())
        seen["table"].append(await table_stream.next())
        # A move: player_b stands pat (no draw) — announced on commit, in-process.
        await in_thread(lambda: t.ok(cast["player_b"], "draw", pid=pid_of(pc_b), stand="1"))
        for name, (_, stream) in opened.items():
            assert stream is not None
            seen[name].append(await stream.next())
            await stream.close()
        seen["table"].append(await table_stream.next())
        await table_stream.close()
        return seen

    with override_settings(BROADCASTER="inprocess"):
        seen = asyncio.run(scenario())
    for name, events in seen.items():
        snapshot, update = events
        assert (snapshot.event, snapshot.id) == ("snapshot", before), name
        assert (update.event, update.id) == ("update", before + 1), name
        assert 'id="conflict-main"' in snapshot.data
        assert f'data-version="{before + 1}"' in update.data, name
        for event in events:
            tokens = card_tokens(event.data)
            limit = may_table if name == "table" else may[name]
            assert tokens <= limit, f"{name} {event} shows {sorted(tokens - limit)}"
    assert own_a <= card_tokens(seen["player_a"][0].data)  # not a vacuous pass
    assert "conflict--dealer" in seen["dealer"][0].data
    assert "conflict--player" in seen["player_a"][0].data
    assert "conflict--table" in seen["table"][0].data


def test_it_refuses_anonymous_403_and_outsiders_404(
    client: Client, dealt: Table, outsider: User
) -> None:
    for url in (dealt.url + "stream/", dealt.url + "table/stream/"):
        client.logout()
        response = client.get(url)
        assert response.status_code == 403
        assert response.content == b"Log in first."
        client.force_login(outsider)
        assert client.get(url).status_code == 404
        assert card_tokens(client.get(url).content.decode()) == set()


def test_it_always_starts_a_reconnect_with_a_full_snapshot(
    dealt: Table, cast: dict[str, User]
) -> None:
    now, url = dealt.version, dealt.url + "stream/"

    async def scenario() -> Event:
        _, stream = await open_stream(cast["player_a"], url, HTTP_LAST_EVENT_ID=str(now - 1))
        assert stream is not None
        try:
            return await stream.next()
        finally:
            await stream.close()

    first = asyncio.run(scenario())
    assert (first.event, first.id) == ("snapshot", now)
    assert 'id="conflict-main"' in first.data


def test_it_sends_newer_versions_only_jumping_to_the_newest_and_pings_while_idle(
    dealt: Table, cast: dict[str, User], pc_a: Any, pc_b: Any
) -> None:
    """A stream never repeats or goes back; a burst of moves it has not sent yet comes as ONE
    update of the newest version (its screen is current: nothing is lost by skipping a
    version in between), and an announcement the snapshot already showed sends nothing."""
    table = f"conflict-{dealt.conflict.pk}"
    now, url = dealt.version, dealt.url + "stream/"

    async def scenario() -> list[Event]:
        _, stream = await open_stream(cast["dealer"], url)
        assert stream is not None
        events = [await stream.next()]
        live.deliver(table, now)  # already in the snapshot: skipped
        # Two moves commit before the stream gets to them (the announcements queue up).
        with live.Updates(table) as hold:  # keeps the deliveries from being lost: none are
            await in_thread(lambda: dealt.ok(cast["player_a"], "draw", pid=pid_of(pc_a), stand="1"))
            await in_thread(lambda: dealt.ok(cast["player_b"], "draw", pid=pid_of(pc_b), stand="1"))
            assert hold.drain() == now + 2
        events.append(await stream.next())
        events.append(await stream.next(timeout=3, pings=True))
        await stream.close()
        return events

    with override_settings(BROADCASTER="inprocess", LIVE_PING_SECONDS=1):
        events = asyncio.run(scenario())
    assert [(e.event, e.id) for e in events[:2]] == [("snapshot", now), ("update", now + 2)]
    assert f'data-version="{now + 2}"' in events[1].data
    assert events[2].comment  # the ping, and no other update: nothing was left behind


def test_it_coalesces_a_backlog_into_one_read_and_one_render(
    dealt: Table, cast: dict[str, User], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Many screens of one table in one process: one database read per version for all of
    them (SharedReads), and a stream behind by several versions renders once."""
    table = f"conflict-{dealt.conflict.pk}"
    now, url = dealt.version, dealt.url + "stream/"
    reads: list[int] = []
    real_load = streams.screens_read

    def counting_load(conflict_id: int) -> Any:
        reads.append(conflict_id)
        return real_load(conflict_id)

    monkeypatch.setattr(streams, "screens_read", counting_load)

    async def scenario() -> list[list[Event]]:
        opened = [await open_stream(cast[who], url) for who in ("dealer", "player_a", "player_b")]
        screens = [stream for _, stream in opened if stream is not None]
        assert len(screens) == 3
        for screen in screens:
            await screen.next()  # the snapshots, each read in its own request
        assert reads == [dealt.conflict.pk] * 3
        reads.clear()
        await in_thread(lambda: Conflict.objects.filter(pk=dealt.conflict.pk).update(
            version=now + 1))  # fmt: skip
        live.deliver(table, now + 1)
        out = [[await screen.next()] for screen in screens]
        for screen in screens:
            await screen.close()
        return out

    with override_settings(BROADCASTER="inprocess"):
        got = asyncio.run(scenario())
    assert [[(e.event, e.id) for e in events] for events in got] == [[("update", now + 1)]] * 3
    assert reads == [dealt.conflict.pk]  # three screens, one read


def test_it_keeps_a_tables_read_only_while_a_screen_of_it_is_open(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """SharedReads remembers the newest read of each table its process has a screen of, and
    no other: its memory grows with the open tables, not with every table ever read."""
    from types import SimpleNamespace

    loads: list[int] = []

    async def load(conflict_id: int) -> Any:
        loads.append(conflict_id)
        return SimpleNamespace(version=3)

    async def scenario() -> None:
        reads = tables.SharedReads("conflict", load, 2)
        with live.Updates("conflict-1"):
            await reads.at_least(1, 3)
            await reads.at_least(1, 3)  # the same version: read once
        with live.Updates("conflict-2"):
            await reads.at_least(2, 3)  # nobody watches conflict 1 any more: forgotten
        with live.Updates("conflict-1"):
            await reads.at_least(1, 3)

    asyncio.run(scenario())
    assert loads == [1, 2, 1]


def test_it_announces_a_move_once_it_commits_and_never_a_refused_one(
    dealt: Table, cast: dict[str, User], pc_b: Any
) -> None:
    """docs/architecture.md, step 2: the move registers ``publish(table, version)`` with
    ``transaction.on_commit``, so no stream hears of a version it cannot read yet, and a
    refused move (here: a stale version) announces nothing."""
    from django.db import transaction

    table, now = f"conflict-{dealt.conflict.pk}", dealt.version
    heard: list[tuple[str, int]] = []
    unsubscribe = live.subscribe(lambda table, version: heard.append((table, version)))
    try:
        with override_settings(BROADCASTER="inprocess"):
            with transaction.atomic():
                dealt.ok(cast["player_b"], "draw", pid=pid_of(pc_b), stand="1")
                assert heard == []  # not before the commit
            assert heard == [(table, now + 1)]
            refused = dealt.post(cast["player_b"], "draw", version=now, pid=pid_of(pc_b))
            assert refused.status_code == 302
            assert dealt.version == now + 1
    finally:
        unsubscribe()
    assert heard == [(table, now + 1)]


def test_it_heals_a_missed_announcement_with_the_poll(
    dealt: Table, cast: dict[str, User], pc_b: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    now, url = dealt.version, dealt.url + "stream/"
    monkeypatch.setattr(live, "publish", lambda table, version: None)  # the event is lost

    async def scenario() -> Event:
        _, stream = await open_stream(cast["player_a"], url)
        assert stream is not None
        await stream.next()
        await in_thread(lambda: dealt.ok(cast["player_b"], "draw", pid=pid_of(pc_b), stand="1"))
        try:
            return await stream.next(timeout=4)
        finally:
            await stream.close()

    with override_settings(BROADCASTER="inprocess", LIVE_POLL_SECONDS=1):
        update = asyncio.run(scenario())
    assert (update.event, update.id) == ("update", now + 1)


def test_it_says_reconnecting_and_polls_while_redis_is_down_then_live_again(
    dealt: Table, cast: dict[str, User], pc_b: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    now, url = dealt.version, dealt.url + "stream/"
    health = {"ok": False}
    monkeypatch.setattr(live, "redis_healthy", lambda: health["ok"])
    monkeypatch.setattr(live, "publish", lambda table, version: None)  # Redis is away

    async def scenario() -> list[Event]:
        _, stream = await open_stream(cast["player_b"], url)
        assert stream is not None
        events = [await stream.next(), await stream.next()]
        await in_thread(lambda: dealt.ok(cast["player_b"], "draw", pid=pid_of(pc_b), stand="1"))
        events.append(await stream.next(timeout=4))  # polled every 6 / 6 = 1 s
        health["ok"] = True
        events.append(await stream.next(timeout=4))
        await stream.close()
        return events

    with override_settings(BROADCASTER="inprocess", LIVE_POLL_SECONDS=6):
        events = asyncio.run(scenario())
    assert [(e.event, e.data if e.event == "status" else e.id) for e in events] == [
        ("snapshot", now),
        ("status", "reconnecting"),
        ("update", now + 1),
        ("status", "live"),
    ]


def test_it_renders_the_event_format() -> None:
    assert sse("update", "<a>\n<b>", 7) == "id: 7\nevent: update\ndata: <a>\ndata: <b>\n\n"
    assert sse("status", "live") == "event: status\ndata: live\n\n"
    # Every line break the SSE format knows (CR, LF, CRLF) starts a new data line; a blank
    # line inside stays (the browser joins the lines with LF), a last line break goes.
    assert sse("update", "a\r\nb\rc\n\nd\n") == (
        "event: update\ndata: a\ndata: b\ndata: c\ndata: \ndata: d\n\n"
    )
    assert sse("update", "") == "event: update\ndata: \n\n"


# --- The character sheet, live ------------------------------------------------------------------


def test_it_tells_an_open_sheet_when_its_chips_change(
    client: Client, pc_a: Any, player_a: User, dealer: User, outsider: User
) -> None:
    from characters.services import chips_grant

    url = f"/c/{pc_a.campaign.slug}/characters/{pc_a.pk}/stream/"
    assert client.get(url).status_code == 403
    client.force_login(outsider)
    assert client.get(url).status_code == 404
    client.force_login(player_a)
    sheet = client.get(pc_a.get_absolute_url()).content.decode()
    assert f'sse-connect="{url}"' in sheet
    assert 'hx-trigger="sse:changed"' in sheet

    async def scenario() -> list[Event]:
        events = []
        for user in (player_a, dealer):
            status, stream = await open_stream(user, url)
            assert status == 200
            assert stream is not None
            await in_thread(
                lambda: chips_grant(character_id=pc_a.pk, amount=1, actor=None, note="Good play")
            )
            events.append(await stream.next())
            await stream.close()
        return events

    with override_settings(BROADCASTER="inprocess"):
        events = asyncio.run(scenario())
    for event in events:
        assert event.event == "changed"
        assert event.id is not None
        assert event.data == str(event.id)
    assert events[0].id is not None
    assert events[1].id is not None
    assert events[1].id > events[0].id


def test_it_tells_the_sheet_when_a_conflict_changes_its_attributes_R9(pc_a: Any) -> None:
    """The conflict results write each attribute change through ``_record``, which announces
    ``character-<id>`` once the transaction commits."""
    from django.db import transaction

    from characters.models import AttributeChange
    from conflicts.services import results as services

    heard: list[str] = []
    unsubscribe = live.subscribe(lambda table, version: heard.append(table))
    try:
        with override_settings(BROADCASTER="inprocess"), transaction.atomic():
            before = services._currents(pc_a.pk)
            pc_a.__class__.objects.filter(pk=pc_a.pk).update(hand_current=before["hand"] - 1)
            services._record(pc_a, before, AttributeChange.Reason.DIFFICULTY, None)
            assert heard == []  # not before the commit
    finally:
        unsubscribe()
    assert heard == [f"character-{pc_a.pk}"]


def test_it_lets_go_of_a_stream_nobody_read(client: Client, dealt: Table, player_a: User) -> None:
    table = f"conflict-{dealt.conflict.pk}"
    client.force_login(player_a)
    response = client.get(dealt.url + "stream/")
    assert response.status_code == 200
    assert live._queues.get(table)
    response.close()  # what the server does when the client left before the first byte
    assert not live._queues.get(table)


def test_it_ends_the_stream_of_someone_removed_from_the_campaign_R10(
    dealt: Table, cast: dict[str, User], pc_a: Any
) -> None:
    """Bess is removed from the campaign while her phone is open: the next move ends her
    stream instead of sending her the table (her membership is checked on every update)."""
    from campaigns.services import member_remove

    url = dealt.url + "stream/"

    async def scenario() -> list[Event]:
        _, stream = await open_stream(cast["player_b"], url)
        assert stream is not None
        events = [await stream.next()]
        await in_thread(
            lambda: member_remove(
                membership=Membership.objects.get(
                    user=cast["player_b"], campaign=dealt.conflict.campaign
                )
            )
        )
        await in_thread(lambda: dealt.ok(cast["player_a"], "draw", pid=pid_of(pc_a), stand="1"))
        try:
            events.append(await stream.next(timeout=5))
        except StopAsyncIteration:
            pass  # the stream ended: nothing more for her
        finally:
            await stream.close()
        return events

    with override_settings(BROADCASTER="inprocess"):
        events = asyncio.run(scenario())
    assert [e.event for e in events] == ["snapshot"]


def test_it_refuses_a_player_the_stream_of_an_npcs_sheet(
    client: Client, npc: Any, player_a: User, outsider: User
) -> None:
    """Issue 19: a player may not follow an NPC's sheet live (403, as its chips page); an
    outsider is not told it exists (404)."""
    url = f"/c/{npc.campaign.slug}/characters/{npc.pk}/stream/"
    client.force_login(player_a)
    assert client.get(url).status_code == 403
    client.force_login(outsider)
    assert client.get(url).status_code == 404


# --- A forged announcement (issue 19 #3) ---------------------------------------------------------


def test_a_forged_version_far_ahead_is_only_a_hint_the_stream_follows_the_database(
    dealt: Table, cast: dict[str, User], pc_b: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Someone on a shared Redis announces version 10⁹ for this table: the stream re-reads the
    table, finds the database's version, sends nothing, and the real moves that follow still
    reach it — the safety-net poll's included (here the move's own announcement is lost)."""
    now, url = dealt.version, dealt.url + "stream/"
    table = f"conflict-{dealt.conflict.pk}"
    monkeypatch.setattr(live, "publish", lambda table, version: None)  # only the poll tells

    async def scenario() -> list[Event]:
        _, stream = await open_stream(cast["player_a"], url)
        assert stream is not None
        events = [await stream.next()]
        live.heard(live.channel_prefix().encode() + table.encode(), b"1000000000")
        # The stream takes the hint, re-reads the table, sends nothing; then a ping.
        assert (await stream.next(timeout=4, pings=True)).comment
        await in_thread(lambda: dealt.ok(cast["player_b"], "draw", pid=pid_of(pc_b), stand="1"))
        try:
            events.append(await stream.next(timeout=5))
        finally:
            await stream.close()
        return events

    with override_settings(BROADCASTER="inprocess", LIVE_POLL_SECONDS=1, LIVE_PING_SECONDS=1):
        events = asyncio.run(scenario())
    assert [(e.event, e.id) for e in events] == [("snapshot", now), ("update", now + 1)]


def test_a_forged_version_costs_one_read_not_two(monkeypatch: pytest.MonkeyPatch) -> None:
    """A read begun after the announcement is the database's word: a version above it is
    ignored, not read again."""
    from types import SimpleNamespace

    loads: list[int] = []

    async def load(conflict_id: int) -> Any:
        loads.append(conflict_id)
        return SimpleNamespace(version=3)

    async def scenario() -> int:
        reads = tables.SharedReads("conflict", load, 2)
        with live.Updates("conflict-1"):
            data = await reads.at_least(1, 10**9)
        return data.version

    assert asyncio.run(scenario()) == 3
    assert loads == [1]
