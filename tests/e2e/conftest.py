"""Browser tests: the app served by uvicorn (as ``make run`` serves it) in a subprocess, against
the test database, driven by Debian's Chromium through Playwright.

Only the Playwright package comes from PyPI; its own browser download is not used.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import pytest
from django.conf import settings
from django.db import connection, connections

from tests.conftest import require_service, wait_for_servers_to_let_go
from tests.served import Uvicorn, listening_socket, uvicorn_command

if TYPE_CHECKING:
    from playwright.sync_api import Page

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
PHONE = {"width": 375, "height": 812}


def _test_database_url() -> str:
    """The URL of the database pytest-django created, for the server subprocess."""
    db = connection.settings_dict
    if db["ENGINE"] == "django.db.backends.postgresql":
        auth = quote(db["USER"] or "", safe="")
        if db["PASSWORD"]:
            auth += ":" + quote(db["PASSWORD"], safe="")
        host = db["HOST"] or "localhost"
        port = f":{db['PORT']}" if db["PORT"] else ""
        return f"postgres://{auth}{'@' if auth else ''}{host}{port}/{quote(db['NAME'])}"
    name = str(db["NAME"])
    if name == ":memory:" or "mode=memory" in name:
        pytest.fail("the e2e server needs a file database; settings_test gives one when E2E=1")
    return f"sqlite:///{Path(name).resolve()}"


@pytest.fixture(scope="session")
def app_url(
    django_db_setup: None, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """Serve the app with uvicorn on a free port (a socket it inherits, so no other test can
    take the port meanwhile); yields its base URL."""
    sock = listening_socket()
    env = os.environ | {
        "DJANGO_SETTINGS_MODULE": "dustdevils.settings",
        "DATABASE_URL": _test_database_url(),
        "PYTHONUNBUFFERED": "1",
    }
    log = tmp_path_factory.mktemp("uvicorn") / "server.log"
    server = Uvicorn(uvicorn_command(sock), env, log, sock)
    try:
        yield server.url
    finally:
        server.stop()
        with django_db_blocker.unblock():
            wait_for_servers_to_let_go()


@pytest.fixture
def page(transactional_db: None) -> Iterator[Page]:
    """A fresh Chromium page at phone size. Function-scoped on purpose: while Playwright's sync
    API is open its event loop counts as running, and Django refuses ORM calls then (so do the
    ORM work in fixtures requested before this one)."""
    if not Path(CHROMIUM).exists():
        require_service(f"needs Chromium at {CHROMIUM}: apt-get install chromium (or set CHROMIUM)")
    from playwright.sync_api import sync_playwright

    # transactional_db flushes the tables after the test, once the browser has closed.
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport=PHONE, device_scale_factor=2)
        try:
            yield context.new_page()
        finally:
            context.close()
            browser.close()


@pytest.fixture
def screenshot(page: Page) -> Any:
    """``screenshot("name")`` saves the page to tests/e2e/artifacts/name.png."""
    ARTIFACTS.mkdir(exist_ok=True)

    def save(name: str) -> Path:
        path = ARTIFACTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return save


# --- Several people at one table ------------------------------------------------------------
# The live-table tests open one browser and a context per person (cookies, viewport and network
# apart, as on separate devices).

DESKTOP = {"width": 1280, "height": 800}
PHONE_390 = {"width": 390, "height": 844}


@pytest.fixture
def login_cookie(app_url: str) -> Any:
    """``login_cookie(user)``: a session cookie for ``user`` on the served app (a database
    session made here, as a login would make it; request it before ``chromium``)."""
    from django.test import Client

    def make(user: Any) -> dict[str, str]:
        client = Client()
        client.force_login(user)
        name = settings.SESSION_COOKIE_NAME
        return {"name": name, "value": client.cookies[name].value, "url": app_url}

    return make


def tap_on_the_screen_in_front(monkeypatch: pytest.MonkeyPatch) -> None:
    """A person taps the screen they are looking at: bring a page to the front before a click,
    a tap or a tick on it. When one person has two pages open (a phone and the table screen in
    one context), the other is a background tab whose animation frames Chromium pauses, and
    Playwright's "stable" check then waits up to two seconds a click (measured: 0.65 s a move
    on average in the saloon's whole game, 19 s of its 50)."""
    from playwright.sync_api import Locator

    for name in ("click", "tap", "check", "uncheck", "set_checked", "select_option"):
        act = getattr(Locator, name)

        def in_front(self: Locator, *args: Any, _act: Any = act, **kwargs: Any) -> Any:
            self.page.bring_to_front()
            return _act(self, *args, **kwargs)

        monkeypatch.setattr(Locator, name, in_front)


@pytest.fixture
def chromium(transactional_db: None, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """One Chromium for the test; make a context per person with ``new_context``. Reading the
    database while Playwright's loop runs is allowed here (the tests compare every screen with
    the conflict's state), so request the ORM fixtures first all the same."""
    if not Path(CHROMIUM).exists():
        require_service(f"needs Chromium at {CHROMIUM}: apt-get install chromium (or set CHROMIUM)")
    from playwright.sync_api import sync_playwright

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    tap_on_the_screen_in_front(monkeypatch)
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            # ORM calls made while Playwright's loop runs get a connection of their own
            # (Django keeps connections per context): close it, or it outlives the test and
            # keeps the test database from being dropped.
            connections.close_all()
            browser.close()


@pytest.fixture(scope="module")
def module_chromium() -> Iterator[Any]:
    """One Chromium for a whole test module (its tests open contexts on it): for modules that
    look at many pages and drive the tables through the services, not by clicking. The ORM may
    be used while Playwright's loop runs, as with ``chromium``."""
    if not Path(CHROMIUM).exists():
        require_service(f"needs Chromium at {CHROMIUM}: apt-get install chromium (or set CHROMIUM)")
    from playwright.sync_api import sync_playwright

    with pytest.MonkeyPatch.context() as patch, sync_playwright() as playwright:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            connections.close_all()
            browser.close()
