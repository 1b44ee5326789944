"""The app served by a real uvicorn in a subprocess, for the tests that need one (the browser
tests, the live streams across processes, the login lockout as ``make run`` starts it)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

import httpx
import pytest
from django.conf import settings


def free_port() -> int:
    """A port free at the moment of asking (another program may take it before it is used:
    prefer ``listening_socket`` for a server of the tests' own)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def listening_socket() -> socket.socket:
    """A socket already listening on a free port of 127.0.0.1, for a server process to inherit
    (``uvicorn --fd``): the port is never free between choosing it and serving on it, so tests
    running at once (pytest-xdist workers, other checkouts) cannot take each other's."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def uvicorn_command(port: int | socket.socket, *extra: str) -> list[str]:
    """``uvicorn dustdevils.asgi:application`` with this Python, on ``port`` of 127.0.0.1 or on
    a ``listening_socket()`` (hand the same socket to ``Uvicorn``). Stopped, it gives open
    streams 2 s to end (uvicorn waits for them without limit by default, and ``stop`` then
    waited 10 s before killing it)."""
    where = (
        ["--fd", str(port.fileno())]
        if isinstance(port, socket.socket)
        else ["--host", "127.0.0.1", "--port", str(port)]
    )
    return [
        sys.executable, "-m", "uvicorn", "dustdevils.asgi:application",
        *where, "--lifespan", "off", "--timeout-graceful-shutdown", "2", *extra,
    ]  # fmt: skip


class Uvicorn:
    """A uvicorn process started with ``command`` and ``env``, its output in ``log``; ready when
    /healthz answers (a test fails, with the log, if it exits or stays silent for 30 s). Given a
    ``listening_socket()`` as ``port`` (and ``uvicorn_command(sock)``), the process inherits it;
    the socket stays open here until ``stop``."""

    def __init__(
        self,
        command: Sequence[str],
        env: Mapping[str, str],
        log: Path,
        port: int | socket.socket,
    ):
        self.sock = port if isinstance(port, socket.socket) else None
        number = port.getsockname()[1] if isinstance(port, socket.socket) else port
        self.url = f"http://127.0.0.1:{number}"
        self.log = log
        with log.open("w") as out:
            self.process = subprocess.Popen(
                list(command), cwd=settings.BASE_DIR, env=dict(env), stdout=out,
                stderr=subprocess.STDOUT, pass_fds=(self.sock.fileno(),) if self.sock else (),
            )  # fmt: skip
        deadline = time.monotonic() + 30
        while True:
            if self.process.poll() is not None:
                self.stop()
                pytest.fail(f"uvicorn exited with {self.process.returncode}:\n{log.read_text()}")
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code < 500:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                self.stop()
                pytest.fail(f"uvicorn did not answer /healthz in 30 s:\n{log.read_text()}")
            time.sleep(0.2)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        if self.sock is not None:
            self.sock.close()
