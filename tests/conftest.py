"""Shared fixtures: the named cast, and the rules for tests that need real services.

Tests marked ``postgres``, ``redis`` or ``e2e`` skip (saying which variable to set) when their
service is not configured. Under CI (``CI`` set) they FAIL instead: CI must run everything.

The run (docs/testing.md): ``make test`` runs pytest-xdist workers, each with its own test
database and its own Redis database and namespace (``tests/settings.py``); the longest tests go
first (``pytest_collection_modifyitems``, by the last run's durations); Hypothesis runs the
``dev`` profile unless told otherwise (``ci`` under CI); browser tests take screenshots only
with ``E2E_SCREENSHOTS=1``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import pytest
from django.conf import settings
from hypothesis import settings as hypothesis_settings

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.test import Client

CAST_PASSWORD = "dust-and-thunder-1872"

IN_CI = os.environ.get("CI", "").strip().lower() not in {"", "0", "false", "no"}

# --- Hypothesis ------------------------------------------------------------------------------
# Two depths. "ci" (CI's, alias "deep"): every property test runs as many examples as it asks
# for, ``depth(n)`` = n. "dev" (``make test``'s default): a tenth of them, at least 10, so the
# long property runs take seconds; HYPOTHESIS_PROFILE=ci make test runs them deep. Neither has a
# per-example deadline: the machines that run the suite are small and shared.
HYPOTHESIS_PROFILES = {"ci": 1.0, "deep": 1.0, "dev": 0.1}
HYPOTHESIS_PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "").strip() or ("ci" if IN_CI else "dev")
if HYPOTHESIS_PROFILE not in HYPOTHESIS_PROFILES:
    raise pytest.UsageError(
        f"HYPOTHESIS_PROFILE={HYPOTHESIS_PROFILE!r}: use one of {', '.join(HYPOTHESIS_PROFILES)}"
    )
hypothesis_settings.register_profile("ci", deadline=None, print_blob=True)
hypothesis_settings.register_profile("deep", deadline=None, print_blob=True)
hypothesis_settings.register_profile("dev", deadline=None, max_examples=10)
hypothesis_settings.load_profile(HYPOTHESIS_PROFILE)


def share() -> float:
    """How much of an exhaustive check to run: all of it under ``ci``, a tenth under ``dev``
    (every tenth item, so each run checks the same ones)."""
    return HYPOTHESIS_PROFILES[HYPOTHESIS_PROFILE]


def due(step: int, viewer: int) -> bool:
    """Whether a walk-through that looks at every screen of every viewer at every step looks at
    ``viewer``'s (their index) at ``step``: always under ``ci``; under ``dev`` each viewer every
    third step, in turn, so every step is still looked at by someone and every viewer often."""
    return share() >= 1 or (step + viewer) % 3 == 0


def depth(examples: int) -> int:
    """``max_examples`` for a property test whose full depth is ``examples``: all of it under
    the ``ci`` profile, a tenth (at least 10) under ``dev``."""
    return max(min(examples, 10), round(examples * HYPOTHESIS_PROFILES[HYPOTHESIS_PROFILE]))


def _postgres_configured() -> bool:
    return bool(settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql")


def _redis_configured() -> bool:
    return bool(settings.REDIS_URL)


def _e2e_enabled() -> bool:
    return os.environ.get("E2E", "").strip() == "1"


SERVICE_MARKERS: dict[str, tuple[Callable[[], bool], str]] = {
    "postgres": (
        _postgres_configured,
        "needs PostgreSQL: set DATABASE_URL=postgres://postgres@127.0.0.1:5432/dustdevils",
    ),
    "redis": (
        _redis_configured,
        "needs Redis and a Celery worker: set REDIS_URL=redis://127.0.0.1:6379/0",
    ),
    "e2e": (_e2e_enabled, "browser test: set E2E=1 (and install Debian's chromium)"),
}


def require_service(reason: str) -> None:
    """Skip with ``reason``, or fail under CI, where nothing may be skipped for want of a
    service."""
    if IN_CI:
        pytest.fail(f"CI must run this test, but its service is missing: {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """The translations compiled as ``make install`` compiles them (their .mo files are not
    committed), when a .po is newer than its .mo: a run of pytest alone reads the catalogue as
    it is in the tree."""
    from dustdevils.catalogues import compile_stale

    if not hasattr(config, "workerinput"):  # an xdist worker: the controller compiled them first
        compile_stale()


def pytest_runtest_setup(item: pytest.Item) -> None:
    for marker, (available, reason) in SERVICE_MARKERS.items():
        if item.get_closest_marker(marker) and not available():
            require_service(reason)


# --- The run ------------------------------------------------------------------------------------


DURATIONS_KEY = "dustdevils/durations"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The longest tests first, so that pytest-xdist hands them out at the start and no worker
    is left alone with a long one at the end: by the seconds each took in the last run
    (``.pytest_cache``), else browser tests, then those marked ``slow``, then the rest. Every
    worker must collect the same order (xdist checks it): they all read the same cache, which
    only the controller writes, once the run is over.

    ``make test`` gives each worker whole files (``--dist loadfile``), in this order
    (``--no-loadscope-reorder``): a module-scoped fixture (a Celery worker, a served database,
    every poker hand counted) is made once, not once per worker. (``--dist loadgroup`` with
    ``xdist_group`` marks did that until pytest 9.2, whose node ids pytest-xdist 3.8 can no
    longer tag: pytest-dev/pytest-xdist#1386.)"""
    cache = getattr(config, "cache", None)
    took: dict[str, float] = cache.get(DURATIONS_KEY, {}) if cache is not None else {}

    def guess(item: pytest.Item) -> float:
        if item.nodeid in took:
            return took[item.nodeid]
        if item.get_closest_marker("e2e"):
            return 30.0
        return 5.0 if item.get_closest_marker("slow") else 0.0

    items.sort(key=lambda item: -guess(item))


_durations: dict[str, float] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Every test's seconds, setup and teardown included (under xdist the controller hears
    every worker's reports)."""
    _durations[report.nodeid] = _durations.get(report.nodeid, 0.0) + report.duration


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Keep this run's durations for the next one's order. And pytest's exit code 5 means no
    test ran at all: say so plainly (``make test`` fails on it too), so a filter or a path that
    matches nothing never passes for a green run."""
    controller = not hasattr(session.config, "workerinput")
    cache = getattr(session.config, "cache", None)
    if controller and cache is not None and _durations:
        cache.set(DURATIONS_KEY, cache.get(DURATIONS_KEY, {}) | _durations)
    if exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED and controller:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line(
                "No test ran (pytest exit code 5): check the paths, -k and -m in PYTEST_ARGS.",
                red=True,
                bold=True,
            )


@pytest.fixture(autouse=True, scope="session")
def _screenshots_only_when_asked() -> Iterator[None]:
    """The browser tests save screenshots of every screen they check (tests/e2e/artifacts/):
    for people to look at, never compared. Full-page screenshots were most of those tests' time
    (a whole fight takes ~170 of them), so they are taken only with ``E2E_SCREENSHOTS=1``."""
    if not _e2e_enabled() or os.environ.get("E2E_SCREENSHOTS", "").strip() == "1":
        yield
        return
    from playwright.sync_api import Locator, Page

    def skipped(*args: Any, **kwargs: Any) -> bytes:
        return b""

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Page, "screenshot", skipped)
        patch.setattr(Locator, "screenshot", skipped)
        yield


# --- The cast ---------------------------------------------------------------------------
# One Dealer, two players at the table, and an outsider who belongs to no campaign. (A module
# whose tests only read them may have them made once for all its tests: tests/made_once.py.)

CAST = {"dealer": "Delia", "player_a": "Abe", "player_b": "Bess", "outsider": "Otis"}


def make_user(django_user_model: type[User], username: str, first_name: str) -> User:
    return django_user_model.objects.create_user(
        username=username,
        password=CAST_PASSWORD,
        first_name=first_name,
        email=f"{username}@example.com",
    )


@pytest.fixture
def dealer(db: None, django_user_model: type[User]) -> User:
    return make_user(django_user_model, "dealer", CAST["dealer"])


@pytest.fixture
def player_a(db: None, django_user_model: type[User]) -> User:
    return make_user(django_user_model, "player_a", CAST["player_a"])


@pytest.fixture
def player_b(db: None, django_user_model: type[User]) -> User:
    return make_user(django_user_model, "player_b", CAST["player_b"])


@pytest.fixture
def outsider(db: None, django_user_model: type[User]) -> User:
    return make_user(django_user_model, "outsider", CAST["outsider"])


@pytest.fixture
def client_as(client: Client) -> Callable[[Any], Client]:
    """``client_as(dealer)``: the test client, logged in as that user."""

    def log_in(user: Any) -> Client:
        client.force_login(user)
        return client

    return log_in


# --- A table ready to play ------------------------------------------------------------------
# "Dry Gulch": the dealer runs it, player_a and player_b are seated, the outsider is not.
# Each player has a legal player character (R28) and the Dealer an important NPC.


def make_campaign(dealer: User, player_a: User, player_b: User) -> Any:
    from campaigns.models import Membership
    from campaigns.services import campaign_create

    table = campaign_create(dealer=dealer, name="Dry Gulch", setting="Dry Gulch, Texas")
    for player in (player_a, player_b):
        Membership.objects.create(campaign=table, user=player, role=Membership.Role.PLAYER)
    return table


@pytest.fixture
def campaign(dealer: User, player_a: User, player_b: User) -> Any:
    return make_campaign(dealer, player_a, player_b)


def _legal_pc(name: str) -> tuple[dict[str, Any], dict[str, int]]:
    data = {
        "name": name,
        "vocation": "Drifter",
        "hand": 4, "eye": 3, "guts": 3, "heart": 3,
        "trait_1": "Quick as a rattler", "trait_2": "Stubborn as a mule",
        "devil": "Ran from the war and never stopped running.",
        "devil_rating": 2,
    }  # fmt: skip
    knacks = {"Shootin'": 4, "Ridin'": 3, "Drinkin'": 2, "Gamblin'": 2}
    return data, knacks


def make_pc_a(campaign: Any, player_a: User) -> Any:
    from characters.services import character_create, chips_grant

    data, knacks = _legal_pc("Abe Slade")
    character = character_create(
        campaign=campaign, kind="pc", player=player_a, data=data, knacks=knacks
    )
    chips_grant(character_id=character.pk, amount=3, actor=None, note="Starting chips")
    character.refresh_from_db()
    return character


def make_pc_b(campaign: Any, player_b: User) -> Any:
    from characters.services import character_create

    data, knacks = _legal_pc("Bess Doyle")
    return character_create(campaign=campaign, kind="pc", player=player_b, data=data, knacks=knacks)


def make_npc(campaign: Any) -> Any:
    from characters.services import character_create

    data = {
        "name": "Mayor Crane", "hand": 2, "eye": 3, "guts": 2, "heart": 4,
        "devil": "Owns the town and fears losing it.", "devil_rating": 3,
    }  # fmt: skip
    return character_create(
        campaign=campaign, kind="npc", player=None, data=data, knacks={"Politickin'": 3}
    )


@pytest.fixture
def pc_a(campaign: Any, player_a: User) -> Any:
    return make_pc_a(campaign, player_a)


@pytest.fixture
def pc_b(campaign: Any, player_b: User) -> Any:
    return make_pc_b(campaign, player_b)


@pytest.fixture
def npc(campaign: Any) -> Any:
    return make_npc(campaign)


@pytest.fixture(autouse=True)
def _forget_process_caches() -> Iterator[None]:
    """Each test starts with no remembered reads or shared pieces: a flushed test database
    gives out the same conflict ids again (a real database never does)."""
    from dustdevils import memo
    from dustdevils.live import broadcast as live

    yield
    memo.clear_all()
    live.forget()


def wait_for_servers_to_let_go(timeout: float = 10.0) -> None:
    """After stopping a server process (uvicorn, with its connection pool): wait until its
    connections to the test database are gone, so the database can be dropped at the end."""
    import time

    from django.db import connection

    if connection.vendor != "postgresql":
        return
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT count(*) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
                if cursor.fetchone()[0] == 0:
                    return
            time.sleep(0.1)
    finally:
        if not connection.in_atomic_block:
            connection.close()
