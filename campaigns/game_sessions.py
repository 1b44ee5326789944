"""Running game sessions: starting the next one, ending it (with R22's carry-over ruling), and
the sweep of sessions and conflicts left open.

Writes only (the session page's reads are in ``campaigns.session_story``). Ending a session
commits at once and queues its recovery (``campaigns.recovery``) on commit. The Celery jobs in
``campaigns.tasks`` are thin: they call ``session_recover`` and ``stale_sweep``, which take ids,
lock what they change and are safe to run twice.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F, Q
from django.db.models.functions import Coalesce
from django.utils import timezone
from kombu.exceptions import OperationalError as KombuOperationalError

from campaigns import streams as campaign_page
from campaigns.models import Campaign, GameSession, JobRun, Membership, SessionEvent
from campaigns.recovery import names_for_the_log, recover_session
from campaigns.selectors import display_name
from campaigns.services import CampaignError
from characters.models import Character, SessionSnapshot
from characters.rules import ATTRIBUTES
from conflicts.models import Conflict

log = logging.getLogger(__name__)

Status = GameSession.Status
RECOVER = JobRun.Job.RECOVER
# An ended session whose recovery has not run this long after the end had its job lost (the
# broker was down when it was queued, say): the sweep queues it again.
LOST_RECOVERY_MINUTES = 10


# --- Starting ------------------------------------------------------------------------------------


def session_start(*, campaign: Campaign, actor: User, number: int | None = None) -> GameSession:
    """The Dealer starts a session: the planned session ``number``, else the earliest planned
    one, else a new one. One session is played at a time. Starting the session that is already
    being played (a double click, a second tab) changes nothing and returns it."""
    with transaction.atomic():
        # The campaign row serialises starts: two tabs cannot open two sessions.
        Campaign.objects.select_for_update().filter(pk=campaign.pk).first()
        sessions = GameSession.objects.filter(campaign=campaign)
        playing = sessions.filter(status=Status.OPEN).first()
        if playing is not None:
            if number is None or playing.number == number:
                return playing
            raise CampaignError(
                f"Session {playing.number} is still being played: end it before starting "
                f"session {number}."
            )
        if number is not None:
            session = sessions.filter(number=number).first()
            if session is None:
                raise CampaignError(f"There is no session {number}.")
            if session.status == Status.ENDED:
                raise CampaignError(f"Session {number} has ended; start the next one.")
        else:
            session = sessions.filter(status=Status.PLANNED).order_by("number").first()
            if session is None:
                last = sessions.order_by("-number").first()
                session = GameSession.objects.create(
                    campaign=campaign, number=(last.number + 1) if last else 1
                )
        now = timezone.now()
        session.status = Status.OPEN
        session.started_at = now
        session.last_activity_at = now
        session.save(update_fields=["status", "started_at", "last_activity_at"])
        SessionEvent.objects.create(
            session=session,
            actor=actor,
            at=now,
            text=f"{display_name(actor)} starts session {session.number}. Players: set your "
            "Devil ratings (R21).",
        )
        campaign_page.announce(campaign.pk)  # open campaign and session pages look again
    log.info("Session %s of %s started by %s", session.number, campaign.slug, actor)
    return session


# --- Ending --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SessionEnd:
    session: GameSession
    ended: bool  # False: it had already ended (a double click, a second tab) or was not stale
    message: str


def session_end(
    *,
    session_id: int,
    actor: User,
    carry_over: bool = False,
    carry_over_ids: Iterable[int] = (),
    in_play: str = "",
) -> SessionEnd:
    """The Dealer ends the session (open → ended), optionally ruling that damage carries over
    into the next one, for everyone or for the named characters (R22). Commits at once and
    queues ONE recovery on commit: the session row is locked, so ending it twice does nothing
    the second time (and says so).

    Conflicts still in play are never left silently (issue 18): ``in_play`` says what to do
    with them — "finish" them first (the session stays open), "fold" them (the Dealer's fold,
    R15: a chip to every player; one past the Call cannot fold and stays open, said so), or
    "leave" them open; without it the end is refused, naming them."""
    text = f"{display_name(actor)} ends the session."
    session = GameSession.objects.get(pk=session_id)
    open_ = []
    if session.status == Status.OPEN:
        open_ = list(session.conflicts.exclude(phase__in=Conflict.OVER).order_by("created_at"))
    if open_ and in_play not in ("fold", "leave"):
        names = ", ".join(f"“{c.title}”" for c in open_)
        if in_play == "finish":
            return SessionEnd(session, False, f"Finish {names} first: the session stays open.")
        raise CampaignError(
            f"Still in play: {names}. Say what to do with them: finish them first, fold them, "
            "or leave them open."
        )
    if open_:
        text += " " + _settle_in_play(open_, actor, fold=in_play == "fold")
    return _end(
        session_id=session_id,
        actor=actor,
        carry_over=carry_over,
        carry_over_ids=carry_over_ids,
        text=text,
    )


def _settle_in_play(conflicts: list[Conflict], actor: User, *, fold: bool) -> str:
    """The session's log line for conflicts in play at its end (folded where the rules allow)."""
    from conflicts.engine import conflict as engine
    from conflicts.services import ConflictError, conflict_move

    left = []
    folded = []
    for conflict in conflicts:
        if fold:
            membership = Membership.objects.get(campaign_id=conflict.campaign_id, user=actor)
            try:
                conflict_move(
                    conflict_id=conflict.pk, membership=membership, move=engine.DealerFold(),
                    version=None,
                )  # fmt: skip
            except ConflictError:
                left.append(conflict.title)  # past the Call: it cannot fold (R15, R19)
            else:
                folded.append(conflict.title)
                continue
        else:
            left.append(conflict.title)
    parts = []
    if folded:
        parts.append("Folded at the end: " + ", ".join(f"“{t}”" for t in folded) + ".")
    if left:
        parts.append("Left in play: " + ", ".join(f"“{t}”" for t in left) + ".")
    return " ".join(parts)


def _end(
    *,
    session_id: int,
    actor: User | None,
    text: str,
    carry_over: bool = False,
    carry_over_ids: Iterable[int] = (),
    stale_before: datetime | None = None,
) -> SessionEnd:
    with transaction.atomic():
        session = (
            GameSession.objects.select_for_update(of=("self",))  # the session row only
            .select_related("campaign")
            .get(pk=session_id)
        )
        n = session.number
        if session.status == Status.ENDED:
            return SessionEnd(session, False, f"Session {n} had already ended: nothing more to do.")
        if session.status == Status.PLANNED:
            raise CampaignError(f"Session {n} has not started yet.")
        if stale_before is not None:  # the sweep: re-checked under the lock
            active = session.last_activity_at or session.started_at
            if active is None or active >= stale_before:
                return SessionEnd(session, False, f"Session {n} is in use again.")
        wanted = set(carry_over_ids)
        carried = list(Character.objects.filter(campaign_id=session.campaign_id, pk__in=wanted))
        if len(carried) != len(wanted):
            raise CampaignError("Damage can carry over only for characters of this campaign.")
        now = timezone.now()
        session.status = Status.ENDED
        session.ended_at = now
        session.damage_carries_over = carry_over
        session.save(update_fields=["status", "ended_at", "damage_carries_over"])
        session.carry_over_for.set(carried)
        _snapshot(session, now)
        ruling = _carry_over_text(carry_over, carried)
        SessionEvent.objects.create(
            session=session, actor=actor, at=now, text=" ".join(filter(None, [text, ruling]))
        )
        campaign_page.announce(session.campaign_id)
        # The end is committed whatever happens to the queueing; a recovery that could not be
        # queued (broker down) is queued again by the sweep (LOST_RECOVERY_MINUTES).
        queued: list[bool] = []
        transaction.on_commit(lambda: queued.append(_queue_recovery(session_id)), robust=True)
    log.info("Session %s of %s ended: %s %s", n, session.campaign.slug, text, ruling)
    if queued == [False]:
        message = (
            f"Session {n} has ended. The job queue cannot be reached just now, so the recovery "
            "(R22) is not queued yet: it will be queued when the queue is back."
        )
    else:  # queued, or (inside a caller's transaction) queued when that commits
        message = f"Session {n} has ended. Recovery is under way (R22)."
    return SessionEnd(session, True, message)


def _carry_over_text(everyone: bool, carried: list[Character]) -> str:
    """For the session's log, which the whole table reads: player characters by name; the
    Dealer's characters only counted (their sheets are the Dealer's secret)."""
    if everyone:
        return "Damage carries over for everyone (R22)."
    if carried:
        return f"Damage carries over for {names_for_the_log(carried)} (R22)."
    return ""


def _snapshot(session: GameSession, now: datetime) -> None:
    """Every character as the session ends (before recovery): the history chart's points and
    the measure of what the recovery restores."""
    in_play = Q(out_of_play=False)
    if session.started_at is not None:
        in_play |= Q(left_play_at__gte=session.started_at)
    characters = Character.objects.filter(in_play, campaign_id=session.campaign_id)
    SessionSnapshot.objects.bulk_create(
        SessionSnapshot(
            character=c,
            session=session,
            chips=c.chips,
            taken_at=now,
            **{a: c.rating(a) for a in ATTRIBUTES},
            **{f"{a}_current": c.current(a) for a in ATTRIBUTES},
        )
        for c in characters
    )


def _queue_recovery(session_id: int) -> bool:
    """Queue the recovery; False (logged) when the broker cannot take it now. Quick either
    way: the task keeps no result (no result-store subscription to retry) and the broker's
    connection and publish retries are short (settings: CELERY_BROKER_*)."""
    try:
        recover_session.delay(session_id)
    except KombuOperationalError as error:  # the broker is away: the sweep queues it again
        log.warning("Recovery of session id %s not queued (%s): the sweep will", session_id, error)
        return False
    return True


# --- The sweep -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sweep:
    sessions_ended: list[int] = field(default_factory=list)
    conflicts_marked: list[int] = field(default_factory=list)
    recoveries_queued: list[int] = field(default_factory=list)

    def as_dict(self) -> dict[str, list[int]]:
        return {
            "sessions_ended": self.sessions_ended,
            "conflicts_marked": self.conflicts_marked,
            "recoveries_queued": self.recoveries_queued,
        }


def stale_sweep(*, now: datetime | None = None) -> Sweep:
    """Sessions left open with no activity (the last conflict move, or the start) for
    STALE_SESSION_HOURS are ended and recovered as if the Dealer had ended them, with a line in
    the session's log. Conflicts not over with no move for STALE_CONFLICT_HOURS are marked
    abandoned, so the Dealer can resume or close them. Ended sessions whose recovery was lost
    get it queued again. Safe to run at any time, and twice."""
    now = now or timezone.now()
    session_hours = settings.STALE_SESSION_HOURS
    session_cutoff = now - timedelta(hours=session_hours)
    stale = (
        GameSession.objects.filter(status=Status.OPEN)
        .annotate(active=Coalesce("last_activity_at", "started_at"))
        .filter(active__lt=session_cutoff)
        .order_by("pk")
    )
    ended = []
    for session in stale:
        active = session.last_activity_at or session.started_at
        assert active is not None  # the filter above
        since = timezone.localtime(active).strftime("%d %b %H:%M")
        result = _end(
            session_id=session.pk,
            actor=None,
            text=f"Ended by the app: no activity for {session_hours} hours (since {since}).",
            stale_before=session_cutoff,
        )
        if result.ended:
            ended.append(session.pk)
            log.warning(
                "Stale session ended: %s (id %s), no activity since %s",
                session,
                session.pk,
                since,
            )
    conflict_cutoff = now - timedelta(hours=settings.STALE_CONFLICT_HOURS)
    abandoned = (
        Conflict.objects.exclude(phase__in=Conflict.OVER)
        .filter(last_move_at__lt=conflict_cutoff)
        .filter(Q(abandoned_at__isnull=True) | Q(abandoned_at__lt=F("last_move_at")))
    )
    marked = list(abandoned.values_list("pk", flat=True).order_by("pk"))
    if marked:
        # update() leaves last_move_at alone: the next move makes it newer than abandoned_at,
        # which is how a resumed conflict stops being "abandoned".
        Conflict.objects.filter(pk__in=marked).update(abandoned_at=now)
        log.warning(
            "Conflicts marked abandoned (no move for %s hours): %s",
            settings.STALE_CONFLICT_HOURS,
            marked,
        )
    lost = list(
        GameSession.objects.filter(
            status=Status.ENDED,
            ended_at__lt=now - timedelta(minutes=LOST_RECOVERY_MINUTES),
            snapshots__isnull=False,
        )
        .exclude(job_runs__job=RECOVER)
        .values_list("pk", flat=True)
        .distinct()
        .order_by("pk")
    )
    queued = []
    for session_id in lost:
        log.warning("Recovery of session id %s was lost: queueing it again", session_id)
        if _queue_recovery(session_id):
            queued.append(session_id)
    return Sweep(ended, marked, queued)
