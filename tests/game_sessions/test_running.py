"""Running a session: the Dealer starts it, ends it (R22's carry-over ruling), and ending it twice
queues ONE recovery. Eager Celery (the embedded default): the recovery runs inline on commit."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from campaigns.game_sessions import session_end, session_start
from campaigns.models import GameSession, JobRun, SessionEvent
from campaigns.services import CampaignError, session_plan
from characters.models import SessionSnapshot
from tests.game_sessions.conftest import counted_delay, currents, hurt, url

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


# --- Starting ------------------------------------------------------------------------------


def test_it_opens_the_earliest_planned_session(campaign: Any, dealer: User) -> None:
    session_plan(campaign=campaign)
    session_plan(campaign=campaign)
    session = session_start(campaign=campaign, actor=dealer)
    assert (session.number, session.status) == (1, "open")
    assert session.started_at is not None
    assert session.last_activity_at == session.started_at
    assert SessionEvent.objects.filter(session=session, actor=dealer).count() == 1


def test_it_creates_and_opens_the_next_session_when_none_is_planned(
    campaign: Any, dealer: User
) -> None:
    first = session_start(campaign=campaign, actor=dealer)
    session_end(session_id=first.pk, actor=dealer)
    second = session_start(campaign=campaign, actor=dealer)
    assert (first.number, second.number, second.status) == (1, 2, "open")


def test_it_starts_one_session_at_a_time(campaign: Any, dealer: User) -> None:
    session_plan(campaign=campaign)
    session_plan(campaign=campaign)
    first = session_start(campaign=campaign, actor=dealer)
    assert session_start(campaign=campaign, actor=dealer) == first  # a double click
    assert session_start(campaign=campaign, actor=dealer, number=1) == first
    with pytest.raises(CampaignError, match="Session 1 is still being played"):
        session_start(campaign=campaign, actor=dealer, number=2)
    assert GameSession.objects.filter(status="open").count() == 1


def test_it_refuses_to_start_an_ended_session(campaign: Any, dealer: User) -> None:
    session = session_start(campaign=campaign, actor=dealer)
    session_end(session_id=session.pk, actor=dealer)
    with pytest.raises(CampaignError, match="has ended"):
        session_start(campaign=campaign, actor=dealer, number=1)


def test_it_lets_the_dealer_start_from_the_campaign_page(
    client_as: Callable[[Any], Client], campaign: Any, dealer: User
) -> None:
    client = client_as(dealer)
    page = client.get(campaign.get_absolute_url()).content.decode()
    assert "Start the next session" in page
    response = client.post(url("session_start", campaign.slug))
    assert response["Location"] == url("session", campaign.slug, 1)
    assert GameSession.objects.get().status == "open"
    page = client.get(campaign.get_absolute_url()).content.decode()
    assert "Start the next session" not in page
    assert "Go to the table" in page


def test_it_keeps_starting_and_ending_to_the_dealer(
    client_as: Callable[[Any], Client], campaign: Any, player_a: User, open_session: Any
) -> None:
    client = client_as(player_a)
    assert client.post(url("session_start", campaign.slug)).status_code == 403
    assert client.post(url("session_end", campaign.slug, 1)).status_code == 403
    html = client.get(url("session", campaign.slug, 1)).content.decode()
    assert "End the session" not in html
    open_session.refresh_from_db()
    assert open_session.status == "open"


# --- Ending (R22) --------------------------------------------------------------------------------


def test_it_ends_a_session_and_recovers_on_commit_R22(
    django_capture_on_commit_callbacks: Any, open_session: Any, dealer: User, pc_a: Any
) -> None:
    hurt(pc_a, hand=2, eye=1)
    with counted_delay() as delay, django_capture_on_commit_callbacks(execute=True):
        result = session_end(session_id=open_session.pk, actor=dealer)
    assert result.ended
    delay.assert_called_once_with(open_session.pk)
    open_session.refresh_from_db()
    assert (open_session.status, open_session.damage_carries_over) == ("ended", False)
    assert open_session.ended_at is not None
    assert currents(pc_a) == {"hand": 4, "eye": 3, "guts": 3, "heart": 3}
    snapshot = SessionSnapshot.objects.get(session=open_session, character=pc_a)
    assert (snapshot.hand_current, snapshot.eye_current, snapshot.chips) == (2, 1, 3)


def test_it_queues_one_recovery_when_ended_twice(
    django_capture_on_commit_callbacks: Any, open_session: Any, dealer: User, pc_a: Any
) -> None:
    """A double click, or the session ended in two tabs: the second end is a no-op."""
    hurt(pc_a, hand=2)
    with counted_delay() as delay, django_capture_on_commit_callbacks(execute=True):
        first = session_end(session_id=open_session.pk, actor=dealer)
        second = session_end(session_id=open_session.pk, actor=dealer, carry_over=True)
    assert (first.ended, second.ended) == (True, False)
    assert second.message == "Session 1 had already ended: nothing more to do."
    assert delay.call_count == 1
    assert JobRun.objects.filter(session=open_session).count() == 1
    open_session.refresh_from_db()
    assert open_session.damage_carries_over is False  # the second end changed nothing
    assert SessionSnapshot.objects.filter(session=open_session, character=pc_a).count() == 1


def test_it_queues_one_recovery_for_two_posts(
    client_as: Callable[[Any], Client],
    django_capture_on_commit_callbacks: Any,
    campaign: Any,
    open_session: Any,
    dealer: User,
    pc_a: Any,
) -> None:
    client = client_as(dealer)
    hurt(pc_a, heart=1)
    with counted_delay() as delay, django_capture_on_commit_callbacks(execute=True):
        first = client.post(url("session_end", campaign.slug, 1), follow=True)
        second = client.post(url("session_end", campaign.slug, 1), headers=HTMX)
    assert delay.call_count == 1
    assert "Session 1 has ended. Recovery is under way (R22)." in first.content.decode()
    assert second["HX-Redirect"] == url("session", campaign.slug, 1)
    page = client.get(second["HX-Redirect"]).content.decode()
    assert "Session 1 had already ended: nothing more to do." in page
    assert currents(pc_a)["heart"] == 3


def test_it_refuses_to_end_a_session_that_has_not_started(campaign: Any, dealer: User) -> None:
    planned = session_plan(campaign=campaign)
    with counted_delay() as delay, pytest.raises(CampaignError, match="has not started"):
        session_end(session_id=planned.pk, actor=dealer)
    assert delay.call_count == 0


def test_it_records_the_carry_over_ruling_R22(
    client_as: Callable[[Any], Client],
    django_capture_on_commit_callbacks: Any,
    campaign: Any,
    open_session: Any,
    dealer: User,
    pc_a: Any,
    pc_b: Any,
) -> None:
    client = client_as(dealer)
    html = client.get(url("session", campaign.slug, 1)).content.decode()
    assert "End the session" in html
    assert "Or only for" in html
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url("session_end", campaign.slug, 1), {"carry_over_for": [pc_b.pk]})
    open_session.refresh_from_db()
    assert list(open_session.carry_over_for.all()) == [pc_b]
    assert not open_session.damage_carries_over
    log = list(SessionEvent.objects.filter(session=open_session).values_list("text", flat=True))
    assert "Delia ends the session. Damage carries over for Bess Doyle (R22)." in log


def test_it_refuses_a_carry_over_for_a_stranger(
    client_as: Callable[[Any], Client], campaign: Any, open_session: Any, dealer: User
) -> None:
    response = client_as(dealer).post(
        url("session_end", campaign.slug, 1), {"carry_over_for": [999999]}, follow=True
    )
    assert "only for characters in play here" in response.content.decode()
    open_session.refresh_from_db()
    assert open_session.status == "open"


# --- The broker is down (issue 19 #9) ---------------------------------------------------------


@pytest.fixture
def broker_down(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Celery as production configures it (a Redis broker and result store, not eager), but
    nothing listens at the address: Redis is down."""
    from dustdevils.celery import app

    down = "redis://127.0.0.1:1/12"
    monkeypatch.setitem(app.conf, "task_always_eager", False)
    monkeypatch.setitem(app.conf, "broker_url", down)
    monkeypatch.setitem(app.conf, "result_backend", down)
    monkeypatch.setattr(app, "_pool", None)  # made again, for the broker above
    monkeypatch.setattr(app.amqp, "_producer_pool", None)
    backend = app._local.__dict__.pop("backend", None)
    try:
        yield
    finally:
        app._local.__dict__.pop("backend", None)
        if backend is not None:
            app._local.backend = backend
        if app._pool is not None:
            app._pool.force_close_all()


@pytest.mark.django_db(transaction=True)  # commits for real: the recovery is queued on commit
def test_it_ends_at_once_and_says_the_recovery_waits_for_the_broker(
    broker_down: None,
    client_as: Callable[[Any], Client],
    campaign: Any,
    open_session: Any,
    dealer: User,
) -> None:
    client = client_as(dealer)
    started = time.monotonic()
    response = client.post(url("session_end", campaign.slug, 1), follow=True)
    took = time.monotonic() - started
    page = response.content.decode()
    assert took < 5, f"ending the session took {took:.1f} s with the broker down"
    assert "Session 1 has ended." in page
    assert "the recovery (R22) is not queued yet: it will be queued when the queue is back" in page
    assert "under way" not in page  # never claims work that was not queued
    open_session.refresh_from_db()
    assert open_session.status == "ended"
    assert not JobRun.objects.filter(session=open_session).exists()
