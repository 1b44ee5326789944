"""The live streams as deployed: uvicorn processes on PostgreSQL (and Redis), read with httpx.

* a stream on process A receives the update for a move POSTed on process B (Redis pub/sub);
* idle streams hold no database connection (``pg_stat_activity`` grows by the pool's few at
  most, not by the streams);
* a restarted process loses nothing: a new stream starts with the full, current snapshot;
* a real Redis outage (a PRIVATE redis-server on a free port, killed and restarted — never the
  machine's own Redis): ``status: reconnecting``, the move still arrives through the database
  poll, then ``status: live`` and Redis delivery again.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client

from conflicts.services import pid_of
from tests.conflicts.test_views import Table, card_tokens, posse, quick_odds, sized
from tests.live.test_streams import Event, allowed
from tests.served import Uvicorn, free_port, listening_socket, uvicorn_command

httpx = pytest.importorskip("httpx")

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True), pytest.mark.slow]
__all__ = ["posse", "quick_odds"]


# --- Servers ------------------------------------------------------------------------------------


def test_database_url() -> str:
    """The URL of the PostgreSQL test database pytest-django made (``test_<name>``)."""
    db = connection.settings_dict
    auth = quote(db["USER"] or "", safe="")
    if db["PASSWORD"]:
        auth += ":" + quote(db["PASSWORD"], safe="")
    port = f":{db['PORT']}" if db["PORT"] else ""
    return f"postgres://{auth}@{db['HOST'] or 'localhost'}{port}/{quote(db['NAME'])}"


test_database_url.__test__ = False  # type: ignore[attr-defined]


# The servers' connection pools: six open streams may leave at most this many connections
# behind (the pool's), never one per stream.
POOL_MAX = "2"


class Server(Uvicorn):
    """``uvicorn dustdevils.asgi:application`` on the test database and ``redis_url``."""

    def __init__(self, log_dir: Path, redis_url: str, **env: str) -> None:
        sock = listening_socket()
        environment = os.environ | {
            "DJANGO_SETTINGS_MODULE": "dustdevils.settings",
            "DATABASE_URL": test_database_url(),
            "REDIS_URL": redis_url,
            "CONN_MAX_AGE": "0",
            "DATABASE_POOL_MAX": POOL_MAX,
            "PYTHONUNBUFFERED": "1",
            **env,
        }
        environment.pop("BROADCASTER", None)
        log = log_dir / f"uvicorn-{sock.getsockname()[1]}.log"
        super().__init__(uvicorn_command(sock), environment, log, sock)


class PrivateRedis:
    """A throwaway redis-server on its own free port (no persistence), stoppable at will."""

    def __init__(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.skip("needs the redis-server binary")
        self.binary = binary
        self.process: subprocess.Popen[bytes] | None = None
        # redis-server binds the port itself: another program (a test running at once) may
        # take a free port first, so try another one then.
        for _ in range(3):
            self.port = free_port()
            self.url = f"redis://127.0.0.1:{self.port}/0"
            if self._started():
                return
        pytest.fail("the private redis-server did not start")

    def start(self) -> None:
        if not self._started():
            pytest.fail("the private redis-server did not start")

    def _started(self) -> bool:
        self.process = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1",
             "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and self.process.poll() is None:
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", self.port)) == 0:
                    return True
            time.sleep(0.05)
        self.stop()
        return False

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(5)
        self.process = None


@pytest.fixture
def private_redis() -> Iterator[PrivateRedis]:
    server = PrivateRedis()
    yield server
    server.stop()


def session_cookie(user: User) -> dict[str, str]:
    client = Client()
    client.force_login(user)
    name = settings.SESSION_COOKIE_NAME
    return {name: client.cookies[name].value}


def pg_connections() -> int:
    """Connections to the test database, the asking one left out. Ask from a worker thread
    (``asyncio.to_thread``): this closes that thread's own connection afterwards."""
    try:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            return int(cursor.fetchone()[0])
    finally:
        connection.close()


# --- Reading a stream over HTTP -------------------------------------------------------------------


class HttpStream:
    def __init__(self, base: str, path: str, cookies: dict[str, str]) -> None:
        self.client = httpx.AsyncClient(base_url=base, cookies=cookies, timeout=None)
        self.path = path
        self.lines: AsyncIterator[str] | None = None
        self.response: Any = None

    async def open(self) -> HttpStream:
        request = self.client.build_request("GET", self.path)
        self.response = await self.client.send(request, stream=True)
        assert self.response.status_code == 200
        assert self.response.headers["content-type"].startswith("text/event-stream")
        self.lines = self.response.aiter_lines()
        return self

    async def next(self, timeout: float = 10.0) -> Event:
        assert self.lines is not None
        block: list[str] = []

        async def read() -> Event:
            assert self.lines is not None
            async for line in self.lines:
                if line == "":
                    if block and not all(b.startswith(":") for b in block):
                        return Event("\n".join(block))
                    block.clear()
                    continue
                block.append(line)
            raise AssertionError("the stream ended")

        return await asyncio.wait_for(read(), timeout)

    async def close(self) -> None:
        if self.response is not None:
            await self.response.aclose()
        await self.client.aclose()


async def post_move(base: str, cookies: dict[str, str], path: str, data: dict[str, Any]) -> None:
    """A move through another process, as a browser without htmx sends it."""
    async with httpx.AsyncClient(base_url=base, cookies=cookies) as http:
        page = await http.get(path.split("move/")[0])
        assert page.status_code == 200
        token = http.cookies.get("csrftoken")
        assert token, "the page sets a CSRF cookie"
        response = await http.post(path, data=data, headers={"X-CSRFToken": token})
        assert response.status_code == 302, response.text[:500]


@pytest.fixture
def dealt(client: Client, posse: Any, dealer: User, pc_a: Any, pc_b: Any) -> Table:
    table = Table(client, posse)
    sized(table, dealer, pc_a, pc_b)
    table.ok(dealer, "deal")
    return table


def stand_pat(pc: Any, version: int) -> dict[str, Any]:
    """The draw form of a player who keeps their hand (R13)."""
    return {"version": version, "key": f"served-{pc.pk}-{version}", "pid": pid_of(pc), "stand": "1"}


# --- The tests ------------------------------------------------------------------------------------


@pytest.mark.redis
def test_it_carries_a_move_on_one_process_to_a_stream_on_another_and_survives_a_restart(
    dealt: Table,
    dealer: User,
    player_a: User,
    player_b: User,
    pc_a: Any,
    pc_b: Any,
    tmp_path: Path,
) -> None:
    t = dealt
    path, v = t.url + "stream/", t.version
    move_path = t.move_url("draw")
    move, again = stand_pat(pc_b, v), stand_pat(pc_a, v + 1)
    env = {"LIVE_POLL_SECONDS": "120"}  # only Redis can deliver within the test's timeouts
    cookie = {u.username: session_cookie(u) for u in (dealer, player_a, player_b)}
    a = Server(tmp_path, settings.REDIS_URL, **env)
    b = Server(tmp_path, settings.REDIS_URL, **env)
    try:

        async def scenario() -> tuple[list[Event], list[Event], int]:
            await asyncio.sleep(0.5)
            before = await asyncio.to_thread(pg_connections)
            streams = [
                await HttpStream(a.url, path, cookie[user.username]).open()
                for user in (player_a, dealer, player_b, player_a, dealer, player_b)
            ]
            snapshots = [await s.next() for s in streams]
            await asyncio.sleep(1.0)  # A's one Redis subscriber connects; the streams go idle
            idle = await asyncio.to_thread(pg_connections)
            await post_move(b.url, cookie["player_b"], move_path, move)
            updates = [await s.next() for s in streams]
            for s in streams:
                await s.close()
            return snapshots, updates, idle - before

        snapshots, updates, grown = asyncio.run(scenario())
        assert grown <= int(POOL_MAX), f"{grown} connections held by 6 idle streams"
        assert all((e.event, e.id) == ("snapshot", v) for e in snapshots)
        assert all((e.event, e.id) == ("update", v + 1) for e in updates)
        may_a = allowed(t, player_a, shared=False)
        assert card_tokens(updates[0].data) <= may_a
        assert card_tokens(snapshots[0].data) <= may_a
        assert f'data-version="{v + 1}"' in updates[0].data

        # A restart loses nothing: the state is in the database.
        a.stop()
        a = Server(tmp_path, settings.REDIS_URL, **env)

        async def reconnect() -> tuple[Event, Event]:
            stream = await HttpStream(a.url, path, cookie["player_a"]).open()
            try:
                first = await stream.next()
                await asyncio.sleep(1.0)  # the new process's subscriber connects
                await post_move(b.url, cookie["player_a"], move_path, again)
                return first, await stream.next()
            finally:
                await stream.close()

        first, update = asyncio.run(reconnect())
        assert (first.event, first.id) == ("snapshot", v + 1)
        assert f'data-version="{v + 1}"' in first.data
        assert (update.event, update.id) == ("update", v + 2)  # and live again
    finally:
        a.stop()
        b.stop()


@pytest.mark.redis
def test_it_falls_back_to_the_poll_through_a_real_redis_outage_and_goes_live_again(
    dealt: Table,
    player_a: User,
    player_b: User,
    pc_b: Any,
    pc_a: Any,
    private_redis: PrivateRedis,
    tmp_path: Path,
) -> None:
    t = dealt
    path, v, move_path = t.url + "stream/", t.version, t.move_url("draw")
    env = {"LIVE_POLL_SECONDS": "6"}  # every 6 / 6 = 1 s while Redis is away
    cookie = {u.username: session_cookie(u) for u in (player_a, player_b)}
    a = Server(tmp_path, private_redis.url, **env)
    b = Server(tmp_path, private_redis.url, **env)
    try:

        async def scenario() -> list[tuple[str, Any, float]]:
            stream = await HttpStream(a.url, path, cookie["player_a"]).open()
            seen: list[tuple[str, Any, float]] = []

            async def note(timeout: float = 15.0) -> None:
                start = time.monotonic()
                e = await stream.next(timeout)
                seen.append((e.event, e.data if e.event == "status" else e.id,
                             time.monotonic() - start))  # fmt: skip

            await note()  # the snapshot
            await asyncio.sleep(1.0)
            await asyncio.to_thread(private_redis.stop)
            await note()  # status: reconnecting
            # B's publish fails too: only A's database poll can bring the move.
            await post_move(b.url, cookie["player_b"], move_path, stand_pat(pc_b, v))
            await note(timeout=8)
            await asyncio.to_thread(private_redis.start)
            await note(timeout=15)  # status: live (the subscriber retries every ≤ 5 s)
            await asyncio.sleep(0.5)
            await post_move(b.url, cookie["player_a"], move_path, stand_pat(pc_a, v + 1))
            await note(timeout=3)  # through Redis again: well before the 6 s poll
            await stream.close()
            return seen

        seen = asyncio.run(scenario())
    finally:
        a.stop()
        b.stop()
    assert [(event, what) for event, what, _ in seen] == [
        ("snapshot", v),
        ("status", "reconnecting"),
        ("update", v + 1),
        ("status", "live"),
        ("update", v + 2),
    ]
    assert seen[2][2] < 5, "the poll brought the move within a few seconds"
    assert seen[4][2] < 3, "Redis delivers again"
