"""The recovery at a session's end (R22): every character in play gets the damage the session
ended with back, except attributes at 0 (R17) and damage the Dealer ruled carries over; once per
session, all or nothing, recorded in each character's history."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.models import User

from campaigns.game_sessions import session_end, session_start
from campaigns.models import JobRun, SessionEvent
from campaigns.recovery import session_recover
from campaigns.tasks import recover_session
from characters.models import AttributeChange, Character
from tests.game_sessions.conftest import currents, hurt

pytestmark = pytest.mark.django_db

FULL = {"hand": 4, "eye": 3, "guts": 3, "heart": 3}


def end(session: Any, dealer: User, **ruling: Any) -> None:
    """End the session without running the recovery (it is queued on commit, and the test's
    transaction never commits): each test runs it when it wants."""
    result = session_end(session_id=session.pk, actor=dealer, **ruling)
    assert result.ended


def test_it_restores_every_character_but_zeros_R17_R22(
    open_session: Any, dealer: User, pc_a: Any, pc_b: Any, npc: Any
) -> None:
    hurt(pc_a, hand=1, guts=0)  # Guts at 0: the Road to Hell, no recovery there (R17)
    hurt(pc_b, eye=2, heart=1)
    hurt(npc, heart=2)
    end(open_session, dealer)
    result = recover_session.delay(open_session.pk).get()
    assert result == {
        "session_id": open_session.pk,
        "done_now": True,
        "points": 3 + 1 + 2 + 2,
        "characters": 3,
        "zeros_kept": 1,
        "carried": 0,
    }
    assert currents(pc_a) == {**FULL, "guts": 0}
    assert currents(pc_b) == FULL
    npc.refresh_from_db()
    assert npc.heart_current == 4
    rows = set(
        AttributeChange.objects.filter(session=open_session).values_list(
            "character__name", "attribute", "before", "after", "reason"
        )
    )
    assert rows == {
        ("Abe Slade", "hand", 1, 4, "recovery"),
        ("Bess Doyle", "eye", 2, 3, "recovery"),
        ("Bess Doyle", "heart", 1, 3, "recovery"),
        ("Mayor Crane", "heart", 2, 4, "recovery"),
    }
    run = JobRun.objects.get(session=open_session)
    assert run.job == "recover_session"
    assert run.finished_at is not None
    assert run.summary["points"] == 8
    log = SessionEvent.objects.filter(session=open_session).last()
    assert log is not None
    assert log.text == (
        "Recovery: attributes back to their ratings for Abe Slade, Bess Doyle, one of the "
        "Dealer's characters (R22). At 0, no recovery: Abe Slade's Guts (R17)."
    )


def test_it_changes_nothing_the_second_time(open_session: Any, dealer: User, pc_a: Any) -> None:
    hurt(pc_a, hand=1)
    end(open_session, dealer)
    assert session_recover(session_id=open_session.pk).done_now
    hurt(pc_a, hand=2)  # Difficulty taken after the recovery (the next session, say)
    again = session_recover(session_id=open_session.pk)
    assert again.done_now is False
    assert currents(pc_a)["hand"] == 2
    assert JobRun.objects.count() == 1
    assert AttributeChange.objects.filter(reason="recovery").count() == 1


def test_it_carries_damage_over_for_everyone_R22(
    open_session: Any, dealer: User, pc_a: Any, pc_b: Any
) -> None:
    hurt(pc_a, hand=1)
    hurt(pc_b, eye=1)
    end(open_session, dealer, carry_over=True)
    result = session_recover(session_id=open_session.pk)
    assert (result.points, result.carried) == (0, 3 + 2)
    assert currents(pc_a)["hand"] == 1
    assert currents(pc_b)["eye"] == 1


def test_it_carries_damage_over_for_named_characters_R22(
    open_session: Any, dealer: User, pc_a: Any, pc_b: Any
) -> None:
    hurt(pc_a, hand=1)
    hurt(pc_b, eye=1)
    end(open_session, dealer, carry_over_ids=[pc_b.pk])
    result = session_recover(session_id=open_session.pk)
    assert (result.points, result.carried) == (3, 2)
    assert currents(pc_a) == FULL
    assert currents(pc_b)["eye"] == 1
    log = SessionEvent.objects.filter(session=open_session).last()
    assert log is not None
    assert log.text.endswith("Damage carried over for Bess Doyle.")


def test_it_leaves_characters_out_of_play_alone(open_session: Any, dealer: User, pc_a: Any) -> None:
    hurt(pc_a, hand=1)
    Character.objects.filter(pk=pc_a.pk).update(out_of_play=True)
    end(open_session, dealer)
    assert session_recover(session_id=open_session.pk).points == 0
    assert currents(pc_a)["hand"] == 1


def test_it_never_heals_damage_taken_after_the_end(
    campaign: Any, open_session: Any, dealer: User, pc_a: Any
) -> None:
    """A late job (the worker was down while the next session began) restores the damage the
    session ended with, not Difficulty taken since."""
    hurt(pc_a, hand=2)
    end(open_session, dealer)
    session_start(campaign=campaign, actor=dealer)
    hurt(pc_a, hand=1, eye=2)  # taken in session 2, before the recovery of session 1 ran
    session_recover(session_id=open_session.pk)
    assert currents(pc_a) == {**FULL, "hand": 3, "eye": 2}


def test_it_keeps_a_zero_reached_after_the_end(open_session: Any, dealer: User, pc_a: Any) -> None:
    hurt(pc_a, hand=2)
    end(open_session, dealer)
    hurt(pc_a, hand=0)
    result = session_recover(session_id=open_session.pk)
    assert (result.points, result.zeros_kept) == (0, 1)
    assert currents(pc_a)["hand"] == 0


def test_it_skips_a_session_that_has_not_ended(open_session: Any, pc_a: Any) -> None:
    hurt(pc_a, hand=1)
    assert session_recover(session_id=open_session.pk).done_now is False
    assert session_recover(session_id=987654).done_now is False
    assert currents(pc_a)["hand"] == 1
    assert not JobRun.objects.exists()


def test_it_leaves_nothing_half_done_when_it_fails(
    open_session: Any, dealer: User, pc_a: Any, pc_b: Any
) -> None:
    """One transaction: a failure after the changes (here, in the log line) rolls back the
    JobRun and every restored point, so the retry does it all."""
    hurt(pc_a, hand=1)
    hurt(pc_b, eye=1)
    end(open_session, dealer)
    with (
        mock.patch("campaigns.recovery.SessionEvent.objects.create", side_effect=RuntimeError),
        pytest.raises(RuntimeError),
    ):
        session_recover(session_id=open_session.pk)
    assert currents(pc_a)["hand"] == 1
    assert not JobRun.objects.exists()
    assert not AttributeChange.objects.exists()
    assert session_recover(session_id=open_session.pk).points == 3 + 2
    assert currents(pc_a) == FULL
    assert currents(pc_b) == FULL


def test_it_retries_database_errors_and_acks_late() -> None:
    """What makes a redelivered or failed job come back (see test_worker.py for the real
    thing): late acks, requeue when the worker dies, retries with backoff."""
    from django.db import InterfaceError, OperationalError

    assert recover_session.acks_late is True
    assert recover_session.reject_on_worker_lost is True
    assert recover_session.autoretry_for == (OperationalError, InterfaceError)  # type: ignore[attr-defined]
    assert recover_session.retry_backoff is True  # type: ignore[attr-defined]
    assert recover_session.max_retries == 8


def test_it_keeps_the_recovery_jobs_name_where_it_is_defined() -> None:
    """The job lives in campaigns.recovery (next to its work, so nothing imports back) under
    the name it was queued by before: a job queued before an upgrade still finds its task."""
    from dustdevils.celery import app

    assert recover_session.name == "campaigns.tasks.recover_session"
    assert "campaigns.tasks.recover_session" in app.tasks


def test_it_tells_open_sheets_on_commit(
    django_capture_on_commit_callbacks: Any, open_session: Any, dealer: User, pc_a: Any, pc_b: Any
) -> None:
    """A restored character's open sheet refreshes (campaigns.live), once the job commits."""
    hurt(pc_a, hand=1)
    end(open_session, dealer)
    with (
        mock.patch("dustdevils.live.broadcast.publish") as publish,
        django_capture_on_commit_callbacks(execute=True),
    ):
        session_recover(session_id=open_session.pk)
    assert [c.args[0] for c in publish.call_args_list] == [f"character-{pc_a.pk}"]
