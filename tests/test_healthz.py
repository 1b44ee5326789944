"""``/healthz`` answers 503 within 2 s while the database is down (issue 37): a load balancer
gives up on a probe that hangs, and with the settings' pool getting a connection from a
stopped PostgreSQL waited DATABASE_POOL_TIMEOUT (30 s) before the 503.

A fresh Python with the production settings' database configuration (the test process's own
has no pool) and a DATABASE_URL on a port nobody listens on.
"""

from __future__ import annotations

import json
import socket
from pathlib import Path

from tests.test_settings import run_django

ASK = """
import json, time, django
django.setup()
from django.test import RequestFactory
from dustdevils.views import healthz
answers = []
for _ in range(3):  # the first, and the probes after it
    began = time.monotonic()
    response = healthz(RequestFactory().get("/healthz"))
    answers.append([response.status_code, time.monotonic() - began])
print(json.dumps(answers))
"""


def nobody_listens() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_healthz_answers_503_within_2_s_while_the_database_is_down(tmp_path: Path) -> None:
    url = f"postgres://postgres@127.0.0.1:{nobody_listens()}/dustdevils"
    proc = run_django(ASK, tmp_path, DATABASE_URL=url, DATABASE_POOL_MAX="10")
    assert proc.returncode == 0, proc.stderr
    answers = json.loads(proc.stdout.strip().splitlines()[-1])
    assert [status for status, _ in answers] == [503, 503, 503]
    assert max(seconds for _, seconds in answers) < 2, answers
