"""Writes to fights: set-up, and every move (docs/architecture.md, "The shape of a table action").

``fight_move`` is the one way a move reaches a fight, through the table kit's pipeline
(``tables.moves.table_move``: lock, idempotency key, what the move was based on, save with
``version + 1`` and the timeline, publish on commit). What is the fight's own: who may make the
move (a player only their own player character's; the Dealer everything), the engine
(``fights.engine.action_deck``), dice against a TN, joining, and the timeline's public lines and
R30's secret lines for the Dealer and the players they name.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from campaigns.models import Campaign, GameSession, Membership
from cards.deck import system_rng
from cards.dice import DiceSpec, check_tn, parse_dice, roll
from characters.models import Character
from conflicts.models import Conflict
from fights.engine import action_deck as engine
from fights.engine.serial import state_from_data, state_to_data
from fights.gunfight import settle_the_conflict
from fights.models import Fight, FightSeat
from fights.reads import carried_on, fights_table
from tables.errors import Refused
from tables.moves import (
    Basis,
    Changes,
    opening_lines,
    table_move,
    table_note,
)

MAX_EXTRAS = 50  # a line of extras: "3 Pinkertons"; more than a town's worth is a typo


FightError = Refused  # the table kit's one error family, under the fights' name


@dataclass(frozen=True)
class ExtrasSpec:
    """Unnamed extras sharing one line (R30: run by the Dealer), e.g. 3 Pinkertons on 2d6."""

    name: str
    size: int = 1
    dice: str = "1d6"


@dataclass(frozen=True)
class TNRoll:
    """R32: the Dealer (or a player, for their own character) rolls dice against a TN to
    resolve an action; the app records the roll, it does not decide what it does. Not an
    engine move: it changes no card, only the timeline (and the version, so screens show it)."""

    cid: str | None
    dice: str
    tn: int
    note: str = ""


@dataclass(frozen=True)
class JoinSpec:
    """Someone joins the fight under way (the engine's ``Join``): a character of the campaign
    still in play (``character_id``; one who left the fight comes back), or a new line of
    extras (``extras``). Not an engine move: it also seats them in the fight's rows."""

    character_id: int | None = None
    extras: ExtrasSpec | None = None
    surprised: bool = False


Move = engine.Move | TNRoll | JoinSpec

# Moves only the Dealer makes: they run the round, or change a combatant's standing (R23, R31).
DEALER_MOVES = (
    engine.DealRound, engine.EndRound, engine.EndFight, engine.Join, engine.Leave, engine.SetCap,
    JoinSpec,
)  # fmt: skip


def cid_of(character: Character) -> str:
    return f"c{character.pk}"


# --- Set-up --------------------------------------------------------------------------------------


def fight_create(
    *,
    campaign: Campaign,
    actor: User,
    session: GameSession,
    title: str,
    characters: Sequence[Character],
    extras: Sequence[ExtrasSpec] = (),
    surprised: Iterable[str] = (),
    cap: int | None = engine.DEFAULT_CAP,
    fate_pot: Iterable[tuple[str, int]] = engine.DEFAULT_FATE_POT,
    rng: random.Random | None = None,
    from_conflict: Conflict | None = None,
) -> Fight:
    """Start a fight in a running session: the characters (PCs and NPCs of the campaign, still
    in play), the lines of extras, who is surprised (R26: cids), the card cap (R23) and the Fate
    pot (R27); ``from_conflict``: the conflict that turns into this gunfight (linked both
    ways). Raises ``FightError`` in plain words; nothing is written then."""
    title = " ".join(title.split()) or "A fight breaks out"
    if session.campaign_id != campaign.pk:
        raise FightError("That session belongs to another campaign.")
    if from_conflict is not None and from_conflict.campaign_id != campaign.pk:
        raise FightError("That conflict belongs to another campaign.")
    if session.status != GameSession.Status.OPEN:
        raise FightError(f"Session {session.number} is not being played: start it first.")
    combatants: list[engine.Combatant] = []
    seats: list[FightSeat] = []
    surprised = set(surprised)
    seen: set[int] = set()
    try:
        for character in characters:
            if character.campaign_id != campaign.pk:
                raise FightError("Every character must belong to this campaign.")
            if character.out_of_play:
                raise FightError(f"{character.name} has left play (R17).")
            if character.pk in seen:
                continue
            seen.add(character.pk)
            cid = cid_of(character)
            kind = engine.CombatantKind.PC if character.is_pc else engine.CombatantKind.NPC
            combatants.append(
                engine.Combatant(
                    cid,
                    character.name,
                    kind,
                    quickness=character.quickness,
                    cap=cap,
                    surprised=cid in surprised,
                    guts=character.guts_dice,
                )
            )
            seats.append(
                FightSeat(cid=cid, kind=kind.value, character=character, name=character.name)
            )
        for n, line in enumerate(extras, start=1):
            name = " ".join(line.name.split())[:120]
            if not name:
                raise FightError("Every line of extras needs a name, e.g. “3 Pinkertons”.")
            if not 1 <= line.size <= MAX_EXTRAS:
                raise FightError(f"A line of extras has 1 to {MAX_EXTRAS} members.")
            cid = f"x{n}"
            combatants.append(
                engine.Combatant(
                    cid,
                    name,
                    engine.CombatantKind.EXTRAS,
                    quickness=parse_dice(line.dice),
                    cap=cap,
                    surprised=cid in surprised,
                    size=line.size,
                )
            )
            seats.append(FightSeat(cid=cid, kind="extras", name=name, size=line.size))
        if len(combatants) < 2:
            raise FightError("A fight needs at least two sides: pick two combatants or more.")
        state = engine.new_fight(combatants, rng or system_rng(), fate_pot=fate_pot)
    except engine.IllegalMove as error:
        raise FightError(str(error)) from error
    with transaction.atomic():
        fight = Fight.objects.create(
            campaign=campaign, session=session, title=title[:160], state=state_to_data(state),
            phase=state.phase.value, round=state.round, created_by=actor,
            from_conflict=from_conflict,
        )  # fmt: skip
        for seat in seats:
            seat.fight = fight
        FightSeat.objects.bulk_create(seats)
        names = ", ".join(c.name for c in combatants)
        lines = [f"The Dealer starts “{fight.title}”: {names}."]
        if from_conflict is not None:
            lines.insert(0, f"The conflict “{from_conflict.title}” turns into a gunfight.")
        shocked = [c.name for c in combatants if c.surprised]
        if shocked:
            lines.append(f"Surprised (R26): {', '.join(shocked)}.")
        opening = [{"round": 1, "actor": actor, "text": t} for t in lines]
        opening_lines(fights_table(), fight, opening)
        GameSession.objects.filter(pk=session.pk).update(last_activity_at=fight.last_move_at)
        if from_conflict is not None:
            settle_the_conflict(
                from_conflict.pk, actor, f"This turns into a gunfight: “{fight.title}”."
            )
    return fight


# --- Moves ---------------------------------------------------------------------------------------


def _lines(outcome: engine.Outcome, *, round_: int, actor: User) -> list[dict[str, Any]]:
    """The timeline lines of an outcome: public ones, then R30's secret ones."""
    public = [{"round": round_, "actor": actor, "text": text} for text in outcome.events]
    return public + [
        {"round": round_, "actor": actor, "text": s.text, "secret": True, "cids": list(s.cids)}
        for s in outcome.secrets
    ]


def fight_move(
    *,
    fight_id: int,
    membership: Membership,
    move: Move | Callable[[], Move],
    version: int | None,
    key: str = "",
    basis: str = "",
    scope: str = "",
    rng: random.Random | None = None,
) -> Fight:
    """Apply one move (see the module docstring) through the table kit. Raises ``FightError``
    with a plain message (and changes nothing) when the move is refused; returns the fight
    unchanged for a repeated submit. ``move`` may be a function making it under the lock (a
    form's ``move``); ``basis``/``scope``: what a form's move of one combatant was based on. Raises
    ``Fight.DoesNotExist`` for a fight outside the member's campaign."""
    moved = fight_move_read(
        fight_id=fight_id, membership=membership, move=move, version=version, key=key,
        basis=basis, scope=scope, rng=rng,
    )  # fmt: skip
    return moved[0]


def fight_move_read(
    *,
    fight_id: int,
    membership: Membership,
    move: Move | Callable[[], Move],
    version: int | None,
    key: str = "",
    basis: str = "",
    scope: str = "",
    rng: random.Random | None = None,
) -> tuple[Fight, Fight | None]:
    """``fight_move``: (the row as committed, and the fight as its screens would read it now,
    from the move's own read — or None when only a new read can say: someone joined, or the
    fight is over)."""
    if not callable(move) and not isinstance(move, DEALER_MOVES):
        scope = scope or str(getattr(move, "cid", "") or "")
    joined: list[bool] = []

    def apply(fight: Fight) -> Changes:
        seats = {s.cid: s for s in fight.seats.all()}  # read with the fight (load_fight)
        made = move() if callable(move) else move
        joined.append(isinstance(made, JoinSpec))
        _check_may(made, seats, membership)
        state = state_from_data(fight.state)
        chance = rng or system_rng()
        if isinstance(made, TNRoll):
            outcome = _tn_roll(state, made, seats, chance)
        elif isinstance(made, JoinSpec):
            outcome = _join(fight, state, made, seats, chance)
        else:
            outcome = engine.apply(state, made, chance)
        return Changes(
            fields={
                "state": state_to_data(outcome.state),
                "phase": outcome.state.phase.value,
                "round": outcome.state.round,
            },
            lines=_lines(outcome, round_=state.round, actor=membership.user),
        )

    moved = table_move(
        fights_table(), table_id=fight_id, where={"campaign_id": membership.campaign_id}, key=key,
        based_on=Basis(version, scope, basis), apply=apply,
    )  # fmt: skip
    fight: Fight = moved.row
    return fight, None if any(joined) else carried_on(fight, moved.lines)


def fight_note(*, fight_id: int, actor: User, text: str) -> None:
    """A public line on the fight's timeline from elsewhere in the app (R32: a conflict now
    settles an action of this round), locked, versioned and published like a move."""
    fight = Fight.objects.only("state").get(pk=fight_id)
    round_ = state_from_data(fight.state).round
    line = {"round": round_, "actor": actor, "text": text}
    table_note(fights_table(), table_id=fight_id, lines=[line])


def controlled_cids(seats: Iterable[FightSeat], membership: Membership) -> set[str]:
    """The combatants this member plays: a player their own player characters; the Dealer
    every combatant."""
    if membership.is_dealer:
        return {s.cid for s in seats}
    return {
        s.cid
        for s in seats
        if s.kind == FightSeat.Kind.PC
        and s.character is not None
        and s.character.player_id == membership.user_id
    }


def _check_may(move: Move, seats: Mapping[str, FightSeat], membership: Membership) -> None:
    if membership.is_dealer:
        return
    if isinstance(move, DEALER_MOVES):
        raise FightError("Only the Dealer can do that.")
    cid = getattr(move, "cid", None)
    if cid is None or cid not in controlled_cids(seats.values(), membership):
        seat = seats.get(cid) if isinstance(cid, str) else None
        whose = f"{seat.name}'s cards" if seat is not None else "that combatant"
        raise FightError(f"You can only play your own character's cards, not {whose}.")


def _tn_roll(
    state: engine.FightState, move: TNRoll, seats: Mapping[str, FightSeat], rng: random.Random
) -> engine.Outcome:
    spec: DiceSpec = parse_dice(move.dice)
    rolled = roll(spec, rng)
    result = check_tn(rolled.total, move.tn, bust=rolled.bust)
    seat = seats.get(move.cid) if move.cid else None
    who = seat.name if seat is not None else "The Dealer"
    note = " ".join(move.note.split())[:200]
    about = f" for “{note}”" if note else ""
    return engine.Outcome(state, (f"{who} rolls {rolled}{about}: {result} (R32).",))


def _join(
    fight: Fight,
    state: engine.FightState,
    spec: JoinSpec,
    seats: Mapping[str, FightSeat],
    rng: random.Random,
) -> engine.Outcome:
    """The engine's ``Join`` for ``spec``, and the new combatant's seat row (one who comes back
    keeps theirs). Their card cap is the one most of the fight has (R23)."""
    caps = Counter(c.cap for c in state.combatants)
    cap = caps.most_common(1)[0][0] if caps else engine.DEFAULT_CAP
    seat: FightSeat | None = None
    if spec.character_id is not None:
        character = Character.objects.filter(
            pk=spec.character_id, campaign_id=fight.campaign_id
        ).first()
        if character is None:
            raise FightError("There is no such character in this campaign.")
        if character.out_of_play:
            raise FightError(f"{character.name} has left play (R17).")
        if not character.approved:
            raise FightError(f"{character.name} waits for the Dealer's approval.")
        cid = cid_of(character)
        kind = engine.CombatantKind.PC if character.is_pc else engine.CombatantKind.NPC
        combatant = engine.Combatant(
            cid, character.name, kind, quickness=character.quickness, cap=cap,
            surprised=spec.surprised, guts=character.guts_dice,
        )  # fmt: skip
        if cid not in seats:
            seat = FightSeat(cid=cid, kind=kind.value, character=character, name=character.name)
    elif spec.extras is not None:
        line = spec.extras
        name = " ".join(line.name.split())[:120]
        if not name:
            raise FightError("A line of extras needs a name, e.g. “2 more Pinkertons”.")
        if not 1 <= line.size <= MAX_EXTRAS:
            raise FightError(f"A line of extras has 1 to {MAX_EXTRAS} members.")
        numbers = [int(c[1:]) for c in seats if c.startswith("x") and c[1:].isdigit()]
        cid = f"x{max(numbers, default=0) + 1}"
        combatant = engine.Combatant(
            cid, name, engine.CombatantKind.EXTRAS, quickness=parse_dice(line.dice), cap=cap,
            surprised=spec.surprised, size=line.size,
        )  # fmt: skip
        seat = FightSeat(cid=cid, kind="extras", name=name, size=line.size)
    else:
        raise FightError("Pick a character, or write a line of extras, to join the fight.")
    outcome = engine.apply(state, engine.Join(combatant), rng)
    if seat is not None:
        seat.fight = fight
        seat.save()
    return outcome


def default_title(session: GameSession) -> str:
    return f"A fight in session {session.number}"
