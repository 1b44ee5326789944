"""The periodic sweep, on a frozen clock: sessions left open with no activity for
STALE_SESSION_HOURS are ended and recovered (R22) with a line in their log; conflicts left
mid-way for STALE_CONFLICT_HOURS are marked abandoned, and the session page says so."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable
from typing import Any

import pytest
import time_machine
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from campaigns.game_sessions import session_end, session_start, stale_sweep
from campaigns.models import GameSession, JobRun, Membership, SessionEvent
from campaigns.tasks import sweep_stale_sessions
from conflicts.engine import conflict as engine
from conflicts.models import Conflict
from conflicts.services import HandSpec, conflict_create, conflict_move
from tests.game_sessions.conftest import counted_delay, currents, hurt, url

pytestmark = pytest.mark.django_db

START = dt.datetime(2027, 3, 12, 20, 0, tzinfo=dt.UTC)


@pytest.fixture
def clock() -> Any:
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


@pytest.fixture(autouse=True)
def hours(settings: Any) -> None:
    settings.STALE_SESSION_HOURS = 12
    settings.STALE_CONFLICT_HOURS = 6


def showdown(campaign: Any, dealer: User, session: Any, pc_a: Any) -> Conflict:
    return conflict_create(
        campaign=campaign,
        actor=dealer,
        title="Showdown at the livery",
        hands=[HandSpec(character=pc_a), HandSpec(stud_size=5)],
        session=session,
    )


def test_it_ends_and_recovers_a_session_left_open(
    clock: Any,
    django_capture_on_commit_callbacks: Any,
    campaign: Any,
    dealer: User,
    pc_a: Any,
) -> None:
    session = session_start(campaign=campaign, actor=dealer)
    hurt(pc_a, hand=1)
    clock.move_to(START + dt.timedelta(hours=11, minutes=59))
    assert stale_sweep().sessions_ended == []
    clock.move_to(START + dt.timedelta(hours=12, minutes=1))
    with counted_delay() as delay, django_capture_on_commit_callbacks(execute=True):
        result = sweep_stale_sessions.delay().get()
    assert result["sessions_ended"] == [session.pk]
    assert delay.call_count == 1
    session.refresh_from_db()
    assert session.status == "ended"
    assert session.ended_at == timezone.now()
    assert currents(pc_a)["hand"] == 4
    texts = list(SessionEvent.objects.filter(session=session).values_list("text", flat=True))
    assert "Ended by the app: no activity for 12 hours (since 12 Mar 20:00)." in texts
    assert JobRun.objects.filter(session=session).count() == 1
    # Swept again: nothing left to do.
    with counted_delay() as delay, django_capture_on_commit_callbacks(execute=True):
        assert stale_sweep().as_dict() == {
            "sessions_ended": [],
            "conflicts_marked": [],
            "recoveries_queued": [],
        }
    assert delay.call_count == 0


def test_it_counts_the_last_conflict_move_as_activity(
    clock: Any, campaign: Any, dealer: User, pc_a: Any
) -> None:
    session = session_start(campaign=campaign, actor=dealer)
    conflict = showdown(campaign, dealer, session, pc_a)
    clock.move_to(START + dt.timedelta(hours=10))
    seat = Membership.objects.get(campaign=campaign, user=dealer)
    conflict_move(
        conflict_id=conflict.pk,
        membership=seat,
        move=engine.Approve(f"c{pc_a.pk}", ("hand", "eye")),
        version=0,
        rng=random.Random(1),
    )
    clock.move_to(START + dt.timedelta(hours=13))
    assert stale_sweep().sessions_ended == []
    clock.move_to(START + dt.timedelta(hours=22, minutes=1))
    assert stale_sweep().sessions_ended == [session.pk]


def test_it_leaves_planned_and_ended_sessions_alone(
    clock: Any, campaign: Any, dealer: User
) -> None:
    first = session_start(campaign=campaign, actor=dealer)
    session_end(session_id=first.pk, actor=dealer)
    GameSession.objects.create(campaign=campaign, number=2)
    clock.move_to(START + dt.timedelta(days=30))
    assert stale_sweep().sessions_ended == []
    assert SessionEvent.objects.filter(text__startswith="Ended by the app").count() == 0


def test_it_marks_conflicts_left_mid_way(
    clock: Any,
    client_as: Callable[[Any], Client],
    campaign: Any,
    dealer: User,
    player_a: User,
    pc_a: Any,
) -> None:
    session = session_start(campaign=campaign, actor=dealer)
    stuck = showdown(campaign, dealer, session, pc_a)
    over = showdown(campaign, dealer, session, pc_a)
    Conflict.objects.filter(pk=over.pk).update(phase="done")
    clock.move_to(START + dt.timedelta(hours=5))
    GameSession.objects.filter(pk=session.pk).update(last_activity_at=timezone.now())
    assert stale_sweep().conflicts_marked == []
    clock.move_to(START + dt.timedelta(hours=6, minutes=1))
    assert stale_sweep().conflicts_marked == [stuck.pk]
    stuck.refresh_from_db()
    assert stuck.abandoned_at == timezone.now()
    assert stale_sweep().conflicts_marked == []  # already marked
    html = client_as(player_a).get(url("session", campaign.slug, 1)).content.decode()
    assert html.count("badge--abandoned") == 1
    assert "Resume or close" not in html  # the Dealer's button
    html = client_as(dealer).get(url("session", campaign.slug, 1)).content.decode()
    assert "Resume or close" in html


def test_it_unmarks_a_resumed_conflict(
    clock: Any, client_as: Callable[[Any], Client], campaign: Any, dealer: User, pc_a: Any
) -> None:
    session = session_start(campaign=campaign, actor=dealer)
    conflict = showdown(campaign, dealer, session, pc_a)
    clock.move_to(START + dt.timedelta(hours=7))
    assert stale_sweep().conflicts_marked == [conflict.pk]
    clock.move_to(START + dt.timedelta(hours=8))
    conflict_move(
        conflict_id=conflict.pk,
        membership=Membership.objects.get(campaign=campaign, user=dealer),
        move=engine.Approve(f"c{pc_a.pk}", ("hand", "eye")),
        version=0,
    )
    html = client_as(dealer).get(url("session", campaign.slug, 1)).content.decode()
    assert "badge--abandoned" not in html
    clock.move_to(START + dt.timedelta(hours=14, minutes=1))
    assert stale_sweep().conflicts_marked == [conflict.pk]  # left again: marked again


def test_it_queues_a_lost_recovery_again(
    clock: Any,
    django_capture_on_commit_callbacks: Any,
    campaign: Any,
    dealer: User,
    pc_a: Any,
) -> None:
    """The broker was down when the session ended: the end stands, and the sweep queues the
    recovery again once LOST_RECOVERY_MINUTES have passed."""
    session = session_start(campaign=campaign, actor=dealer)
    hurt(pc_a, eye=1)
    with (
        counted_delay() as delay,
        django_capture_on_commit_callbacks(execute=True),
    ):
        delay.side_effect = ConnectionError("broker down")
        assert session_end(session_id=session.pk, actor=dealer).ended  # robust on_commit
    session.refresh_from_db()
    assert session.status == "ended"
    assert currents(pc_a)["eye"] == 1
    clock.move_to(START + dt.timedelta(minutes=5))
    assert stale_sweep().recoveries_queued == []
    clock.move_to(START + dt.timedelta(minutes=11))
    with counted_delay():
        assert stale_sweep().recoveries_queued == [session.pk]
    assert currents(pc_a)["eye"] == 3
    with counted_delay() as delay:
        assert stale_sweep().recoveries_queued == []
    assert delay.call_count == 0


def test_it_reads_the_hours_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    from django.core.exceptions import ImproperlyConfigured

    from dustdevils.env import env_int

    monkeypatch.setenv("STALE_SESSION_HOURS", "3")
    assert env_int("STALE_SESSION_HOURS", 12, minimum=1) == 3
    monkeypatch.setenv("STALE_SESSION_HOURS", "0")
    with pytest.raises(ImproperlyConfigured, match="below the minimum"):
        env_int("STALE_SESSION_HOURS", 12, minimum=1)


def test_it_schedules_the_sweep_on_beat() -> None:
    from django.conf import settings

    entry = settings.CELERY_BEAT_SCHEDULE["sweep-stale-sessions"]
    assert entry["task"] == "campaigns.tasks.sweep_stale_sessions"
    assert entry["schedule"] == dt.timedelta(minutes=settings.SWEEP_INTERVAL_MINUTES)
    assert (settings.STALE_SESSION_HOURS, settings.STALE_CONFLICT_HOURS) == (12, 6)
