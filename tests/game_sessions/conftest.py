"""Fixtures for running sessions: an open session at the Dry Gulch table (see tests/conftest.py
for the cast, pc_a, pc_b and the npc), hurt characters, and helpers for the Celery jobs."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from campaigns.models import GameSession
from characters.models import Character


@pytest.fixture(autouse=True)
def eager_unless_redis(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests that are not about a real worker run the jobs inline, as the embedded default
    does, whether or not REDIS_URL is set (CI sets it for the whole suite)."""
    if request.node.get_closest_marker("redis") is None:
        from dustdevils.celery import app

        monkeypatch.setitem(app.conf, "task_always_eager", True)
        monkeypatch.setitem(app.conf, "task_eager_propagates", True)


@pytest.fixture
def open_session(campaign: Any, dealer: User) -> GameSession:
    from campaigns.game_sessions import session_start

    return session_start(campaign=campaign, actor=dealer)


def hurt(character: Any, **currents: int) -> Any:
    """Set current values directly (as Difficulty would, R9)."""
    Character.objects.filter(pk=character.pk).update(
        **{f"{name}_current": value for name, value in currents.items()}
    )
    character.refresh_from_db()
    return character


def currents(character: Any) -> dict[str, int]:
    character.refresh_from_db()
    return {a: character.current(a) for a in ("hand", "eye", "guts", "heart")}


@contextmanager
def counted_delay() -> Iterator[mock.MagicMock]:
    """Count ``recover_session.delay`` calls, still running each one eagerly (inline)."""
    from campaigns.tasks import recover_session

    with mock.patch.object(
        recover_session, "delay", side_effect=lambda *a, **kw: recover_session.apply(a, kw)
    ) as delay:
        yield delay


def url(name: str, *args: Any) -> str:
    return reverse(f"campaigns:{name}", args=args)
