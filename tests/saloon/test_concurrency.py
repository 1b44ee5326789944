"""Two taps at once on real PostgreSQL: the row lock (``select_for_update``) and the version
make exactly one of them a move; the other is refused as stale and writes nothing."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connections

from saloon.engine import game as g
from saloon.models import Saloon, SaloonLine
from tables.errors import Refused
from tests.saloon.conftest import play, state_of

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_two_draws_at_once_make_one_move(
    saloon: Saloon, dealer: Any, player_a: Any, player_b: Any
) -> None:
    users = {"p1": dealer, "p2": player_a, "p3": player_b}
    for pid in g.whose_move(state_of(saloon)):
        play(saloon, users[pid], g.Discard(pid))
    state = state_of(saloon)
    while state.phase == g.Phase.DISCARD:  # a re-deal: discard again
        for pid in g.whose_move(state):
            play(saloon, users[pid], g.Discard(pid))
        state = state_of(saloon)
    assert state.turn is not None
    drawer = users[state.turn.drawer]
    saloon.refresh_from_db()
    version, lines = saloon.version, SaloonLine.objects.count()
    barrier = threading.Barrier(2)
    results: list[str] = []

    def tap(key: str) -> None:
        try:
            barrier.wait()
            play(saloon, drawer, g.Draw("", 0), version=version, key=key)
            results.append("moved")
        except Refused as error:
            results.append(str(error))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=tap, args=(f"key-{i}",)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    saloon.refresh_from_db()
    assert results.count("moved") == 1
    assert any("moved on" in r for r in results)
    assert saloon.version == version + 1
    assert SaloonLine.objects.count() > lines
