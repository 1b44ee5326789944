"""Live-table load benchmark: many conflicts open at once, 7 SSE streams each, real moves.

On loopback only (127.0.0.1), bounded in count and time, it stops by itself. For each shape the
app is served in (``BENCH_SHAPE``; by default both that people run, each in its own process):
**production** — gunicorn (WSGI, threads) for pages and moves and uvicorn for the streams, Redis
pub/sub between them, as deploy/ routes them (the client addresses each server directly in
place of the proxy) — and **embedded** — one uvicorn process on SQLite with the in-process
broadcaster, as `make run` serves it (``uvicorn``: two uvicorn processes and Redis):

1. makes a fresh database (PostgreSQL: a new database on DATABASE_URL's server, dropped at the
   end; SQLite for the embedded shape), migrates it and builds the tables through the ORM: one
   Dealer and six players seated at every table, each player's PC in the conflict against a
   5-card stud; session cookies come from ``SessionStore``;
2. opens 7 streams per table (the Dealer and six players; ``GET …/stream/``) from ONE asyncio
   loop with raw streaming reads, and waits for every snapshot;
3. the floor: bare Django on the same servers (floor.py) — per "move" a locked POST, then on a
   streams' server one read and seven renders of a panel of the app's size (this design's
   floor: the screens share one read), 50 a second — and the CPU it costs per move;
4. phase L: 2 actions/s, the latency of a table that is not saturated; phase A: moves at
   50 actions/s (players' Propose, alternating attribute pairs, so every move bumps the
   version; htmx POSTs, as the page sends them) and, for each move, the time from the POST's
   start until every stream of that table has an ``update`` for that version (or a later one:
   a stream that falls behind sends the newest version, which the screen shows), both as the
   server wrote it (``: sent <time>``, LIVE_SENT_AT=1: the goal's "server-side") and as this
   client read it; then a bounded drain; lost = expected − received; the CPU per move (this
   run's servers and its own database's backends, from /proc) beside the floor's: the ratio is
   the figure to keep low;
5. the knee: short phases 10 actions/s apart from 60 up, until one does not hold (applied, 0
   lost, p95 ≤ 100 ms), at most 150; ``BENCH_RATES=55,60`` runs those rates instead;
6. memory per serving process, and DB queries per panel render for a 2-player and a 6-player
   table (``CaptureQueriesContext`` around ``conflict_view`` + the template), which must not
   grow with the players.

``--quick`` (or BENCH_QUICK=1): 20 tables, 10 s phases. The full run: 200 tables, 20 s phases.
Prints the goals beside the figures; a missed goal is said plainly, not a failure (exit 0).

``BENCH_BASE=<another checkout>`` (issue 38): each shape is run twice in the same sitting, its
servers serving that checkout's code first, then this one's (``BENCH_SERVE``: the checkout a
run serves; the tables are built and driven by this file either way), and a last table sets
them side by side at each rate: p95 action → every screen and the CPU per move of each server
(uvicorn's: the streams).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[2]
# The checkout the servers serve (BENCH_BASE's runs: the base's); this file builds and drives.
SERVE = Path(os.environ.get("BENCH_SERVE", "").strip() or ROOT).resolve()
HOST = "127.0.0.1"
STREAMS_PER_TABLE = 7
PLAYERS = 6
PAIRS = (("hand", "eye"), ("guts", "heart"))
GOALS = {"fanout_rate": 50, "lost": 0, "p95_ms": 100.0}
KNEE_MAX = 150  # actions/s: the knee search stops here
LIGHT_RATE = 2  # actions/s: the latency of a table that is not saturated, for comparison
IDLE_SECONDS = 5  # every stream open, no move: what the streams cost doing nothing
# BENCH_AFFINITY=1: every stream and move of a table goes to the same process, as a proxy that
# routes by the conflict's URL would send them; by default they are spread over the processes
# (a table's screens on both, its moves alternating), so every move crosses Redis.
AFFINITY = os.environ.get("BENCH_AFFINITY", "").strip() == "1"
# BENCH_RATES=60,70,80: more phases after the goals' (actions/s), for finding where the server
# stops keeping up on the machine at hand. Exploring only: the goals are judged as before.
EXTRA_RATES = [
    int(r) for r in os.environ.get("BENCH_RATES", "").replace(" ", "").split(",") if r.isdigit()
]


def extra_phases() -> list[tuple[str, int]]:
    """The BENCH_RATES phases' names and rates: "+60", and "+60 #2" for a rate asked again
    (BENCH_RATES=50,50,50 measures whether a steady rate gets slower as the tables grow)."""
    out: list[tuple[str, int]] = []
    for rate in EXTRA_RATES:
        again = sum(1 for _, r in out if r == rate)
        out.append((f"+{rate}" + (f" #{again + 1}" if again else ""), rate))
    return out


VERSION_IN_HTML = re.compile(rb'data-version="(\d+)"')


@dataclass(frozen=True)
class Plan:
    tables: int
    seconds: float
    drain: float
    connect_timeout: float


QUICK = Plan(tables=20, seconds=10, drain=10, connect_timeout=60)
FULL = Plan(tables=200, seconds=20, drain=20, connect_timeout=180)


def _goal(ok: bool) -> str:
    return "goal met" if ok else "GOAL MISSED"


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def _ms(values: list[float]) -> str:
    if not values:
        return "n/a"
    return (
        f"p50 {_pct(values, 50) * 1000:.0f} ms, p95 {_pct(values, 95) * 1000:.0f} ms, "
        f"max {max(values) * 1000:.0f} ms"
    )


# --- The database and the Django side ---------------------------------------------------------


class Database:
    """A fresh bench database: PostgreSQL beside DATABASE_URL's, or a temporary SQLite file."""

    def __init__(self, *, embedded: bool = False) -> None:
        # The embedded shape runs on SQLite, as `make run` does, whatever DATABASE_URL says.
        self.admin_url = "" if embedded else os.environ.get("DATABASE_URL", "").strip()
        self.postgres = self.admin_url.startswith(("postgres://", "postgresql://", "pgsql://"))
        self.tmp = tempfile.TemporaryDirectory(prefix="dd-bench-")
        if self.postgres:
            self.name = f"dd_bench_{uuid.uuid4().hex[:10]}"
            parts = urlsplit(self.admin_url)
            self.url = urlunsplit(parts._replace(path="/" + self.name))
            self._admin(f'CREATE DATABASE "{self.name}"')
        else:
            self.name = str(Path(self.tmp.name) / "bench.sqlite3")
            self.url = f"sqlite:///{self.name}"

    def _admin(self, sql: str) -> None:
        import psycopg

        parts = urlsplit(self.admin_url)
        maintenance = urlunsplit(parts._replace(path="/postgres", scheme="postgresql"))
        with psycopg.connect(maintenance, autocommit=True) as conn:
            conn.execute(sql)

    def drop(self) -> None:
        if self.postgres:
            from django.db import connections

            connections.close_all()
            with contextlib.suppress(Exception):
                self._admin(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
        self.tmp.cleanup()


def django_setup(db: Database) -> None:
    os.environ["DATABASE_URL"] = db.url
    os.environ["DJANGO_SETTINGS_MODULE"] = "dustdevils.settings"
    import django
    from django.conf import settings

    if settings.configured:
        print("  (Django was set up before this bench; its database settings stand)")
    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


@dataclass
class Tables:
    cookies: dict[str, str]  # username -> sessionid
    users: list[str]  # dealer first
    tables: list[tuple[str, int, list[str]]]  # (slug, conflict id, the players' pids)
    floor: list[int]  # conflicts no screen watches, for the floor's bare moves (floor.py)


def build_tables(count: int, players: int = PLAYERS) -> Tables:
    """``count`` conflicts, each with the Dealer and ``players`` players (one PC each)."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.auth.models import User
    from django.contrib.sessions.backends.db import SessionStore

    from campaigns.models import Membership
    from campaigns.services import campaign_create
    from characters.services import character_create
    from conflicts.services import HandSpec, conflict_create, pid_of

    # The backend a login records: the settings' own (axes' standalone backend only checks).
    backend = next(b for b in settings.AUTHENTICATION_BACKENDS if not b.startswith("axes."))
    names = ["dealer"] + [f"player{i}" for i in range(1, players + 1)]
    users = [User.objects.create_user(n, password=None) for n in names]
    cookies = {}
    for user in users:
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = backend
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        cookies[user.username] = session.session_key
    tables, floor = [], []
    for t in range(count):
        campaign = campaign_create(dealer=users[0], name=f"Bench table {t + 1}")
        Membership.objects.bulk_create(
            Membership(campaign=campaign, user=u, role=Membership.Role.PLAYER) for u in users[1:]
        )
        pcs = [character_create(campaign=campaign, kind="pc", player=u, data=_sheet(u.username),
                                knacks=KNACKS) for u in users[1:]]  # fmt: skip
        conflict = conflict_create(
            campaign=campaign,
            actor=users[0],
            title=f"Showdown {t + 1}",
            hands=[*(HandSpec(character=pc, goal="Hold the line") for pc in pcs),
                   HandSpec(stud_size=5, goal="The posse")],
        )  # fmt: skip
        tables.append((campaign.slug, conflict.pk, [pid_of(pc) for pc in pcs]))
        if t < FLOOR_ROWS:
            floor.append(
                conflict_create(
                    campaign=campaign, actor=users[0], title=f"Floor {t + 1}",
                    hands=[HandSpec(character=pcs[0]), HandSpec(stud_size=5)],
                ).pk
            )  # fmt: skip
    return Tables(cookies=cookies, users=names, tables=tables, floor=floor)


FLOOR_ROWS = 10
KNACKS = {"Shootin'": 4, "Ridin'": 3, "Drinkin'": 2, "Gamblin'": 2}


def _sheet(name: str) -> dict[str, Any]:
    return {
        "name": name.title(), "vocation": "Drifter", "hand": 4, "eye": 3, "guts": 3, "heart": 3,
        "trait_1": "Quick as a rattler", "trait_2": "Stubborn as a mule",
        "devil": "Ran from the war.", "devil_rating": 2,
    }  # fmt: skip


def queries_per_render() -> list[tuple[int, str, int, int, float]]:
    """(players, viewer, queries, bytes, median seconds) for one panel render, in this
    process."""
    from django.contrib.auth.models import User
    from django.db import connection
    from django.template.loader import render_to_string
    from django.test.utils import CaptureQueriesContext

    from campaigns.models import Membership
    from conflicts.models import Conflict

    out = []
    for players in (2, 6):
        built = build_small(players)
        conflict = Conflict.objects.select_related("campaign", "session").get(pk=built)
        for username in ("qdealer", "qplayer1"):
            user = User.objects.get(username=username)
            membership = Membership.objects.select_related("campaign", "user").get(
                user=user, campaign=conflict.campaign
            )
            render_to_string("conflicts/detail.html#main", _ctx(conflict, membership))  # warm
            conflict = Conflict.objects.select_related("campaign", "session").get(pk=built)
            with CaptureQueriesContext(connection) as captured:
                html = render_to_string("conflicts/detail.html#main", _ctx(conflict, membership))
            times = []
            for _ in range(10):
                started = time.perf_counter()
                render_to_string("conflicts/detail.html#main", _ctx(conflict, membership))
                times.append(time.perf_counter() - started)
            out.append(
                (players, username[1:], len(captured.captured_queries), len(html),
                 statistics.median(times))
            )  # fmt: skip
    return out


def _ctx(conflict: Any, membership: Any) -> dict[str, Any]:
    from conflicts.reads import table_read
    from conflicts.selectors import conflict_view

    context = conflict_view(table_read(conflict.pk), membership)
    context.update(notice="", error="")
    return context


def build_small(players: int) -> int:
    from django.contrib.auth.models import User

    from campaigns.models import Membership
    from campaigns.services import campaign_create
    from characters.services import character_create
    from conflicts.services import HandSpec, conflict_create

    def user(name: str) -> User:
        return User.objects.get_or_create(username=name)[0]

    dealer = user("qdealer")
    campaign = campaign_create(dealer=dealer, name=f"Queries {players}")
    pcs = []
    for i in range(1, players + 1):
        u = user(f"qplayer{i}")
        Membership.objects.create(campaign=campaign, user=u, role=Membership.Role.PLAYER)
        pcs.append(character_create(campaign=campaign, kind="pc", player=u,
                                    data=_sheet(u.username), knacks=KNACKS))  # fmt: skip
    conflict = conflict_create(
        campaign=campaign, actor=dealer, title=f"{players} players",
        hands=[*(HandSpec(character=pc) for pc in pcs), HandSpec(stud_size=5)],
    )  # fmt: skip
    return int(conflict.pk)


# --- uvicorn -----------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


SHAPES = {
    "production": "gunicorn for pages and moves + uvicorn for the streams, Redis pub/sub "
    "(deploy/: the proxy routes */stream/ to uvicorn; here the client addresses each directly)",
    "uvicorn": "2 uvicorn processes, Redis pub/sub",
    "embedded": "1 uvicorn process, in-process broadcaster (what `make run` serves)",
}


def process_tree(roots: list[int]) -> set[int]:
    """The given processes and all their descendants (gunicorn's workers), from /proc."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat[stat.rindex(")") + 2 :].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
    out, todo = set(), list(roots)
    while todo:
        pid = todo.pop()
        if pid not in out:
            out.add(pid)
            todo += children.get(pid, [])
    return out


class Servers:
    """The app served in one of the SHAPES, on loopback ports of its own."""

    def __init__(self, db_url: str, shape: str, log_dir: Path, settings_module: str) -> None:
        self.db_url = db_url
        self.procs: list[subprocess.Popen[bytes]] = []
        self.names: list[str] = []  # each process's server: "gunicorn" or "uvicorn"
        self.page_ports: list[int] = []  # pages and moves
        self.stream_ports: list[int] = []  # the live streams
        self.log_dir = log_dir
        env = os.environ | {
            "DATABASE_URL": db_url,
            "DJANGO_SETTINGS_MODULE": settings_module,
            "PYTHONUNBUFFERED": "1",
            "LIVE_SENT_AT": "1",  # each update says when the server sent it
            "PYTHONPATH": str(SERVE),
        }
        if shape == "embedded":
            env.pop("REDIS_URL", None)  # the in-process broadcaster, as `make run` has it
        if shape == "production":
            self.page_ports.append(self._start("gunicorn", env, [
                "gunicorn", "dustdevils.wsgi:application", "--workers", "2",
                "--worker-class", "gthread", "--threads", "8", "--keep-alive", "5",
                "--log-level", "warning", "--backlog", "4096"]))  # fmt: skip
            self.stream_ports.append(self._start("uvicorn", env, self.UVICORN))
        else:
            for _ in range(2 if shape == "uvicorn" else 1):
                port = self._start("uvicorn", env, self.UVICORN)
                self.page_ports.append(port)
                self.stream_ports.append(port)

    UVICORN: ClassVar[list[str]] = [
        "uvicorn", "dustdevils.asgi:application", "--lifespan", "off", "--no-access-log",
        "--log-level", "warning", "--backlog", "4096",
    ]  # fmt: skip

    def _start(self, name: str, env: dict[str, str], command: list[str]) -> int:
        port = _free_port()
        bind = (
            ["--bind", f"{HOST}:{port}"]
            if name == "gunicorn"
            else ["--host", HOST, "--port", str(port)]
        )
        with (self.log_dir / f"{name}-{len(self.procs)}.log").open("w") as log:
            proc = subprocess.Popen(
                [sys.executable, "-m", *command, *bind],
                cwd=SERVE, env=env, stdout=log, stderr=subprocess.STDOUT,
            )  # fmt: skip
        self.procs.append(proc)
        self.names.append(name)
        return port

    def pids(self) -> dict[str, set[int]]:
        """The serving processes (and their children: gunicorn's workers) by server: where a
        move's CPU goes, the pages and moves or the streams."""
        out: dict[str, set[int]] = {}
        for name, proc in zip(self.names, self.procs, strict=True):
            out.setdefault(name, set()).update(process_tree([proc.pid]))
        return out

    def wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        for port in dict.fromkeys(self.page_ports + self.stream_ports):
            while True:
                if any(proc.poll() is not None for proc in self.procs):
                    raise RuntimeError(f"a server exited: see {self.log_dir}")
                try:
                    with urllib.request.urlopen(f"http://{HOST}:{port}/healthz", timeout=2):
                        break
                except (urllib.error.URLError, ConnectionError, TimeoutError):
                    if time.monotonic() > deadline:
                        raise RuntimeError("a server did not answer /healthz") from None
                    time.sleep(0.2)

    def memory(self) -> list[tuple[int, int, int]]:
        """(pid, VmRSS kB, VmHWM kB) per serving process (gunicorn's workers, not its master)."""
        out = []
        for pid in sorted(set().union(*self.pids().values())):
            fields = {}
            with contextlib.suppress(OSError):
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    key, _, value = line.partition(":")
                    if key in ("VmRSS", "VmHWM"):
                        fields[key] = int(value.split()[0])
            if fields.get("VmRSS", 0) > 30 * 1024:
                out.append((pid, fields.get("VmRSS", 0), fields.get("VmHWM", 0)))
        return out

    def show_errors(self, lines: int = 12) -> None:
        """The last error lines of each server's log (the logs go with the temporary folder)."""
        for log_file in sorted(self.log_dir.glob("*.log")):
            log = log_file.read_text(errors="replace").splitlines()
            errors = [line for line in log if "Error" in line or "error" in line]
            for line in errors[-lines:]:
                print(f"    {log_file.stem}: {line[:200]}")

    def stop(self) -> None:
        for proc in self.procs:
            proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


# --- The clients (one asyncio loop) ------------------------------------------------------------


@dataclass
class Stream:
    table: int
    snapshot: asyncio.Event = field(default_factory=asyncio.Event)
    seen: dict[int, float] = field(default_factory=dict)  # version -> arrival (exact ids)
    sent: dict[int, float] = field(default_factory=dict)  # version -> the server's send time
    top: int = -1
    events: int = 0
    error: str = ""


@dataclass
class Action:
    table: int
    started: float
    wall: float = 0.0  # time.time() at the start (the server's clock: same machine)
    post_seconds: float = 0.0
    version: int | None = None
    error: str = ""


class Load:
    def __init__(self, built: Tables, servers: Servers) -> None:
        self.built = built
        self.page_ports = servers.page_ports
        self.stream_ports = servers.stream_ports
        self.streams: list[Stream] = []
        self.by_table: dict[int, list[Stream]] = {}
        self.versions = [0] * len(built.tables)
        self.busy = [False] * len(built.tables)
        self.turn = [0] * len(built.tables)
        self.csrf: dict[str, str] = {}
        self.actions: list[Action] = []
        self.tasks: list[asyncio.Task[None]] = []

    def base(self, i: int) -> str:
        """Where pages and moves go (spread over the page servers by ``i``)."""
        return f"http://{HOST}:{self.page_ports[i % len(self.page_ports)]}"

    def stream_base(self, i: int) -> str:
        return f"http://{HOST}:{self.stream_ports[i % len(self.stream_ports)]}"

    def headers(self, username: str) -> dict[str, str]:
        cookie = f"sessionid={self.built.cookies[username]}"
        if username in self.csrf:
            cookie += f"; csrftoken={self.csrf[username]}"
        return {"Cookie": cookie}

    async def stream_available(self, session: Any) -> bool:
        slug, cid, _ = self.built.tables[0]
        url = f"{self.stream_base(0)}/c/{slug}/conflicts/{cid}/stream/"
        try:
            async with session.get(url, headers=self.headers("dealer")) as response:
                kind = response.headers.get("Content-Type", "")
                return response.status == 200 and kind.startswith("text/event-stream")
        except Exception:  # noqa: BLE001 — any failure means there is no usable stream
            return False

    async def get_csrf(self, session: Any) -> None:
        """A GET of the conflict page gives each user the csrftoken cookie."""
        slug, cid, _ = self.built.tables[0]
        for username in self.built.users:
            url = f"{self.base(0)}/c/{slug}/conflicts/{cid}/"
            async with session.get(url, headers=self.headers(username)) as response:
                await response.read()
                morsel = response.cookies.get("csrftoken")
                if morsel is not None:
                    self.csrf[username] = morsel.value

    async def open_streams(self, session: Any) -> None:
        n = 0
        for t, (slug, cid, _) in enumerate(self.built.tables):
            mine = self.by_table.setdefault(t, [])
            for username in self.built.users[:STREAMS_PER_TABLE]:
                stream = Stream(t)
                mine.append(stream)
                self.streams.append(stream)
                url = f"{self.stream_base(t if AFFINITY else n)}/c/{slug}/conflicts/{cid}/stream/"
                self.tasks.append(asyncio.create_task(self.read(session, url, username, stream)))
                n += 1

    async def read(self, session: Any, url: str, username: str, stream: Stream) -> None:
        """Raw chunks; only each event's head (id, event) is parsed, never its HTML."""
        try:
            async with session.get(url, headers=self.headers(username)) as response:
                if response.status != 200:
                    stream.error = f"HTTP {response.status}"
                    return
                buf = b""
                async for chunk in response.content.iter_any():
                    now = time.perf_counter()
                    buf += chunk
                    start = 0
                    while (end := buf.find(b"\n\n", start)) >= 0:
                        self.event(stream, buf[start : start + 100], now)
                        start = end + 2
                    if start:
                        buf = buf[start:]
        except asyncio.CancelledError:
            raise
        except Exception as error:  # noqa: BLE001 — counted, the run goes on
            stream.error = repr(error)

    @staticmethod
    def event(stream: Stream, head: bytes, now: float) -> None:
        if not head.startswith(b"id: "):
            return  # a ping, or a status event
        line, _, rest = head.partition(b"\n")
        version = int(line[4:])
        stream.events += 1
        if rest.startswith(b"event: snapshot"):
            stream.top = max(stream.top, version)
            stream.snapshot.set()
            return
        stream.seen.setdefault(version, now)
        stream.top = max(stream.top, version)
        stamp = rest.find(b"\n: sent ")
        if stamp >= 0:
            line_end = rest.find(b"\n", stamp + 1)
            stream.sent.setdefault(version, float(rest[stamp + 8 : line_end]))

    async def act(self, session: Any, t: int) -> None:
        slug, cid, pids = self.built.tables[t]
        turn = self.turn[t]
        self.turn[t] += 1
        k = turn % len(pids)
        username = self.built.users[1 + k]
        pair = PAIRS[(turn // len(pids)) % 2]
        data = [("version", str(self.versions[t])), ("key", uuid.uuid4().hex), ("pid", pids[k])]
        data += [("attributes", a) for a in pair]
        headers = self.headers(username) | {
            "X-CSRFToken": self.csrf.get(username, ""),
            "HX-Request": "true",
        }
        action = Action(t, time.perf_counter(), time.time())
        self.actions.append(action)
        url = f"{self.base(t if AFFINITY else t + k)}/c/{slug}/conflicts/{cid}/move/propose/"
        try:
            async with session.post(url, data=data, headers=headers) as response:
                body = await response.read()
                action.post_seconds = time.perf_counter() - action.started
                found = VERSION_IN_HTML.search(body)
                if response.status != 200 or found is None:
                    action.error = f"HTTP {response.status}"
                elif b'role="alert"' in body:
                    action.error = "refused"
                    self.versions[t] = int(found.group(1))
                else:
                    action.version = int(found.group(1))
                    self.versions[t] = action.version
        except Exception as error:  # noqa: BLE001
            action.error = repr(error)
            action.post_seconds = time.perf_counter() - action.started
        finally:
            self.busy[t] = False

    async def floor_move(self, session: Any, row: int) -> str:
        """The floor's "move": one locked POST, then the seven screens' GETs at once."""
        dealer = self.built.users[0]
        headers = self.headers(dealer) | {"X-CSRFToken": self.csrf.get(dealer, "")}
        try:
            async with session.post(f"{self.base(row)}/floor/{row}/move/", headers=headers) as r:
                await r.read()
                if r.status != 200:
                    return f"POST HTTP {r.status}"

            # The streams' side of the design: ONE read and 7 renders, on a streams' server.
            url = f"{self.stream_base(row)}/floor/{row}/screens/"
            async with session.get(url, headers=self.headers(dealer)) as r:
                await r.read()
                return "" if r.status == 200 else f"GET HTTP {r.status}"
        except Exception as error:  # noqa: BLE001 — counted, the run goes on
            return repr(error)[:60]

    async def floor(self, session: Any, rate: float, seconds: float) -> tuple[int, dict[str, int]]:
        """Floor moves at ``rate``/s for ``seconds``, round robin over the floor rows."""
        started = time.perf_counter()
        tasks: list[asyncio.Task[str]] = []
        while (elapsed := time.perf_counter() - started) < seconds:
            due = int(elapsed * rate) + 1
            while len(tasks) < due:
                row = self.built.floor[len(tasks) % len(self.built.floor)]
                tasks.append(asyncio.create_task(self.floor_move(session, row)))
            await asyncio.sleep(max(0.0, (due / rate) - (time.perf_counter() - started)))
        results = await asyncio.gather(*tasks)
        errors: dict[str, int] = {}
        for error in results:
            if error:
                errors[error] = errors.get(error, 0) + 1
        return sum(1 for e in results if not e), errors

    async def drive(self, session: Any, rate: float, seconds: float) -> tuple[int, int, float]:
        """Open loop at ``rate`` moves/s, round robin over the tables, one move in flight per
        table (a busy table's turn is skipped and counted)."""
        started = time.perf_counter()
        sent = skipped = 0
        pending: set[asyncio.Task[None]] = set()
        t = 0
        while (elapsed := time.perf_counter() - started) < seconds:
            due = int(elapsed * rate) + 1
            while sent + skipped < due:
                if self.busy[t]:
                    skipped += 1
                else:
                    self.busy[t] = True
                    task = asyncio.create_task(self.act(session, t))
                    pending.add(task)
                    task.add_done_callback(pending.discard)
                    sent += 1
                t = (t + 1) % len(self.busy)
            await asyncio.sleep(max(0.0, (due / rate) - (time.perf_counter() - started)))
        window = time.perf_counter() - started  # the sending, without the moves still in flight
        if pending:
            await asyncio.wait(pending, timeout=30)
        return sent, skipped, window


@dataclass
class Figures:
    sent: int
    skipped: int
    seconds: float
    ok: int
    errors: dict[str, int]
    expected: int
    received: int
    exact: int
    fanout: list[float]
    server: list[float]  # the same, up to the server's send (the client's reading left out)
    posts: list[float]
    window: float  # the sending alone
    cpu: dict[str, float] = field(default_factory=dict)  # CPU seconds used in the phase, by whom
    span: float = 0.0  # the seconds the CPU was counted over (the phase and its drain)
    idle: dict[str, float] = field(default_factory=dict)  # CPU s a second, every stream idle

    @property
    def applied(self) -> float:
        """Moves sent on schedule AND accepted, per second of sending: the rate the table was
        actually driven at (a turn skipped because its table was still busy, or a refused
        move, does not count)."""
        return min(self.sent, self.ok) / self.window if self.window else 0.0


def measure(
    load: Load, actions: list[Action], sent: int, skipped: int, secs: float, window: float
) -> Figures:
    errors: dict[str, int] = {}
    expected = received = exact = 0
    fanout: list[float] = []
    server: list[float] = []
    for action in actions:
        if action.version is None:
            errors[action.error[:60]] = errors.get(action.error[:60], 0) + 1
            continue
        arrivals = []
        sends = []
        connected = [s for s in load.by_table[action.table] if s.snapshot.is_set()]
        for stream in connected:  # a stream that never opened is reported apart
            expected += 1
            if action.version in stream.seen:
                exact += 1
            later = [at for v, at in stream.seen.items() if v >= action.version]
            if later:
                received += 1
                arrivals.append(min(later))
            first = min((v for v in stream.seen if v >= action.version), default=None)
            if first is not None and first in stream.sent:
                sends.append(stream.sent[first])
        if connected and len(arrivals) == len(connected):
            fanout.append(max(arrivals) - action.started)
        if connected and len(sends) == len(connected):
            server.append(max(sends) - action.wall)
    ok = sum(1 for a in actions if a.version is not None)
    posts = [a.post_seconds for a in actions if a.version is not None]
    return Figures(
        sent, skipped, secs, ok, errors, expected, received, exact, fanout, server, posts, window
    )


def db_backends(db_url: str) -> set[int]:
    """The PostgreSQL backends of this run's own database (none on SQLite): the servers'
    connections, and nobody else's — other databases on the host are not this run's."""
    if not db_url.startswith(("postgres://", "postgresql://")):
        return set()
    import psycopg

    url = urlunsplit(urlsplit(db_url)._replace(scheme="postgresql"))
    with psycopg.connect(url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid()"
        ).fetchall()
    return {int(pid) for (pid,) in rows}


def cpu_seconds(servers: dict[str, set[int]], db_url: str = "") -> dict[str, float]:
    """CPU seconds (user + system) used so far by this run's servers, its database's backends
    and this client, from /proc: where a move's CPU goes on the shared cores. Not every
    PostgreSQL or Redis process on the host (issue 29): Redis, shared, is not counted."""
    tick = os.sysconf("SC_CLK_TCK")
    out = dict.fromkeys([*servers, "PostgreSQL", "load client"], 0.0)
    backends = db_backends(db_url)
    me = os.getpid()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        used = (int(fields[11]) + int(fields[12])) / tick  # utime, stime
        pid = int(entry.name)
        server = next((name for name, pids in servers.items() if pid in pids), None)
        if server is not None:
            out[server] += used
        elif pid == me:
            out["load client"] += used
        elif pid in backends:
            out["PostgreSQL"] += used
    return out


def held(f: Figures, rate: int) -> bool:
    """The server kept up at ``rate``: the rate was applied, nothing lost, and every screen had
    each move within the goal (server-side p95)."""
    lost = f.expected - f.received
    p95 = _pct(f.server, 95) * 1000 if f.server else float("inf")
    return f.applied >= 0.95 * rate and lost == 0 and p95 <= GOALS["p95_ms"]


async def run_load(built: Tables, servers: Servers, plan: Plan) -> dict[str, Any] | None:
    import aiohttp

    # Reuse a connection only while the server keeps it (uvicorn's keep-alive is 5 s, and
    # gunicorn's is set to 5 s): a reused connection the server is closing fails a POST (a
    # client race, not a server error).
    connector = aiohttp.TCPConnector(limit=0, force_close=False, keepalive_timeout=3)
    timeout = aiohttp.ClientTimeout(total=None, sock_connect=30)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        load = Load(built, servers)
        if not await load.stream_available(session):
            return None
        await load.get_csrf(session)
        t0 = time.perf_counter()
        await load.open_streams(session)
        waiting = [asyncio.create_task(s.snapshot.wait()) for s in load.streams]
        done, not_done = await asyncio.wait(waiting, timeout=plan.connect_timeout)
        for task in not_done:
            task.cancel()
        connect = time.perf_counter() - t0
        out: dict[str, Any] = {
            "streams": len(load.streams),
            "connected": len(done),
            "connect_seconds": connect,
        }
        # The floor first, on the same servers with every stream open and idle.
        print(f"  … floor: {GOALS['fanout_rate']} bare moves/s", file=sys.stderr, flush=True)
        await load.floor(session, GOALS["fanout_rate"], 1)  # warm: templates, connections
        cpu_before = cpu_seconds(servers.pids(), servers.db_url)
        moves, errors = await load.floor(session, GOALS["fanout_rate"], min(plan.seconds, 10))
        cpu_after = cpu_seconds(servers.pids(), servers.db_url)
        out["floor"] = (moves, errors, {k: cpu_after[k] - cpu_before[k] for k in cpu_after})
        # What the open streams cost with no move at all (their pings, the pool's checks): a
        # phase's CPU a move counts it too, bench_cost's in-process figure does not.
        cpu_before, idle_from = cpu_seconds(servers.pids(), servers.db_url), time.perf_counter()
        await asyncio.sleep(IDLE_SECONDS)
        cpu_after, idle_span = cpu_seconds(servers.pids(), servers.db_url), time.perf_counter()
        idle = {k: (cpu_after[k] - cpu_before[k]) / (idle_span - idle_from) for k in cpu_after}

        async def phase(name: str, rate: int, seconds: float) -> Figures:
            if name != "L":  # a phase before may have overloaded it
                await _drain(load, load.actions, 90)
            first = len(load.actions)
            cpu_before = cpu_seconds(servers.pids(), servers.db_url)
            started = time.perf_counter()
            # Progress on stderr (the report comes at the end): also a cue for a profiler.
            print(f"  … phase {name}: {rate} actions/s for {seconds:.0f} s", file=sys.stderr,
                  flush=True)  # fmt: skip
            sent, skipped, window = await load.drive(session, rate, seconds)
            elapsed = time.perf_counter() - started  # the window, and the moves in flight
            moves = load.actions[first:]
            await _drain(load, moves, plan.drain)
            figures = measure(load, moves, sent, skipped, elapsed, window)
            cpu_after = cpu_seconds(servers.pids(), servers.db_url)
            figures.cpu = {k: cpu_after[k] - cpu_before[k] for k in cpu_after}
            figures.span, figures.idle = time.perf_counter() - started, idle
            return figures

        out["L"] = await phase("L", LIGHT_RATE, min(plan.seconds, 10))
        out["A"] = await phase("A", GOALS["fanout_rate"], plan.seconds)
        # The knee: BENCH_RATES as asked, or steps of 10 actions/s up from the goal's rate
        # until the server stops keeping up (short phases: only whether it held counts).
        out["knee"] = GOALS["fanout_rate"] if held(out["A"], GOALS["fanout_rate"]) else None
        steps = extra_phases() or [
            (f"+{r}", r) for r in range(GOALS["fanout_rate"] + 10, KNEE_MAX + 1, 10)
        ]
        for name, rate in steps if out["knee"] or EXTRA_RATES else ():
            out[name] = await phase(name, rate, min(plan.seconds, 10))
            if not EXTRA_RATES and not held(out[name], rate):
                break
            if held(out[name], rate):
                out["knee"] = max(out["knee"] or 0, rate)
        out["stream_errors"] = sorted({s.error[:80] for s in load.streams if s.error})
        for task in load.tasks:
            task.cancel()
        await asyncio.gather(*load.tasks, return_exceptions=True)
        return out


async def _drain(load: Load, actions: list[Action], seconds: float) -> None:
    """Wait (bounded) until every stream has the last version its table reached."""
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        last: dict[int, int] = {}
        for a in actions:
            if a.version is not None:
                last[a.table] = max(last.get(a.table, -1), a.version)
        if all(s.top >= v for t, v in last.items() for s in load.by_table[t]):
            return
        await asyncio.sleep(0.2)


# --- Report ------------------------------------------------------------------------------------


def report_phase(name: str, rate: int, f: Figures, tables: int, streams: int) -> None:
    lost = f.expected - f.received
    print(
        f"  phase {name}: target {rate} actions/s, {f.seconds:.0f} s (sending, then the moves in "
        f"flight) over {tables} tables × "
        f"{STREAMS_PER_TABLE} streams ({streams} streams)"
    )
    print(
        f"    actions: {f.sent} sent in {f.window:.1f} s, {f.ok} accepted = {f.applied:.1f} "
        f"actions/s applied ({f.ok / f.seconds:.1f}/s counting until the last answer)"
        f"; {f.skipped} turns skipped (table still busy)"
        + (f"; failed: {f.errors}" if f.errors else "")
    )
    print(
        f"    updates: {f.expected} expected, {f.received} received, lost {lost} "
        f"({f.exact} with the exact version id; the rest arrived as a later version)"
    )
    print(f"    action → all open screens: {_ms(f.fanout)} ({len(f.fanout)} actions fully seen)")
    print(f"      server-side (POST sent → the last stream's update written): {_ms(f.server)}")
    print(f"    table action (POST, htmx): {_ms(f.posts)}")
    if f.ok and f.cpu:
        per_move = ", ".join(f"{who} {used / f.ok * 1000:.1f}" for who, used in f.cpu.items())
        print(
            f"    CPU per accepted move, ms (the phase and its drain, {sum(f.cpu.values()):.1f} "
            f"CPU-s in all): {per_move}"
        )
        if "uvicorn" in f.idle:
            print(
                f"      uvicorn net of what its idle streams cost ({f.idle['uvicorn'] * 1000:.0f} "
                f"ms a second, no move): {net_per_move(f, 'uvicorn'):.1f} ms a move "
                "(what bench_cost's streams figure counts)"
            )


def net_per_move(f: Figures, who: str) -> float:
    """``who``'s CPU ms a move, less what it spends over the phase with no move at all."""
    if not f.ok:
        return float("nan")
    return (f.cpu.get(who, 0.0) - f.idle.get(who, 0.0) * f.span) / f.ok * 1000


def cpu_per_move(cpu: dict[str, float], moves: int) -> float:
    """ms of CPU per move on the serving side: this run's servers and database backends."""
    used = sum(v for k, v in cpu.items() if k != "load client")
    return used / moves * 1000 if moves else float("nan")


def summary(phases: dict[str, tuple[int, Figures]]) -> dict[str, Any]:
    """Each phase's figures a BENCH_BASE comparison sets side by side."""
    out = {}
    for name, (rate, f) in phases.items():
        out[name] = {
            "rate": rate, "applied": f.applied, "lost": f.expected - f.received,
            "p50": _pct(f.server, 50) * 1000 if f.server else None,
            "p95": _pct(f.server, 95) * 1000 if f.server else None,
            "cpu": {who: used / f.ok * 1000 for who, used in f.cpu.items()} if f.ok else {},
            "uvicorn_net": net_per_move(f, "uvicorn") if "uvicorn" in f.idle else None,
        }  # fmt: skip
    return out


def compare(shape: str, runs: dict[str, dict[str, Any]]) -> None:
    """BENCH_BASE: the base's and this checkout's phases side by side."""
    print(f"Live table load, {shape} shape: {' against '.join(runs)} (same sitting)")
    base, this = runs.get("base", {}), runs.get("this", {})
    for name in this:
        b, t = base.get(name), this[name]
        if b is None:
            continue

        def cell(d: dict[str, Any]) -> str:
            cpu = " / ".join(f"{d['cpu'].get(w, 0):.1f}" for w in ("gunicorn", "uvicorn"))
            p95 = "—" if d["p95"] is None else f"{d['p95']:.0f}"
            net = d.get("uvicorn_net")
            idle = "" if net is None else f" (uvicorn net of idle streams {net:.1f})"
            return f"p95 {p95} ms, lost {d['lost']}, CPU gunicorn / uvicorn {cpu} ms a move{idle}"

        print(f"  phase {name} ({t['rate']}/s): base {cell(b)}")
        print(f"  {' ' * (len(name) + 8 + len(str(t['rate'])))}this {cell(t)}")


def main() -> int:
    shape = os.environ.get("BENCH_SHAPE", "").strip()
    base = os.environ.get("BENCH_BASE", "").strip()
    if shape and shape not in SHAPES:
        print(f"  BENCH_SHAPE must be one of {', '.join(SHAPES)}; nothing measured")
        return 0
    if shape and (os.environ.get("BENCH_SERVE") or not base):
        return run_shape(shape)  # one run: BENCH_BASE's runs set BENCH_SERVE
    # Both shapes people run (or BENCH_SHAPE's), each in a process of its own (Django is set
    # up once a process): production (needs Redis) and the embedded default. BENCH_BASE: the
    # base's code served first, then this checkout's, in the same sitting.
    redis = bool(os.environ.get("REDIS_URL", "").strip())
    trees = [("base", Path(base).resolve())] if base else []
    trees.append(("this", ROOT))
    code = "import sys; from tests.benchmarks import bench_live as b; sys.exit(b.main())"
    # One secret key for the builder and every checkout served (each would make its own: the
    # sessions the bench writes would not be the served app's).
    secret = {"SECRET_KEY": os.environ.get("SECRET_KEY") or "bench-" + uuid.uuid4().hex * 2}
    shapes = [shape] if shape else ["production", "embedded"] if redis else ["embedded"]
    for each in shapes:
        runs: dict[str, dict[str, Any]] = {}
        for name, tree in trees:
            env = os.environ | secret | {"BENCH_SHAPE": each, "BENCH_SERVE": str(tree)}
            done = subprocess.run(
                [sys.executable, "-c", code], cwd=ROOT, env=env, check=False,
                stdout=subprocess.PIPE, text=True,
            )  # fmt: skip
            for line in done.stdout.splitlines():
                if line.startswith("BENCH_LIVE "):
                    runs[name] = json.loads(line.removeprefix("BENCH_LIVE "))
                else:
                    print(line, flush=True)
        if base:
            compare(each, runs)
    if not redis:
        print("  (the production shape needs REDIS_URL: gunicorn and uvicorn share Redis)")
    return 0


def run_shape(shape: str) -> int:
    quick = "--quick" in sys.argv or os.environ.get("BENCH_QUICK", "").strip() == "1"
    plan = QUICK if quick else FULL
    # For exploring, not for the goals: BENCH_TABLES / BENCH_SECONDS change the plan's size.
    with contextlib.suppress(ValueError):
        plan = replace(plan, tables=int(os.environ.get("BENCH_TABLES", plan.tables)))
    with contextlib.suppress(ValueError):
        plan = replace(plan, seconds=float(os.environ.get("BENCH_SECONDS", plan.seconds)))
    try:
        import aiohttp  # noqa: F401
    except ImportError:
        print("  aiohttp is missing: pip install -e '.[dev]'; nothing measured")
        return 0
    if shape != "embedded" and not os.environ.get("REDIS_URL", "").strip():
        print(f"  the {shape} shape needs REDIS_URL; nothing measured")
        return 0
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))
    db = Database(embedded=shape == "embedded")
    where = ("PostgreSQL" if db.postgres else "SQLite") + f"; {SHAPES[shape]}"
    if AFFINITY:
        where += "; each table's streams and moves on one process (BENCH_AFFINITY=1)"
    print(f"Live table load, {shape} shape ({'quick' if quick else 'full'} run; {where}; "
          f"loopback only; serving {SERVE}; load {os.getloadavg()[0]:.1f})")  # fmt: skip
    servers: Servers | None = None
    try:
        started = time.perf_counter()
        django_setup(db)
        built = build_tables(plan.tables)
        print(f"  built {plan.tables} tables × {PLAYERS} players in "
              f"{time.perf_counter() - started:.1f} s")  # fmt: skip
        panel_sizes = []
        for players, viewer, queries, size, took in queries_per_render():
            panel_sizes.append(size)
            print(
                f"  DB queries per panel render, {players}-player table, as the {viewer}: "
                f"{queries} ({size / 1024:.0f} KiB of HTML, {took * 1000:.1f} ms in-process)"
            )
        from django.db import connections

        connections.close_all()
        # The floor renders panels of the app's real size (a 6-player table's, as its viewers).
        os.environ["FLOOR_PANEL_BYTES"] = str(round(statistics.mean(panel_sizes[-2:])))
        servers = Servers(db.url, shape, Path(db.tmp.name), "tests.benchmarks.floor_settings")
        servers.wait_ready()
        result = asyncio.run(run_load(built, servers, plan))
        if result is None:
            print("  stream endpoint not available (no text/event-stream at …/stream/); "
                  "nothing more measured")  # fmt: skip
            return 0
        missing = result["streams"] - result["connected"]
        print(
            f"  streams: {result['connected']}/{result['streams']} snapshots received in "
            f"{result['connect_seconds']:.1f} s"
            + (f" — {missing} NEVER OPENED (left out of the counts below)" if missing else "")
        )
        floor_moves, floor_errors, floor_cpu = result["floor"]
        a = result["A"]
        report_phase("L (light load)", LIGHT_RATE, result["L"], plan.tables, result["streams"])
        report_phase("A", GOALS["fanout_rate"], a, plan.tables, result["streams"])
        for name, rate in extra_phases() or [(k, int(k[1:])) for k in result if k[0] == "+"]:
            if name in result:
                report_phase(f"{name} (knee search)", rate, result[name], plan.tables,
                             result["streams"])  # fmt: skip
        if result["stream_errors"]:
            print(f"  stream errors: {result['stream_errors']}")
        if result["stream_errors"] or any(result[k].errors for k in result if k[0] in "LA+"):
            servers.show_errors()  # what the servers logged about the failures
        for pid, rss, hwm in servers.memory():
            print(f"  server pid {pid}: VmRSS {rss / 1024:.0f} MiB (peak {hwm / 1024:.0f} MiB)")
        full = plan.tables >= 200
        lost = a.expected - a.received + missing  # a screen that never opened got nothing
        # The goal says server-side: up to the server writing the last screen's update.
        p95 = _pct(a.server, 95) * 1000 if a.server else float("inf")
        seen95 = _pct(a.fanout, 95) * 1000 if a.fanout else float("inf")
        scale = "" if full else " (quick run: 20 tables, not the goal's 200)"
        # A goal counts only at (nearly) its rate: few losses at a fraction of it prove nothing.
        rate_a = a.applied >= 0.95 * GOALS["fanout_rate"]
        move_cost = cpu_per_move(a.cpu, a.ok)
        floor_cost = cpu_per_move(floor_cpu, floor_moves)
        print(
            f"  floor (bare Django, same servers, the app's sessions: 1 locked POST + 1 read + "
            f"{STREAMS_PER_TABLE} renders of a panel of the app's size, "
            f"{int(os.environ['FLOOR_PANEL_BYTES']) / 1024:.1f} KiB): {floor_moves} moves, "
            f"{floor_cost:.1f} ms CPU per move"
            + (f"; failed: {floor_errors}" if floor_errors else "")
        )
        print(
            f"  CPU per move at {GOALS['fanout_rate']}/s: {move_cost:.1f} ms (this run's servers "
            f"and its database's backends) = {move_cost / floor_cost:.2f} × the floor"
        )
        knee = result["knee"]
        print(f"  knee: {'below ' + str(GOALS['fanout_rate']) if knee is None else knee} "
              f"actions/s (the highest rate tried that held: applied, 0 lost, p95 ≤ "
              f"{GOALS['p95_ms']:.0f} ms; tried up to {KNEE_MAX})")  # fmt: skip
        print("  Goals (issue 16):")
        print(
            f"    200 tables × 7 streams at 50 actions/s, 0 lost: lost {lost} "
            f"at {a.applied:.1f} actions/s applied [{_goal(full and rate_a and lost == 0)}]{scale}"
        )
        print(
            f"    action → all screens p95 ≤ {GOALS['p95_ms']:.0f} ms server-side: {p95:.0f} ms "
            f"[{_goal(full and rate_a and p95 <= GOALS['p95_ms'])}]{scale} (as the load client "
            f"read them: {seen95:.0f} ms)"
        )
        if a.fanout:
            print(f"    (median action → all screens {statistics.median(a.fanout) * 1000:.0f} ms)")
        phases = {"L": (LIGHT_RATE, result["L"]), "A": (GOALS["fanout_rate"], a)}
        for name, rate in extra_phases() or [(k, int(k[1:])) for k in result if k[0] == "+"]:
            if name in result:
                phases[name] = (rate, result[name])
        print("BENCH_LIVE " + json.dumps(summary(phases)), flush=True)
        return 0
    finally:
        if servers is not None:
            servers.stop()
        db.drop()
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


if __name__ == "__main__":
    sys.exit(main())
