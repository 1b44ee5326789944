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
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def uvicorn_command(port: int, *extra: str) -> list[str]:
    """``uvicorn dustdevils.asgi:application`` on ``port``, with this Python."""
    return [
        sys.executable, "-m", "uvicorn", "dustdevils.asgi:application",
        "--host", "127.0.0.1", "--port", str(port), "--lifespan", "off", *extra,
    ]  # fmt: skip


class Uvicorn:
    """A uvicorn process started with ``command`` and ``env``, its output in ``log``; ready when
    /healthz answers (a test fails, with the log, if it exits or stays silent for 30 s)."""

    def __init__(self, command: Sequence[str], env: Mapping[str, str], log: Path, port: int):
        self.url = f"http://127.0.0.1:{port}"
        self.log = log
        with log.open("w") as out:
            self.process = subprocess.Popen(
                list(command), cwd=settings.BASE_DIR, env=dict(env), stdout=out,
                stderr=subprocess.STDOUT,
            )  # fmt: skip
        deadline = time.monotonic() + 30
        while True:
            if self.process.poll() is not None:
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
