"""Setting a conflict up (R12, R14, R18, R22) and dealing again (R20)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from campaigns.models import Campaign, DevilRating, GameSession, Membership
from cards.errors import IllegalMove
from characters.models import Character
from characters.rules import ATTRIBUTES
from conflicts.engine import conflict as engine
from conflicts.engine.serial import state_from_data, state_to_data
from conflicts.models import Conflict, MoveKey, Seat, Snapshot
from conflicts.services.errors import ConflictError
from conflicts.services.moves import CONFLICTS
from fights.models import Fight
from fights.services import fight_note
from tables.moves import Changes, locked_read, opening_lines, save


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
    fight: Fight | None = None,
    fight_round: int | None = None,
    also: Sequence[str] = (),
) -> Conflict:
    """Set up a conflict (the Dealer's first step). Characters must belong to the campaign.
    ``also``: more opening lines for its timeline, after the set-up's."""
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
    except IllegalMove as error:
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
            fight=fight,
            fight_round=fight_round if fight is not None else None,
        )
        if fight is not None:  # R32: the conflict settles an action of that round
            if fight.campaign_id != campaign.pk:
                raise ConflictError("That fight belongs to another campaign.")
            fight_note(
                fight_id=fight.pk, actor=actor,
                text=f"Settled by a conflict (R32): “{title}”.",
            )  # fmt: skip
        Snapshot.objects.create(conflict=conflict, version=0, state=conflict.state)
        Seat.objects.bulk_create(
            Seat(conflict=conflict, pid=pid, character=character, goal=goal[:300])
            for pid, character, goal in seats
        )
        opening = f"The Dealer sets up “{title}”" + (
            f", Stakes {stakes} chip{'s' if stakes != 1 else ''}." if stakes else "."
        )
        opening_lines(CONFLICTS, conflict, [{"actor": actor, "text": t} for t in (opening, *also)])
    return conflict


def conflict_create_once(key: str, *, campaign: Campaign, **setup: Any) -> Conflict:
    """``conflict_create`` once per form (issue 19 #8): a double click sends the form's key
    twice, and the second finds the conflict the first made. The key is kept as the new
    conflict's first MoveKey (``new:<key>``), looked up and written under a lock on the
    campaign's row, so twenty identical requests at once make one conflict."""
    if not key:
        return conflict_create(campaign=campaign, **setup)
    marker = f"new:{key}"[:64]
    with transaction.atomic():
        list(Campaign.objects.select_for_update().filter(pk=campaign.pk).values_list("pk"))
        made = MoveKey.objects.filter(conflict__campaign=campaign, key=marker).first()
        if made is not None:
            return Conflict.objects.get(pk=made.conflict_id)
        conflict = conflict_create(campaign=campaign, **setup)
        MoveKey.objects.create(conflict=conflict, key=marker)
    return conflict


_HAND_NUMBER = re.compile(r"^(?P<title>.*?) — hand (?P<n>\d+)$")


def next_hand_title(title: str) -> str:
    """The conflicts of one fight share a title with a hand number: "Showdown" is followed by
    "Showdown — hand 2", then "Showdown — hand 3" (R20)."""
    found = _HAND_NUMBER.match(title)
    if found is None:
        return f"{title} — hand 2"
    return f"{found['title']} — hand {int(found['n']) + 1}"


def conflict_deal_again(*, conflict_id: int, membership: Membership) -> Conflict:
    """R20: "Deal again" — a new conflict linked to the last, the same hands on the same sides
    with the same goals, a fresh deck; R11's winner bonus if the campaign switched it on. Once
    per conflict: a second click finds the continuation already made and returns it."""
    if not membership.is_dealer:
        raise ConflictError("Only the Dealer can deal again.")
    with transaction.atomic():
        read = locked_read(CONFLICTS, conflict_id, {"campaign_id": membership.campaign_id})
        previous = read.conflict
        existing = previous.continued_by.order_by("created_at").first()
        if existing is not None:
            return existing
        state = state_from_data(previous.state)
        try:
            bonus = engine.winner_bonus_pids(state, house_rule=previous.campaign.winner_bonus)
        except IllegalMove as error:
            raise ConflictError(str(error)) from error
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
        # R17: whoever's last stand that was has left play; the table is told, not surprised.
        gone = [
            s.character.name for s in seats.values()
            if s.character is not None and s.character.out_of_play
        ]  # fmt: skip
        fresh = conflict_create(
            campaign=previous.campaign,
            actor=membership.user,
            title=next_hand_title(previous.title),
            hands=hands,
            stakes=state.stakes,
            session=previous.session,
            previous=previous,
            winner_bonus_pids=list(bonus),
            also=[f"{name} has left play (R17) and is not dealt in." for name in gone],
        )
        # Nobody is stranded on the finished hand: its timeline says the fight goes on, and
        # its version moves on so that every open screen of it re-renders (live) with the link
        # to the next hand, which the page then follows (static/js/seat.js).
        text = f"The Dealer deals again: the fight goes on in “{fresh.title}” (R20)."
        save(CONFLICTS, read, Changes(fields={}, lines=[{"actor": membership.user, "text": text}]))
        return fresh
