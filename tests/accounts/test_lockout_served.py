"""The login lockout through a real uvicorn started as ``make run`` starts it (issue 19 #1):
a new X-Forwarded-For per try must not make a new client. Its own SQLite database in a
temporary DATA_DIR, so it needs no service. The settings are the test suite's
(``dustdevils.settings_test``: the real ones with a fast password hasher), since each of the
~20 log-ins would otherwise spend a second of CPU on PBKDF2, which the lockout does not care
about."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from django.conf import settings

from tests.served import Uvicorn, free_port

pytestmark = pytest.mark.slow

PASSWORD = "tumbleweed-at-noon-77"
SETTINGS = "dustdevils.settings_test"


def make_run_uvicorn(port: int, forwarded_allow_ips: str | None) -> list[str]:
    """The uvicorn command line of ``make run`` (from ``make -n``), run with this Python."""
    env = {k: v for k, v in os.environ.items() if k != "FORWARDED_ALLOW_IPS"}
    args = ["make", "-n", "--no-print-directory", "run", f"PORT={port}"]
    if forwarded_allow_ips is not None:
        args.append(f"FORWARDED_ALLOW_IPS={forwarded_allow_ips}")
    script = subprocess.run(
        args, cwd=settings.BASE_DIR, env=env, capture_output=True, text=True, check=True
    ).stdout.replace("\\\n", " ")
    line = next(line for line in script.splitlines() if "uvicorn dustdevils.asgi" in line)
    words = shlex.split(line)
    words = words[words.index(next(w for w in words if w.endswith("uvicorn"))) + 1 :]
    return [sys.executable, "-m", "uvicorn", *words]


class Server(Uvicorn):
    """The app as ``make run`` serves it, on its own SQLite database in ``data_dir``."""

    def __init__(self, data_dir: Path, forwarded_allow_ips: str | None) -> None:
        port = free_port()
        env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
        env |= {"DJANGO_SETTINGS_MODULE": SETTINGS, "DATA_DIR": str(data_dir)}
        if forwarded_allow_ips is not None:
            env["FORWARDED_ALLOW_IPS"] = forwarded_allow_ips  # as make exports it
        command = make_run_uvicorn(port, forwarded_allow_ips)
        super().__init__(command, env, data_dir / f"uvicorn-{port}.log", port)

    def log_in(self, client: httpx.Client, username: str, password: str, forwarded_for: str) -> int:
        page = client.get(self.url + "/accounts/login/").text
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        assert token is not None
        response = client.post(
            self.url + "/accounts/login/",
            data={"username": username, "password": password,
                  "csrfmiddlewaretoken": token.group(1)},
            headers={"X-Forwarded-For": forwarded_for, "Referer": self.url + "/"},
        )  # fmt: skip
        return response.status_code


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh SQLite database with two accounts, clara and zeke (one for each test)."""
    tmp_path = tmp_path_factory.mktemp("lockout")
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env |= {"DJANGO_SETTINGS_MODULE": SETTINGS, "DATA_DIR": str(tmp_path)}
    # One Django start-up for both (each costs a CPU-second or two): migrate, then the accounts.
    create = (
        "from django.core.management import call_command; "
        "call_command('migrate', verbosity=0); "
        "from django.contrib.auth.models import User; "
        f"User.objects.create_user('clara', password='{PASSWORD}'); "
        f"User.objects.create_user('zeke', password='{PASSWORD}')"
    )
    subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", create],
        cwd=settings.BASE_DIR, env=env, check=True,
    )  # fmt: skip
    return tmp_path


def test_make_run_believes_no_forwarded_header_so_a_new_one_per_try_dodges_nothing(
    data_dir: Path,
) -> None:
    server = Server(data_dir, forwarded_allow_ips=None)
    try:
        with httpx.Client(timeout=10) as client:
            for n in range(5):
                assert server.log_in(client, "clara", "wrong", f"203.0.113.{n}") in (200, 429)
            # Locked: the client is the connection's address, whatever the header says.
            assert server.log_in(client, "clara", PASSWORD, "198.51.100.77") == 429
    finally:
        server.stop()


def test_behind_a_trusted_proxy_many_client_addresses_cannot_guess_one_account(
    data_dir: Path,
) -> None:
    """The proxy (here: this test, at 127.0.0.1, configured as trusted) appends each client's
    address; a forged entry to its left is ignored. Ten clients' failures lock the account."""
    server = Server(data_dir, forwarded_allow_ips="127.0.0.1")
    try:
        with httpx.Client(timeout=10) as client:
            for n in range(10):
                status = server.log_in(client, "zeke", "wrong", f"6.6.6.6, 10.0.3.{n}")
                assert status in (200, 429)
            assert server.log_in(client, "zeke", PASSWORD, "10.0.3.200") == 429
            # Another account from another client of the proxy is not held up.
            assert server.log_in(client, "clara", PASSWORD, "10.0.4.1") == 302
    finally:
        server.stop()
