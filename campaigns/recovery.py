"""The recovery at a game session's end (R17, R22), and the Celery job that runs it.

Ending a session (``campaigns.game_sessions``) queues ``recover_session`` on commit; a worker
runs it (on the embedded default, the request that ended the session). The recovery restores
the damage the session ENDED with (the characters' snapshots, written as it ended), never
more: a job that runs late, after a worker was down while the next session began, does not
heal Difficulty taken after the end.

The job is defined here, next to its work, so that the modules that queue it import it from
here and nothing imports them back; ``campaigns.tasks`` lists it with the other jobs.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import IntegrityError, InterfaceError, OperationalError, transaction
from django.utils import timezone

from campaigns.models import GameSession, JobRun, SessionEvent
from characters.models import AttributeChange, Character, SessionSnapshot
from characters.rules import ATTRIBUTE_LABELS, ATTRIBUTES
from dustdevils.live import broadcast as live

log = logging.getLogger(__name__)

Status = GameSession.Status
RECOVER = JobRun.Job.RECOVER


# Named as when it was defined in campaigns.tasks: jobs queued under that name before an
# upgrade still find their task.
@shared_task(
    name="campaigns.tasks.recover_session",
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    retry_backoff_max=300,
    retry_jitter=True,
    max_retries=8,
    acks_late=True,
    reject_on_worker_lost=True,
    # Nobody waits for its result (JobRun records the run): queueing it then needs only the
    # broker, not a result-store subscription that retries for ~20 s while Redis is down.
    ignore_result=True,
)
def recover_session(session_id: int) -> dict[str, Any]:
    """R22: the recovery at the end of session ``session_id`` (idempotent: once per session)."""
    return session_recover(session_id=session_id).as_dict()


@dataclass(frozen=True)
class Recovery:
    session_id: int
    done_now: bool  # False: done before (a repeated or redelivered job), or nothing to do
    points: int = 0
    characters: int = 0
    zeros_kept: int = 0  # attributes left at 0 (R17)
    carried: int = 0  # points of damage carried over (R22)

    def as_dict(self) -> dict[str, int | bool]:
        return {
            "session_id": self.session_id,
            "done_now": self.done_now,
            "points": self.points,
            "characters": self.characters,
            "zeros_kept": self.zeros_kept,
            "carried": self.carried,
        }


@dataclass
class _Tally:
    points: int = 0
    restored: list[Character] = field(default_factory=list)
    zeros: list[tuple[Character, str]] = field(default_factory=list)
    carried: dict[Character, int] = field(default_factory=dict)

    @property
    def characters(self) -> int:
        return len(self.restored)


def session_recover(*, session_id: int) -> Recovery:
    """R22: at the end of a session every character in play gets back the damage the session
    ended with, except attributes at 0 (R17) and damage the Dealer ruled carries over. Each
    restored attribute is recorded in the character's history.

    Idempotent and all-or-nothing: the unique JobRun row and every change commit in ONE
    transaction. A second run finds the row (or waits on the first run's insert and then finds
    it) and changes nothing; a run killed half-way leaves nothing, and the redelivered task
    does it all."""
    with transaction.atomic():
        session = GameSession.objects.filter(pk=session_id).first()
        if session is None or session.status != Status.ENDED:
            log.warning("Recovery of session id %s skipped: not an ended session", session_id)
            return Recovery(session_id, False)
        now = timezone.now()
        try:
            with transaction.atomic():
                run = JobRun.objects.create(session=session, job=RECOVER, started_at=now)
        except IntegrityError:
            log.info("Recovery of session id %s already done: nothing to do", session_id)
            return Recovery(session_id, False)
        tally = _restore(session, now)
        _hold_for_tests(session_id)
        recovery = Recovery(
            session_id,
            True,
            points=tally.points,
            characters=tally.characters,
            zeros_kept=len(tally.zeros),
            carried=sum(tally.carried.values()),
        )
        run.finished_at = timezone.now()
        run.summary = recovery.as_dict()
        run.save(update_fields=["finished_at", "summary"])
        SessionEvent.objects.create(session=session, text=_recovery_text(tally))
    log.info("Recovery of session %s (id %s): %s", session.number, session_id, recovery)
    return recovery


def _restore(session: GameSession, now: datetime) -> _Tally:
    snapshots = {s.character_id: s for s in SessionSnapshot.objects.filter(session=session)}
    carried_ids = set(session.carry_over_for.values_list("pk", flat=True))
    characters = (
        Character.objects.select_for_update()
        .filter(campaign_id=session.campaign_id, out_of_play=False, pk__in=list(snapshots))
        .order_by("pk")  # one order for every locker: no deadlock between two jobs
    )
    tally = _Tally()
    changes: list[AttributeChange] = []
    for character in characters:
        snap = snapshots[character.pk]
        carries = session.damage_carries_over or character.pk in carried_ids
        changed: list[str] = []
        for a in ATTRIBUTES:
            damage = snap.rating(a) - snap.current(a)
            now_at, rating = character.current(a), character.rating(a)
            if damage <= 0 or now_at >= rating:
                continue
            if snap.current(a) == 0 or now_at == 0:  # R17: a 0 does not recover
                tally.zeros.append((character, a))
                continue
            if carries:  # R22: the Dealer's ruling
                tally.carried[character] = tally.carried.get(character, 0) + damage
                continue
            after = min(rating, now_at + damage)
            setattr(character, f"{a}_current", after)
            changed.append(f"{a}_current")
            changes.append(
                AttributeChange(
                    character=character,
                    session=session,
                    attribute=a,
                    before=now_at,
                    after=after,
                    reason=AttributeChange.Reason.RECOVERY,
                    at=now,
                )
            )
            tally.points += after - now_at
        if changed:
            character.save(update_fields=[*changed, "updated_at"])
            tally.restored.append(character)
            live.publish_on_commit(f"character-{character.pk}")  # open sheets refresh
    AttributeChange.objects.bulk_create(changes)
    return tally


def _recovery_text(tally: _Tally) -> str:
    """The log line, for the whole table: no attribute of a Dealer's character is named."""
    if tally.restored:
        names = names_for_the_log(tally.restored)
        parts = [f"Recovery: attributes back to their ratings for {names} (R22)."]
    else:
        parts = ["Recovery: nobody had damage to recover (R22)."]
    zeros = [f"{c.name}'s {ATTRIBUTE_LABELS[a]}" for c, a in tally.zeros if c.is_pc]
    if zeros:
        parts.append(f"At 0, no recovery: {', '.join(zeros)} (R17).")
    if tally.carried:
        parts.append(f"Damage carried over for {names_for_the_log(tally.carried)}.")
    return " ".join(parts)


def _hold_for_tests(session_id: int) -> None:
    """A test hook, inert unless the setting RECOVERY_TEST_HOLD names a file (only the worker
    of the kill test sets it, through tests/game_sessions/worker_settings.py): the job says it got
    here, with every change made and nothing committed, and waits while that file exists, so
    the test can kill the worker at exactly this point."""
    hold = str(getattr(settings, "RECOVERY_TEST_HOLD", "") or "")
    if not hold:
        return
    flag = Path(hold)
    Path(f"{hold}.reached").write_text(str(session_id))
    deadline = time.monotonic() + 120
    while flag.exists() and time.monotonic() < deadline:
        time.sleep(0.1)


def names_for_the_log(characters: Iterable[Character]) -> str:
    """Characters named for a session's log, which the whole table reads: player characters by
    name, the Dealer's characters only counted (their sheets are the Dealer's secret)."""
    people = sorted(characters, key=lambda c: c.name)
    names = [c.name for c in people if c.is_pc]
    npcs = sum(1 for c in people if not c.is_pc)
    if npcs:
        names.append(f"{npcs if npcs > 1 else 'one'} of the Dealer's characters")
    return ", ".join(names)
