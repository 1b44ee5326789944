"""Writes to conflicts: set-up, and every table move (DESIGN.md, "The shape of a table action").

``conflict_move`` is the one way a move reaches a conflict: in one transaction it locks the row,
recognises a repeated submit (idempotency key) and a stale form (version), checks who may make
the move, applies it with the engine, writes the chips to the ledger, saves the new state with
``version + 1``, appends the timeline and, on commit, tells the live layer the table moved.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import (
    F,
)
from django.db.models.functions import Greatest

from campaigns.models import Campaign, DevilRating, GameSession, Membership
from characters.models import AttributeChange, Character
from characters.rules import ATTRIBUTES
from characters.services import CharacterError, characters_leave_play_now, chips_change
from conflicts.engine import conflict as engine
from conflicts.engine.cards import new_salt, system_rng
from conflicts.engine.serial import state_from_data, state_to_data
from conflicts.models import Conflict, Event, MoveKey, Seat
from conflicts.reads import table_read

DEALER_MOVES = (
    engine.Approve, engine.AwardExtraCard, engine.Deal, engine.AwardRedraw, engine.DealerFold,
    engine.Call, engine.Reveal, engine.CloseBids, engine.OverrideDifficulty, engine.Finish,
    engine.ApproveKnack,
)  # fmt: skip


class ConflictError(ValueError):
    """A move the table refuses, in plain words; nothing was changed."""


class StaleMove(ConflictError):
    """The form was made for an older version of the table."""


@dataclass(frozen=True)
class HandSpec:
    """A hand to seat: a character (PC or important NPC), or a Dealer's stud hand."""

    character: Character | None = None
    stud_size: int = 0
    stud_name: str = "The Dealer's stud"
    side: str | None = None
    goal: str = ""


def pid_of(character: Character) -> str:
    return f"c{character.pk}"


def _devil_rating(character: Character, session: GameSession | None) -> int:
    """R21: the Devil rating its player set for the session, when one is set; otherwise the
    character's standing rating."""
    if session is not None:
        rating = (
            DevilRating.objects.filter(session=session, character=character)
            .values_list("rating", flat=True)
            .first()
        )
        if rating is not None:
            return int(rating)
    return character.devil_rating or 0


def _participant(
    spec: HandSpec, index: int, session: GameSession | None = None
) -> tuple[engine.Participant, Character | None]:
    character = spec.character
    if character is None:
        pid = "stud" if index == 0 else f"stud{index + 1}"
        side = spec.side or "dealer"
        return (
            engine.Participant(
                pid, spec.stud_name, engine.Kind.STUD, side=side, stud_size=spec.stud_size
            ),
            None,
        )
    if character.out_of_play:
        raise ConflictError(f"{character.name} has left play.")
    kind = engine.Kind.PC if character.is_pc else engine.Kind.NPC
    if kind == engine.Kind.NPC and not character.is_important:
        raise ConflictError(
            f"{character.name} has no Devil: minor characters go in the Dealer's stud hand (R12)."
        )
    side = spec.side or ("players" if kind == engine.Kind.PC else "dealer")
    return (
        engine.Participant(
            pid_of(character),
            character.name,
            kind,
            side=side,
            currents={a: character.current(a) for a in ATTRIBUTES},
            devil_rating=_devil_rating(character, session),
        ),
        character,
    )


def conflict_create(
    *,
    campaign: Campaign,
    actor: User,
    title: str,
    hands: Sequence[HandSpec],
    stakes: int = 0,
    session: GameSession | None = None,
    recovery: tuple[Character, int] | None = None,
    previous: Conflict | None = None,
    winner_bonus_pids: Sequence[str] = (),
) -> Conflict:
    """Set up a conflict (the Dealer's first step). Characters must belong to the campaign."""
    title = " ".join(title.split())
    if not title:
        raise ConflictError("Give the conflict a title, e.g. “The posse at the canyon”.")
    participants: list[engine.Participant] = []
    seats: list[tuple[str, Character | None, str]] = []
    studs = 0
    for spec in hands:
        if spec.character is not None and spec.character.campaign_id != campaign.pk:
            raise ConflictError("Every character must belong to this campaign.")
        participant, character = _participant(spec, studs if spec.character is None else 0, session)
        if character is None:
            studs += 1
        if participant.pid in winner_bonus_pids:
            participant = engine.Participant(
                **{**participant.__dict__, "winner_bonus": 1}  # R11 house rule
            )
        participants.append(participant)
        seats.append((participant.pid, character, spec.goal))
    recovery_key = (pid_of(recovery[0]), recovery[1]) if recovery else None
    try:
        state = engine.new_conflict(participants, stakes=stakes, recovery=recovery_key)
    except engine.IllegalMove as error:
        raise ConflictError(str(error)) from error
    with transaction.atomic():
        conflict = Conflict.objects.create(
            campaign=campaign,
            session=session,
            title=title,
            state=state_to_data(state),
            phase=state.phase.value,
            previous=previous,
            created_by=actor,
        )
        Seat.objects.bulk_create(
            Seat(conflict=conflict, pid=pid, character=character, goal=goal[:300])
            for pid, character, goal in seats
        )
        Event.objects.create(
            conflict=conflict,
            seq=1,
            version=0,
            actor=actor,
            text=f"The Dealer sets up “{title}”"
            + (f", Stakes {stakes} chip{'s' if stakes != 1 else ''}." if stakes else "."),
        )
    return conflict


def controlled_pids(conflict: Conflict, membership: Membership) -> set[str]:
    """The hands this member plays: a player their own characters; the Dealer every NPC and
    stud hand."""
    return controlled_pids_among(conflict.seats.select_related("character"), membership)


def controlled_pids_among(seats: Iterable[Seat], membership: Membership) -> set[str]:
    """``controlled_pids`` over seats already read (with their characters)."""
    out = set()
    for seat in seats:
        character = seat.character
        if (membership.is_dealer and (character is None or not character.is_pc)) or (
            character is not None and character.is_pc and character.player_id == membership.user_id
        ):
            out.add(seat.pid)
    return out


def _check_may(move: engine.Move, seats: Iterable[Seat], membership: Membership) -> None:
    if isinstance(move, DEALER_MOVES):
        if not membership.is_dealer:
            raise ConflictError("Only the Dealer can do that.")
        return
    pid = getattr(move, "pid", None)
    if pid is None or pid not in controlled_pids_among(seats, membership):
        raise ConflictError("That is not your hand to play.")


def conflict_move(
    *,
    conflict_id: int,
    membership: Membership,
    move: engine.Move | Callable[[Mapping[str, Seat]], engine.Move],
    version: int | None,
    key: str = "",
    rng: random.Random | None = None,
) -> Conflict:
    """Apply one move (see the module docstring). Raises ``ConflictError`` with a plain message
    (and changes nothing) when the move is refused; returns the conflict unchanged for a
    repeated submit. ``move`` may be a function of the seats (a form's ``move``), called with
    the seats read here."""
    with transaction.atomic():
        read = table_read(conflict_id, lock=True, campaign_id=membership.campaign_id)
        if read is None:
            raise Conflict.DoesNotExist("No such conflict in this campaign.")
        conflict = read.conflict
        if key and not _claim(conflict, key):
            return conflict  # a double click: the first submit already did it
        if version is not None and version != conflict.version:
            raise StaleMove("The table has moved on since that page was loaded; here it is now.")
        seats = {s.pid: s for s in read.seats}
        if callable(move):  # a form's move, made with the seats as they are now
            move = move(seats)
        _check_may(move, seats.values(), membership)
        move = _with_current_values(move, seats.values(), conflict.session)
        state = read.state
        try:
            outcome = engine.apply(state, move, rng or system_rng())
        except engine.IllegalMove as error:
            raise ConflictError(str(error)) from error
        for chip in outcome.chips:
            seat = seats[chip.pid]
            assert seat.character is not None
            try:
                chips_change(
                    character_id=seat.character.pk,
                    amount=chip.amount,
                    reason=chip.reason,
                    actor=membership.user,
                    note=conflict.title,
                    session=conflict.session,
                    conflict=conflict,
                )
            except CharacterError as error:  # not enough chips: the whole move is refused
                raise ConflictError(str(error)) from error
        events = list(outcome.events)
        if outcome.state.phase == engine.Phase.DONE and state.phase != engine.Phase.DONE:
            events += _apply_results(outcome.state, seats, conflict)
        conflict.state = state_to_data(outcome.state)
        conflict.phase = outcome.state.phase.value
        conflict.version += 1
        conflict.save(update_fields=["state", "phase", "version", "last_move_at"])
        Event.objects.bulk_create(
            Event(
                conflict=conflict, seq=seq, version=conflict.version, actor=membership.user,
                text=text,
            )
            for seq, text in enumerate(events, start=read.last_seq + 1)
        )  # fmt: skip
        if conflict.session_id:
            GameSession.objects.filter(pk=conflict.session_id).update(
                last_activity_at=conflict.last_move_at
            )
        _publish_on_commit(conflict)
    return conflict


def _claim(conflict: Conflict, key: str) -> bool:
    """Store the move's idempotency key; False when it is already there (a double click whose
    first submit committed). Under the conflict's row lock, so no other move of this conflict
    claims a key in between (the unique constraint stands guard all the same). Inside the
    move's transaction: a move that is then refused rolls the key back with everything else,
    so the same form can be sent again."""
    key = key[:64]
    if MoveKey.objects.filter(conflict=conflict, key=key).exists():
        return False
    MoveKey.objects.create(conflict=conflict, key=key)
    return True


def _with_current_values(
    move: engine.Move, seats: Iterable[Seat], session: GameSession | None
) -> engine.Move:
    """R19a: a hand is sized and dealt from its character's values as they are now (Difficulty
    taken in another conflict meanwhile, a recovery, an improvement all count), and a Deal gets
    its secret salt (R10)."""
    if isinstance(move, engine.Deal):
        return replace(move, salt=move.salt or new_salt(), current=_current_values(seats, session))
    if isinstance(move, engine.Approve):
        return replace(move, current=_current_values(seats, session).get(move.pid))
    return move


def _current_values(
    seats: Iterable[Seat], session: GameSession | None
) -> dict[str, engine.Current]:
    """The seats' characters' current values and session Devil ratings (R21), read now."""
    pids = {seat.character_id: seat.pid for seat in seats if seat.character_id is not None}
    fields = [f"{a}_current" for a in ATTRIBUTES]
    rows = Character.objects.filter(pk__in=pids).values("pk", "devil_rating", *fields)
    session_ratings: dict[int, int] = {}
    if session is not None:
        session_ratings = dict(
            DevilRating.objects.filter(session=session, character_id__in=pids).values_list(
                "character_id", "rating"
            )
        )
    return {
        pids[row["pk"]]: engine.Current(
            attributes={a: int(row[f"{a}_current"]) for a in ATTRIBUTES},
            devil_rating=int(session_ratings.get(row["pk"], row["devil_rating"] or 0)),
        )
        for row in rows
    }


def _apply_results(
    state: engine.ConflictState, seats: Mapping[str, Seat], conflict: Conflict | None = None
) -> list[str]:
    """The conflict is over: Difficulty taken (R9), a won recovery (R22) — both go into the
    characters' history (AttributeChange) — and a last stand's character leaves play (R17)."""
    leaving = [seats[pid].character for pid in engine.leaving_play(state)]
    characters_leave_play_now(character_ids=[c.pk for c in leaving if c is not None])
    lines: list[str] = []
    for pid, losses in engine.attribute_losses(state).items():
        character = seats[pid].character
        if character is None or not losses:
            continue
        before = _currents(character.pk)  # locked: the history's "before" is exact
        for a, n in losses.items():  # R19a: values changed since the points were placed
            if n > before[a]:
                lost = n - before[a]
                lines.append(
                    f"{character.name}: {lost} point{'s' if lost != 1 else ''} of Difficulty on "
                    f"{a.title()} could not be placed: {a.title()} is already {before[a]} (R9)."
                )
        Character.objects.filter(pk=character.pk).update(
            **{f"{a}_current": Greatest(F(f"{a}_current") - n, 0) for a, n in losses.items()}
        )
        _record(character, before, AttributeChange.Reason.DIFFICULTY, conflict)
    if engine.recovery_won(state) and state.recovery is not None:
        pid, points = state.recovery
        character = seats[pid].character
        if character is not None:
            before = _currents(character.pk)
            character = Character.objects.get(pk=character.pk)  # our own: the seat's is shared
            # The points go back where the most Difficulty was taken; an attribute at 0 does
            # not recover (R17, R22).
            for _ in range(points):
                hurt = [
                    a for a in ATTRIBUTES
                    if 0 < character.current(a) < character.rating(a)
                ]  # fmt: skip
                if not hurt:
                    break
                worst = max(hurt, key=lambda a: character.rating(a) - character.current(a))
                setattr(character, f"{worst}_current", character.current(worst) + 1)
            character.save(update_fields=[f"{a}_current" for a in ATTRIBUTES])
            _record(character, before, AttributeChange.Reason.RESTORE, conflict)
    return lines


def _currents(character_id: int) -> dict[str, int]:
    row = Character.objects.select_for_update().values(*(f"{a}_current" for a in ATTRIBUTES))
    values = row.get(pk=character_id)
    return {a: int(values[f"{a}_current"]) for a in ATTRIBUTES}


def _record(
    character: Character, before: Mapping[str, int], reason: str, conflict: Conflict | None
) -> None:
    """One history row per attribute that changed (characters.AttributeChange)."""
    after = _currents(character.pk)
    from dustdevils.live import broadcast as live

    live.publish_on_commit(f"character-{character.pk}")  # open sheets refresh
    AttributeChange.objects.bulk_create(
        AttributeChange(
            character_id=character.pk,
            session_id=conflict.session_id if conflict else None,
            conflict=conflict,
            attribute=a,
            before=before[a],
            after=after[a],
            reason=reason,
        )
        for a in ATTRIBUTES
        if before[a] != after[a]
    )


def _publish_on_commit(conflict: Conflict) -> None:
    from dustdevils.live import broadcast as live

    table, version = f"conflict-{conflict.pk}", conflict.version
    transaction.on_commit(lambda: live.publish(table, version))


def conflict_deal_again(*, conflict_id: int, membership: Membership) -> Conflict:
    """R20: "Deal again" — a new conflict linked to the last, the same hands on the same sides
    with the same goals, a fresh deck; R11's winner bonus if the campaign switched it on. Once
    per conflict: a second click finds the continuation already made and returns it."""
    if not membership.is_dealer:
        raise ConflictError("Only the Dealer can deal again.")
    with transaction.atomic():
        previous = (
            Conflict.objects.select_for_update(of=("self",))
            .select_related("campaign", "session")
            .get(pk=conflict_id, campaign_id=membership.campaign_id)
        )
        existing = previous.continued_by.order_by("created_at").first()
        if existing is not None:
            return existing
        state = state_from_data(previous.state)
        if state.phase != engine.Phase.DONE:
            raise ConflictError("Only a finished conflict can be dealt again.")
        seats = {s.pid: s for s in previous.seats.select_related("character")}
        hands = [
            HandSpec(
                character=seats[p.pid].character,
                stud_size=p.stud_size,
                stud_name=p.name,
                side=p.side,
                goal=seats[p.pid].goal,
            )
            for p in state.participants
            if p.kind == engine.Kind.STUD or not seats[p.pid].character.out_of_play  # type: ignore[union-attr]
        ]
        # R11's house rule: the winner of the last hand gets a card — a player's or an NPC's
        # hand, never the Dealer's stud (a stud's size is the Dealer's call, R12).
        winner = state.participant(state.winner) if state.winner else None
        bonus = (
            [winner.pid]
            if previous.campaign.winner_bonus and winner and winner.kind != engine.Kind.STUD
            else []
        )
        # R17: whoever's last stand that was has left play; the table is told, not surprised.
        gone = [
            s.character.name for s in seats.values()
            if s.character is not None and s.character.out_of_play
        ]  # fmt: skip
        fresh = conflict_create(
            campaign=previous.campaign,
            actor=membership.user,
            title=previous.title,
            hands=hands,
            stakes=state.stakes,
            session=previous.session,
            previous=previous,
            winner_bonus_pids=bonus,
        )
        for seq, name in enumerate(gone, start=2):
            Event.objects.create(
                conflict=fresh, seq=seq, version=0, actor=membership.user,
                text=f"{name} has left play (R17) and is not dealt in.",
            )  # fmt: skip
        return fresh
