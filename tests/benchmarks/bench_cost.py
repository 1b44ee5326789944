"""Issue 29: what one table move costs, against this design's own floor, game by game.

A move at a live table is one locked POST (the mover's answer) and, in the streams' process,
ONE shared read of the table and a render of each open screen's panel from it. This bench does
exactly that in one process, through the app's own code: the POST through the whole middleware
stack with the app's session engine (Django's test client, a real session cookie), then the
streams' work through each game's ``LiveTable`` (``load`` once, ``panel`` per screen) — for a
conflict (a player's proposal), a fight (a player's roll against a TN) and a saloon game (a
player raising, then lowering, the Unwanted card), 7 screens each.

**The floor** is the same shape with nothing of ours in it: a locked POST through the same
middleware and session engine (a bare view: lock a row, bump its counter), one read of one row,
and 7 renders of a template of the conflict panels' real size (measured in the same run).

**CPU** is counted for this run only: this process's CPU time (``time.process_time``) and the
PostgreSQL backends of this run's own database (their pids from ``pg_stat_activity``, their
CPU from /proc) — not every PostgreSQL or Redis process on the host. Redis is not counted (a
publish and, with ``cached_db``, a session read: a fraction of a millisecond).

Printed, median of the rounds: CPU per move (the POST, the streams' read and renders, the
database), the ratio to the floor, queries per move, ms per extra screen (the slope from 1 to 7
screens), ms per timeline line (a conflict with 300 more lines), and a fight and a saloon move
against a conflict move. ``BENCH_BASE=/path/to/another/checkout`` measures that checkout in
the same sitting, rounds interleaved (base, this, base, this…), and prints both side by side:
the paired figure a saving is kept on (the median of each round's ratio to the base round
before it). ``BENCH_BASE_ENV=NAME=value,…``: the base rounds' environment only (with
``BENCH_BASE`` the same checkout: a setting's paired figure; ``BENCH_SETTING_<NAME>=value``
sets one Django setting). ``BENCH_ROUNDS`` (5), ``BENCH_MOVES`` (40 a game and round),
``BENCH_DB=sqlite`` (the embedded default's database; PostgreSQL when DATABASE_URL names one).
"""

from __future__ import annotations

import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import replace
from html import unescape
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SCREENS = 7
EXTRA_LINES = 300
VERSION_IN_HTML = re.compile(rb'data-version="(\d+)"')
PAIRS = (("hand", "eye"), ("guts", "heart"))
PLAYERS = 6
GAMES = ("conflict", "fight", "saloon", "showdown", "gunfighter", "draw")
OTHERS = ("fight", "saloon", "showdown", "gunfighter")  # each ≤ 1.2 × a conflict move
GOALS = {"ratio": 2.5, "queries": 10, "per_screen": 1.5, "per_line": 0.05, "vs_conflict": 1.2}


# --- In the measuring process (one per round and checkout) ------------------------------------


def _pg_cpu(monitor: Any, db: str) -> float:
    """CPU seconds used so far by this run's database backends (the monitor's own excluded)."""
    if monitor is None:
        return 0.0
    rows = monitor.execute(
        "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()", [db]
    ).fetchall()
    tick = os.sysconf("SC_CLK_TCK")
    used = 0.0
    for (pid,) in rows:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        used += (int(fields[11]) + int(fields[12])) / tick
    return used


class Meter:
    """This process's CPU and the run's database backends' CPU, in seconds, from a start."""

    def __init__(self, monitor: Any, db: str) -> None:
        self.monitor, self.db = monitor, db

    def now(self) -> tuple[float, float]:
        return time.process_time(), _pg_cpu(self.monitor, self.db)


def _setup() -> tuple[Any, str, Any]:
    """A fresh database (PostgreSQL beside DATABASE_URL's, or SQLite), migrated; Django set up
    with this module's floor routed beside the app's URLs."""
    admin = os.environ.get("DATABASE_URL", "").strip()
    monitor, name = None, ""
    tmp = tempfile.TemporaryDirectory(prefix="dd-cost-")
    postgres = admin.startswith(("postgres://", "postgresql://"))
    if postgres and os.environ.get("BENCH_DB") != "sqlite":
        import psycopg

        name = f"dd_cost_{uuid.uuid4().hex[:10]}"
        parts = urlsplit(admin)
        with psycopg.connect(
            urlunsplit(parts._replace(path="/postgres", scheme="postgresql")), autocommit=True
        ) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        os.environ["DATABASE_URL"] = urlunsplit(parts._replace(path="/" + name))
        monitor = psycopg.connect(
            urlunsplit(parts._replace(path="/" + name, scheme="postgresql")), autocommit=True
        )
    else:
        os.environ["DATABASE_URL"] = f"sqlite:///{tmp.name}/bench.sqlite3"
    os.environ["DJANGO_SETTINGS_MODULE"] = "dustdevils.settings"
    os.environ.setdefault("SECRET_KEY", "bench-" + "x" * 60)
    import django
    from django.conf import settings

    django.setup()
    settings.ROOT_URLCONF = __name__
    settings.ALLOWED_HOSTS = ["*"]
    for variable, value in os.environ.items():  # BENCH_SETTING_SESSION_ENGINE=…: one setting
        if variable.startswith("BENCH_SETTING_"):
            setattr(settings, variable.removeprefix("BENCH_SETTING_"), value)
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    return monitor, name, tmp


def _drop(name: str) -> None:
    if not name:
        return
    import psycopg
    from django.db import connections

    connections.close_all()
    parts = urlsplit(os.environ["DATABASE_URL"])
    with psycopg.connect(
        urlunsplit(parts._replace(path="/postgres", scheme="postgresql")), autocommit=True
    ) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


KNACKS = {"Shootin'": 4, "Ridin'": 3, "Drinkin'": 2, "Gamblin'": 2}


def _sheet(name: str) -> dict[str, Any]:
    return {
        "name": name.title(), "vocation": "Drifter", "hand": 4, "eye": 3, "guts": 3, "heart": 3,
        "trait_1": "Quick as a rattler", "trait_2": "Stubborn as a mule",
        "devil": "Ran from the war.", "devil_rating": 2,
    }  # fmt: skip


class Game:
    """One table of a game, its 7 screens and how a player moves at it."""

    def __init__(self, name: str, live: Any, table_id: int, slug: str, viewers: list[Any]) -> None:
        self.name, self.live, self.table_id, self.slug = name, live, table_id, slug
        self.viewers = viewers  # dustdevils.live.tables.Viewer, one per screen
        self.version = 0
        self.turn = 0

    def post(self, clients: dict[int, Any]) -> tuple[Any, str, dict[str, str]]:
        raise NotImplementedError

    def move(self, clients: dict[int, Any]) -> None:
        client, url, data = self.post(clients)
        response = client.post(url, data, HTTP_HX_REQUEST="true")
        found = VERSION_IN_HTML.search(response.content)
        if response.status_code != 200 or found is None or b"message--error" in response.content:
            alert = re.search(rb"message--error[^>]*>([^<]*)", response.content)
            why = alert.group(1).decode()[:200] if alert else ""
            raise RuntimeError(f"{self.name}: move refused ({response.status_code}) {why}")
        self.version = int(found.group(1))
        self.turn += 1

    def screens(self, count: int = SCREENS) -> int:
        """What the streams' process does for a move: one read, ``count`` panels. Bytes."""
        read = self.live.load(self.table_id)
        size = 0
        for viewer in self.viewers[:count]:
            html = self.live.panel(viewer, read)
            assert html is not None
            size += len(html)
        return size


class ConflictGame(Game):
    def __init__(self, *a: Any, pids: list[str], players: list[int]) -> None:
        super().__init__(*a)
        self.pids, self.players = pids, players

    def post(self, clients: dict[int, Any]) -> tuple[Any, str, dict[str, str]]:
        from django.urls import reverse

        k = self.turn % len(self.pids)
        pair = PAIRS[(self.turn // len(self.pids)) % 2]
        url = reverse("conflicts:move", args=(self.slug, self.table_id, "propose"))
        data = {"version": str(self.version), "key": uuid.uuid4().hex, "pid": self.pids[k],
                "attributes": list(pair)}  # fmt: skip
        return clients[self.players[k]], url, data


class FightGame(Game):
    def __init__(self, *a: Any, cids: list[str], players: list[int]) -> None:
        super().__init__(*a)
        self.cids, self.players = cids, players

    def post(self, clients: dict[int, Any]) -> tuple[Any, str, dict[str, str]]:
        from django.urls import reverse

        k = self.turn % len(self.cids)
        url = reverse("fights:move", args=(self.slug, self.table_id, "tn-roll"))
        data = {"version": str(self.version), "key": uuid.uuid4().hex, "cid": self.cids[k],
                "dice": "2d6", "tn": "7", "note": "a jump across the roofs"}  # fmt: skip
        return clients[self.players[k]], url, data


class SaloonGame(Game):
    def __init__(self, *a: Any, players: list[int]) -> None:
        super().__init__(*a)
        self.players = players

    def post(self, clients: dict[int, Any]) -> tuple[Any, str, dict[str, str]]:
        from django.urls import reverse

        k = (self.turn // 2) % len(self.players)
        action = "lower" if self.turn % 2 else "raise"
        url = reverse("saloon:move", args=(self.slug, self.table_id, action))
        data = {"version": str(self.version), "key": uuid.uuid4().hex}
        return clients[self.players[k]], url, data


ADVICE_LOAD = re.compile(r'hx-get="([^"]*/advice/\?pid=[^"]*)" hx-trigger="load"')


class DrawGame(Game):
    """Conflicts in the Draw: each player in turn discards a card and draws (their odds
    input changes), on one dealt table after another. The odds and the discard advice a
    screen asks for by itself (``hx-trigger="load"``) are asked for as the browser asks,
    after the screens: their cost is counted with the next POST."""

    def __init__(self, *a: Any, tables: list[tuple[int, int, list[tuple[str, int, str]]]],
                 clients: dict[int, Any]) -> None:  # fmt: skip
        super().__init__(*a)
        self.tables = tables  # (conflict id, version, its hands: (pid, player, a card))
        self.first = self.viewers
        self.clients = clients
        self.asked: list[tuple[int, str]] = []

    def post(self, clients: dict[int, Any]) -> tuple[Any, str, dict[str, str]]:
        from django.urls import reverse

        for user_id, url in self.asked:  # what the last screens asked for by themselves
            assert self.clients[user_id].get(url, HTTP_HX_REQUEST="true").status_code == 200
        self.asked = []
        table_id, version, hands = self.tables[self.turn // PLAYERS]
        if table_id != self.table_id:  # the next dealt table
            self.table_id, self.version = table_id, version
            self.viewers = [replace(v, table_id=table_id) for v in self.first]
        pid, player, card = hands[self.turn % PLAYERS]
        url = reverse("conflicts:move", args=(self.slug, table_id, "draw"))
        data = {"version": str(self.version), "key": uuid.uuid4().hex, "pid": pid,
                "discards": card}  # fmt: skip
        return clients[player], url, data

    def screens(self, count: int = SCREENS) -> int:
        read = self.live.load(self.table_id)
        size = 0
        for viewer in self.viewers[:count]:
            html = self.live.panel(viewer, read)
            assert html is not None
            size += len(html)
            self.asked += [(viewer.user_id, unescape(u)) for u in ADVICE_LOAD.findall(html)]
        after = getattr(self.live, "after", None)
        if after is not None:
            after(read)  # what follows the screens (issue 38): counted with them
        return size


def _dealt(
    campaign: Any, session: Any, dealer: Any, client: Any, pcs: list[Any], count: int
) -> list[tuple[int, int, list[tuple[str, int, str]]]]:
    """``count`` conflicts of the six PCs and a stud, sized, each PC's knack approved (so it
    may discard), dealt: (id, version, each hand's pid, player and first card)."""
    from django.urls import reverse

    from conflicts.engine.serial import state_from_data
    from conflicts.models import Conflict
    from conflicts.services import HandSpec, conflict_create, pid_of

    out = []
    for n in range(count):
        conflict = conflict_create(
            campaign=campaign, actor=dealer, title=f"Draw {n}", session=session,
            hands=[*(HandSpec(character=pc, goal="Hold the line") for pc in pcs),
                   HandSpec(stud_size=5, goal="The posse")],
        )  # fmt: skip
        moves = [("approve", {"pid": pid_of(pc), "attributes": ["hand", "eye"], "devil": "0"})
                 for pc in pcs]  # fmt: skip
        moves += [("approve-knack", {"pid": pid_of(pc), "knack": str(pc.knacks.first().pk)})
                  for pc in pcs]  # fmt: skip
        moves.append(("deal", {}))
        for version, (action, data) in enumerate(moves):
            url = reverse("conflicts:move", args=(campaign.slug, conflict.pk, action))
            sent = {"version": str(version), "key": uuid.uuid4().hex, **data}
            assert client.post(url, sent).status_code == 302, action
        conflict = Conflict.objects.get(pk=conflict.pk)
        state = state_from_data(conflict.state)
        hands = [(pid_of(pc), pc.player_id, state.participant(pid_of(pc)).hand[0].text)
                 for pc in pcs]  # fmt: skip
        out.append((conflict.pk, conflict.version, hands))
    return out


class ShowdownGame(Game):
    """Saloon Showdown: the player whose turn it is draws a card (the turn goes round)."""

    def __init__(self, *a: Any, players: list[int], first: int) -> None:
        super().__init__(*a)
        self.players, self.first = players, first

    def post(self, clients: dict[int, Any]) -> tuple[Any, str, dict[str, str]]:
        from django.urls import reverse

        k = (self.first + self.turn) % len(self.players)
        url = reverse("showdown:move", args=(self.slug, self.table_id, "draw"))
        data = {"version": str(self.version), "key": uuid.uuid4().hex}
        return clients[self.players[k]], url, data


class GunfighterGame(Game):
    """The Gunfighter, preparing (every bandolier set, R38): a player plays a covert card,
    then takes it back."""

    def __init__(self, *a: Any, players: list[int], version: int) -> None:
        super().__init__(*a)
        self.players, self.version = players, version

    def post(self, clients: dict[int, Any]) -> tuple[Any, str, dict[str, str]]:
        from django.urls import reverse

        k = (self.turn // 2) % len(self.players)
        action = "uncovert" if self.turn % 2 else "covert"
        url = reverse("gunfighter:move", args=(self.slug, self.table_id, action))
        data = {"version": str(self.version), "key": uuid.uuid4().hex}
        return clients[self.players[k]], url, data


def _world() -> tuple[dict[int, Any], dict[str, Game], Any]:
    """A campaign with a Dealer and six players: a conflict (six PCs and a stud), the same
    conflict with 300 more timeline lines, a fight (six PCs, two NPCs, two lines of extras) and
    a saloon game (five players; the Dealer, who hosts, watches); a test client per user."""
    from django.contrib.auth.models import User
    from django.test import Client

    from campaigns.game_sessions import session_start
    from campaigns.models import Membership
    from campaigns.services import campaign_create
    from characters.services import character_create
    from conflicts import streams as conflict_streams
    from conflicts.models import Event
    from conflicts.services import HandSpec, conflict_create, pid_of
    from dustdevils.live.tables import Viewer
    from fights.services import ExtrasSpec, cid_of, fight_create
    from tables.site import site
    from tests.kit import new_game

    users = [User.objects.create_user(n) for n in ["dealer", *(f"player{i}" for i in range(6))]]
    dealer, players = users[0], users[1:]
    clients = {}
    for user in users:
        clients[user.pk] = Client(HTTP_HOST="127.0.0.1")
        clients[user.pk].force_login(user)  # a session through the app's SESSION_ENGINE
    campaign = campaign_create(dealer=dealer, name="Bench Gulch")
    Membership.objects.bulk_create(
        Membership(campaign=campaign, user=u, role=Membership.Role.PLAYER) for u in players
    )
    pcs = [character_create(campaign=campaign, kind="pc", player=u, data=_sheet(u.username),
                            knacks=KNACKS) for u in players]  # fmt: skip
    session = session_start(campaign=campaign, actor=dealer)
    slug = campaign.slug
    csrf = "x" * 64

    def viewers(table_id: int, ids: list[int], table: bool = False) -> list[Viewer]:
        out = [Viewer(i, slug, table_id, False, csrf) for i in ids]
        return out + ([Viewer(dealer.pk, slug, table_id, True, csrf)] if table else [])

    games: dict[str, Game] = {}
    for name in ("conflict", "conflict+300"):
        conflict = conflict_create(
            campaign=campaign, actor=dealer, title=f"Showdown {name}", session=session,
            hands=[*(HandSpec(character=pc, goal="Hold the line") for pc in pcs),
                   HandSpec(stud_size=5, goal="The posse")],
        )  # fmt: skip
        if name != "conflict":
            Event.objects.bulk_create(
                Event(conflict=conflict, seq=1000 + n, version=0, actor=dealer,
                      text=f"An old line of the table's talk, number {n}, long enough to read.")
                for n in range(EXTRA_LINES)
            )  # fmt: skip
        games[name] = ConflictGame(
            name, conflict_streams.CONFLICTS, conflict.pk, slug,
            viewers(conflict.pk, [u.pk for u in users]),
            pids=[pid_of(pc) for pc in pcs], players=[u.pk for u in players],
        )  # fmt: skip
    from characters.models import Character

    npcs = [Character.objects.create(campaign=campaign, kind="npc", name=f"Outlaw {i}", hand=3)
            for i in range(2)]  # fmt: skip
    fight = fight_create(
        campaign=campaign, actor=dealer, session=session, title="Bench fight",
        characters=pcs + npcs, extras=[ExtrasSpec("3 Pinkertons", 3, "2d6"),
                                       ExtrasSpec("2 Deputies", 2, "1d6")],
    )  # fmt: skip
    games["fight"] = FightGame(
        "fight", site.live("fights"), fight.pk, slug,
        viewers(fight.pk, [u.pk for u in users]),
        cids=[cid_of(pc) for pc in pcs], players=[u.pk for u in players],
    )  # fmt: skip
    saloon = new_game("saloon", campaign=campaign, actor=dealer, players=players[:5])
    games["saloon"] = SaloonGame(
        "saloon", site.live("saloon"), saloon.pk, slug,
        viewers(saloon.pk, [u.pk for u in users[:6]], table=True),
        players=[u.pk for u in players[:5]],
    )  # fmt: skip
    games.update(_card_games(users, campaign, viewers))
    moves = int(os.environ.get("BENCH_MOVES", "40")) + 4  # and 3 to warm, 1 to count queries
    dealt = _dealt(campaign, session, dealer, clients[dealer.pk], pcs, -(-moves // PLAYERS))
    games["draw"] = DrawGame(
        "draw", conflict_streams.CONFLICTS, dealt[0][0], slug,
        viewers(dealt[0][0], [u.pk for u in users]), tables=dealt, clients=clients,
    )  # fmt: skip
    return clients, games, dealer


def _card_games(users: list[Any], campaign: Any, viewers: Any) -> dict[str, Game]:
    """Saloon Showdown (all seven seated, the Dealer holding the dealer token) and The
    Gunfighter (six players; the Dealer, who hosts, watches: the game has no shared screen)."""
    from gunfighter.engine.serial import state_from_data as gunfight_state
    from tables.site import site
    from tests.kit import new_game, play

    dealer, players = users[0], users[1:]
    slug = campaign.slug
    showdown = new_game(
        "showdown", campaign=campaign, actor=dealer, players=users, dealer=dealer.pk
    )
    gunfight = new_game("gunfighter", campaign=campaign, actor=dealer, players=players)
    for player in players:  # R38: covert cards come once every bandolier is set
        play("gunfighter", gunfight, player, "ready")
    gunfight.refresh_from_db()
    state = gunfight_state(gunfight.state)
    holding = [u.pk for u, f in zip(players, state.gunfighters, strict=True) if f.covert]
    return {
        "showdown": ShowdownGame(
            "showdown", site.live("showdown"), showdown.pk, slug,
            viewers(showdown.pk, [u.pk for u in users]),
            players=[u.pk for u in users], first=1,
        ),
        "gunfighter": GunfighterGame(
            "gunfighter", site.live("gunfighter"), gunfight.pk, slug,
            viewers(gunfight.pk, [u.pk for u in users]), players=holding,
            version=gunfight.version,
        ),
    }  # fmt: skip


# --- The floor: bare Django, the same middleware and session engine ------------------------


_PANEL: Any = None


def _floor_panel(size: int) -> Any:
    """A template that renders to about ``size`` bytes: rows of a few values of the row."""
    from django.template import engines

    row = (
        '<li class="seat"><span class="seat__name">{{ row.title }}</span>'
        '<span class="seat__phase">{{ row.phase }}</span> <span>v{{ row.version }}</span></li>\n'
    )
    rows = max(1, size // (len(row) - 20))
    return engines["django"].from_string(
        '<section id="main" data-version="{{ row.version }}"><h2>{{ row.title }}</h2><ul>\n'
        + row * rows
        + "</ul><p>Last move {{ row.last_move_at|date:'H:i:s' }}</p></section>\n"
    )


def floor_move(request: Any, pk: int) -> Any:
    """Lock the row and bump its counter: the bare cost of a table move's write."""
    from django.db import transaction
    from django.db.models import F
    from django.http import HttpResponse, HttpResponseForbidden

    from conflicts.models import Conflict

    if request.method != "POST" or not request.user.is_authenticated:
        return HttpResponseForbidden("Log in first.")
    with transaction.atomic():
        Conflict.objects.select_for_update().only("pk").get(pk=pk)
        Conflict.objects.filter(pk=pk).update(version=F("version") + 1)
    return HttpResponse("ok")


def floor_screens(pk: int, count: int = SCREENS) -> int:
    """One read of one row, ``count`` renders of a panel of the app's size from it."""
    from conflicts.models import Conflict

    row = Conflict.objects.only("title", "phase", "version", "last_move_at").get(pk=pk)
    return sum(len(_PANEL.render({"row": row})) for _ in range(count))


def _urlpatterns() -> list[Any]:
    from django.urls import path

    from dustdevils.urls import urlpatterns as app

    return [*app, path("floor/<int:pk>/move/", floor_move)]


def __getattr__(name: str) -> Any:
    """``urlpatterns``, made when Django first asks (the app's URLs need Django set up)."""
    if name == "urlpatterns":
        return _urlpatterns()
    raise AttributeError(name)


# --- Measuring -------------------------------------------------------------------------------


def _batch(meter: Meter, moves: int, one: Any, screens: Any) -> dict[str, float]:
    """``moves`` times: one(), then screens(); ms of CPU per move for each part and the DB."""
    post = rest = 0.0
    _, db0 = meter.now()
    for _ in range(moves):
        t0 = time.process_time()
        one()
        t1 = time.process_time()
        screens()
        rest += time.process_time() - t1
        post += t1 - t0
    _, db1 = meter.now()
    ms = 1000 / moves
    return {"post": post * ms, "screens": rest * ms, "db": (db1 - db0) * ms,
            "total": (post + rest + db1 - db0) * ms}  # fmt: skip


def _queries(one: Any, screens: Any) -> tuple[int, int, int]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as posted:
        one()
    with CaptureQueriesContext(connection) as shown:
        screens()
    sql = [q["sql"].split()[0].upper() for q in posted.captured_queries if q["sql"].strip()]
    # The move's own statements: BEGIN to COMMIT (what the session, the user and the
    # membership cost every request is outside); all of them where the backend logs no BEGIN.
    first = sql.index("BEGIN") if "BEGIN" in sql else 0
    last = len(sql) - 1 - sql[::-1].index("COMMIT") if "COMMIT" in sql else len(sql) - 1
    return len(posted.captured_queries), len(shown.captured_queries), last - first + 1


def measure(moves: int) -> dict[str, Any]:
    global _PANEL
    monitor, db, tmp = _setup()
    try:
        clients, games, dealer = _world()
        meter = Meter(monitor, db)
        out: dict[str, Any] = {}
        for game in games.values():  # warm: templates, caches, the pool's connection
            for _ in range(3):
                game.move(clients)
                game.screens()
        conflict = games["conflict"]
        size = conflict.screens() // SCREENS
        _PANEL = _floor_panel(size)
        out["panel_bytes"] = size
        from django.urls import reverse

        floor_pk = conflict.table_id
        floor_url = reverse(floor_move, args=(floor_pk,))
        dealer_client = clients[dealer.pk]

        def floor_post() -> None:
            assert dealer_client.post(floor_url).status_code == 200

        floor_screens(floor_pk)
        out["floor_bytes"] = floor_screens(floor_pk) // SCREENS
        out["floor"] = _batch(meter, moves, floor_post, lambda: floor_screens(floor_pk))
        out["floor_queries"] = _queries(floor_post, lambda: floor_screens(floor_pk))
        conflict.version = conflict.live.load(conflict.table_id).version  # the floor moved it
        for name, game in games.items():
            out[name] = _batch(meter, moves, lambda g=game: g.move(clients), game.screens)
            out[f"{name}_queries"] = _queries(lambda g=game: g.move(clients), game.screens)
        # One more screen: the streams' work for 1 screen and for 7, no move between.
        # Interleaved (1, 7, 1, 7…) after a warm-up, so both see the same caches.
        spent = {1: 0.0, SCREENS: 0.0}
        reps = max(20, moves)
        for rep in range(reps + 2):
            for count in spent:
                t0 = time.process_time()
                conflict.screens(count)
                if rep >= 2:
                    spent[count] += time.process_time() - t0
        for count, seconds in spent.items():
            out[f"screens_{count}"] = seconds * 1000 / reps
        return out
    finally:
        if monitor is not None:
            monitor.close()
        _drop(db)
        tmp.cleanup()


def child() -> None:
    moves = int(os.environ.get("BENCH_MOVES", "40"))
    print("BENCH_COST " + json.dumps(measure(moves)), flush=True)


# --- The driver: rounds in fresh processes, interleaved with a base checkout ---------------


def _run(tree: Path, extra: dict[str, str]) -> dict[str, Any] | None:
    """One round in a fresh process on ``tree``'s code (this file's bench, that tree's app),
    with ``extra`` in its environment."""
    code = f"import sys; sys.path.insert(0, {str(HERE)!r}); import bench_cost; bench_cost.child()"
    env = os.environ | {"PYTHONPATH": str(tree), "LOG_LEVEL": "warning"} | extra
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tree, env=env, capture_output=True, text=True,
        check=False,
    )  # fmt: skip
    for line in done.stdout.splitlines():
        if line.startswith("BENCH_COST "):
            return dict(json.loads(line.removeprefix("BENCH_COST ")))
    print(f"  a round on {tree} failed:\n{done.stderr[-2000:]}")
    return None


def _median(runs: list[dict[str, Any]], *path: str) -> float:
    values = []
    for run in runs:
        value: Any = run
        for key in path:
            value = value[key]
        values.append(float(value))
    return statistics.median(values)


def figures(runs: list[dict[str, Any]]) -> dict[str, float]:
    """The printed figures, each the median of the rounds."""
    f: dict[str, float] = {}
    for part in ("post", "screens", "db", "total"):
        f[f"floor {part}"] = _median(runs, "floor", part)
        for game in GAMES:
            f[f"{game} {part}"] = _median(runs, game, part)
    f["ratio"] = f["conflict total"] / f["floor total"]
    for game in GAMES:
        f[f"{game} queries"] = statistics.median(sum(run[f"{game}_queries"][:2]) for run in runs)
        f[f"{game} post queries"] = statistics.median(run[f"{game}_queries"][0] for run in runs)
    # The count: the move's own statements, BEGIN to COMMIT (``_queries``).
    f["conflict move statements"] = statistics.median(
        run["conflict_queries"][-1] if len(run["conflict_queries"]) > 2 else 0 for run in runs
    )
    f["floor queries"] = statistics.median(sum(run["floor_queries"][:2]) for run in runs)
    f["per screen"] = (_median(runs, f"screens_{SCREENS}") - _median(runs, "screens_1")) / (
        SCREENS - 1
    )
    f["per line"] = (
        _median(runs, "conflict+300", "total") - _median(runs, "conflict", "total")
    ) / EXTRA_LINES
    for game in GAMES[1:]:
        f[f"{game}/conflict"] = f[f"{game} total"] / f["conflict total"]
    f["panel KiB"] = _median(runs, "panel_bytes") / 1024
    return f


ROWS = [
    ("floor total", "The floor (1 locked POST + 1 read + 7 renders), CPU ms", "{:.2f}"),
    ("conflict total", "A conflict move with 7 screens, CPU ms", "{:.2f}"),
    ("conflict post", "  the POST (mover's answer included)", "{:.2f}"),
    ("conflict screens", "  the streams: 1 read + 7 panels", "{:.2f}"),
    ("conflict db", "  PostgreSQL backends", "{:.2f}"),
    ("ratio", "  × the floor (goal ≤ 2.5)", "{:.2f}"),
    ("conflict queries", "  queries per move, POST + streams", "{:.0f}"),
    ("conflict post queries", "  the POST's queries", "{:.0f}"),
    ("conflict move statements", "  the move's own, BEGIN to COMMIT (goal ≤ 10)", "{:.0f}"),
    ("per screen", "  ms per extra screen (goal ≤ 1.5)", "{:.3f}"),
    ("per line", "  ms per timeline line (goal ≤ 0.05)", "{:.4f}"),
    ("fight total", "A fight move with 7 screens, CPU ms", "{:.2f}"),
    ("fight post", "  the POST", "{:.2f}"),
    ("fight screens", "  the streams", "{:.2f}"),
    ("fight db", "  PostgreSQL", "{:.2f}"),
    ("fight queries", "  queries per move", "{:.0f}"),
    ("fight/conflict", "  × a conflict move (goal ≤ 1.2)", "{:.2f}"),
    ("saloon total", "A saloon move with 7 screens, CPU ms", "{:.2f}"),
    ("saloon post", "  the POST", "{:.2f}"),
    ("saloon screens", "  the streams", "{:.2f}"),
    ("saloon db", "  PostgreSQL", "{:.2f}"),
    ("saloon queries", "  queries per move", "{:.0f}"),
    ("saloon/conflict", "  × a conflict move (goal ≤ 1.2)", "{:.2f}"),
    *(
        row
        for game, label in (
            ("showdown", "A Saloon Showdown move"),
            ("gunfighter", "A Gunfighter move"),
            ("draw", "A Draw (a discard, + the odds and advice asked)"),
        )
        for row in (
            (f"{game} total", f"{label} with 7 screens, CPU ms", "{:.2f}"),
            (f"{game} post", "  the POST", "{:.2f}"),
            (f"{game} screens", "  the streams", "{:.2f}"),
            (f"{game} db", "  PostgreSQL", "{:.2f}"),
            (f"{game} queries", "  queries per move", "{:.0f}"),
            (f"{game}/conflict", "  × a conflict move (goal ≤ 1.2)", "{:.2f}"),
        )
    ),
    ("floor queries", "The floor's queries", "{:.0f}"),
    ("panel KiB", "A conflict panel's size, KiB (the floor renders as much)", "{:.1f}"),
]


def main() -> int:
    rounds = int(os.environ.get("BENCH_ROUNDS", "5"))
    base = os.environ.get("BENCH_BASE", "").strip()
    trees = [("base", Path(base).resolve())] if base else []
    trees.append(("this", ROOT))
    db = (
        "SQLite"
        if not os.environ.get("DATABASE_URL", "").startswith("postgres")
        else ("SQLite" if os.environ.get("BENCH_DB") == "sqlite" else "PostgreSQL")
    )
    print(
        f"Move cost, in one process ({db}; {rounds} rounds"
        f"{', interleaved with ' + base if base else ''}; load: {os.getloadavg()[0]:.2f})"
    )
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name, _ in trees}
    # BENCH_BASE_ENV="NAME=value,…": the base's environment only (BENCH_BASE may then be this
    # very checkout: a setting's paired figure, e.g. DATABASE_SERVER_SIDE_BINDING=0).
    base_env = dict(
        pair.split("=", 1)
        for pair in os.environ.get("BENCH_BASE_ENV", "").split(",")
        if "=" in pair
    )
    for _ in range(rounds):
        for name, tree in trees:
            result = _run(tree, base_env if name == "base" else {})
            if result is not None:
                runs[name].append(result)
    if not all(runs.values()):
        print("  no complete round: nothing to report")
        return 1
    table = {name: figures(r) for name, r in runs.items()}
    # The change: the median of each round's ratio to the base round run just before it
    # (pairs share the box's load of the moment, which a ratio of medians would not).
    pairs = [
        (figures([b]), figures([t]))
        for b, t in zip(runs.get("base", []), runs["this"], strict=False)
    ]
    head = "  " + "figure".ljust(60) + "".join(n.rjust(10) for n in table)
    print(head + ("    paired this/base" if base else ""))
    for key, label, fmt in ROWS:
        cells = "".join(fmt.format(table[n][key]).rjust(10) for n in table)
        ratios = [t[key] / b[key] for b, t in pairs if b[key]]
        change = f"    {statistics.median(ratios):.2f}" if base and ratios else ""
        print("  " + label.ljust(60) + cells + change)
    f = table["this"]
    checks = [
        ("× the floor", f["ratio"], GOALS["ratio"]),
        ("the move's statements", f["conflict move statements"], GOALS["queries"]),
        ("ms per screen", f["per screen"], GOALS["per_screen"]),
        ("ms per line", f["per line"], GOALS["per_line"]),
        *((f"{g} × conflict", f[f"{g}/conflict"], GOALS["vs_conflict"]) for g in OTHERS),
    ]
    print("  goals: " + "; ".join(
        f"{name} {value:.3g} ≤ {goal} [{'met' if value <= goal else 'MISSED'}]"
        for name, value, goal in checks
    ))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
