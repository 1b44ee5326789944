"""Every table move (docs/architecture.md, "The shape of a table action").

``conflict_move`` is the one way a move reaches a conflict, through the table kit's pipeline
(``tables.moves.table_move``: lock, idempotency key, what the move was based on, save with
``version + 1`` and the timeline, publish on commit). What is the conflict's own: who may make
the move, the engine's apply, the chips written to the ledger, the results at the end and the
replay's snapshot."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace

from django.db.models import QuerySet

from campaigns.models import DevilRating, GameSession, Membership
from cards.deck import new_salt, system_rng
from cards.errors import IllegalMove
from characters.models import Character
from characters.rules import ATTRIBUTES
from characters.services import CharacterError, chips_change
from conflicts.engine import conflict as engine
from conflicts.engine.serial import state_to_data
from conflicts.models import Conflict, Event, MoveKey, Seat, Snapshot
from conflicts.reads import (
    TableRead,
    TimelineEntry,
    hand_on_seats,
    seats_of,
    table_read_from,
)
from conflicts.services.errors import ConflictError
from conflicts.services.results import apply_results
from tables.moves import Basis, Changes, Table, basis_of, table_move

DEALER_MOVES = (
    engine.Approve, engine.AwardExtraCard, engine.Deal, engine.AwardRedraw, engine.DealerFold,
    engine.Call, engine.Reveal, engine.CloseBids, engine.OverrideDifficulty, engine.Finish,
    engine.ApproveKnack, engine.Cancel,
)  # fmt: skip


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


class ConflictTable(Table[TableRead]):
    """A conflict, as the table kit moves it: the conflict's row, its keys and its timeline,
    read whole by ``table_read_from``; a move of one hand is based on that hand and the phase."""

    model = Conflict
    key_model = MoveKey
    line_model = Event
    fk = "conflict"
    channel = "conflict"
    missing = "No such conflict in this campaign."

    reads_rows = True  # the kit's lock folds into the read's first statement

    def read(self, table_id: int) -> TableRead:
        read = table_read_from(Conflict.objects.filter(pk=table_id))
        assert read is not None  # the kit's lock found the row
        return read

    def read_rows(self, rows: QuerySet[Conflict]) -> TableRead | None:
        return table_read_from(rows)

    def row(self, read: TableRead) -> Conflict:
        return read.conflict

    def last_seq(self, read: TableRead) -> int:
        return read.last_seq

    def basis(self, read: TableRead, scope: str) -> str:
        return hand_basis(read.state, scope)


CONFLICTS = ConflictTable()


def hand_basis(state: engine.ConflictState, pid: str) -> str:
    """What a move of hand ``pid`` is based on: that hand as the engine holds it, and the
    phase (and whether the narration bids are closed)."""
    try:
        hand = state.participant(pid)
    except IllegalMove:
        return ""
    return basis_of(state.phase.value, state.bids_closed, repr(hand))


def conflict_move(
    *,
    conflict_id: int,
    membership: Membership,
    move: engine.Move | Callable[[Mapping[str, Seat]], engine.Move],
    version: int | None,
    key: str = "",
    basis: str = "",
    rng: random.Random | None = None,
) -> Conflict:
    """Apply one move (see the module docstring) and return the conflict as committed. Raises
    ``ConflictError`` with a plain message (and changes nothing) when the move is refused;
    returns the conflict unchanged for a repeated submit. ``move`` may be a function of the
    seats (a form's ``move``), called with the seats read here."""
    return conflict_move_read(
        conflict_id=conflict_id, membership=membership, move=move, version=version, key=key,
        basis=basis, rng=rng,
    ).conflict  # fmt: skip


def _scope(move: object) -> str:
    """The hand a move is about (its basis), or "" for a table-wide move (the Dealer's)."""
    if isinstance(move, DEALER_MOVES):
        return ""
    return str(getattr(move, "pid", "") or "")


def conflict_move_read(
    *,
    conflict_id: int,
    membership: Membership,
    move: engine.Move | Callable[[Mapping[str, Seat]], engine.Move],
    version: int | None,
    key: str = "",
    basis: str = "",
    scope: str = "",
    rng: random.Random | None = None,
) -> TableRead:
    """``conflict_move``, returning the table as the move left it — its answer needs no second
    read: the move's own read (taken under the lock) with the new state and lines, and the
    seats read again only when the move changed a character. ``basis``/``scope``: what the
    form's hand move was based on (``tables.moves.Basis``); a move object names its own hand."""
    if not callable(move):
        scope = scope or _scope(move)

    def apply(read: TableRead) -> Changes:
        conflict = read.conflict
        seats = {s.pid: s for s in read.seats}
        made = move(seats) if callable(move) else move  # a form's move, with the seats now
        _check_may(made, seats.values(), membership)
        made = _with_current_values(made, seats.values(), conflict.session)
        state = read.state
        outcome = engine.apply(state, made, rng or system_rng())
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
            events += apply_results(outcome.state, seats, conflict)
        fields = {"state": state_to_data(outcome.state), "phase": outcome.state.phase.value}
        if not _changes_characters(outcome):
            hand_on_seats(read)  # the seats at the version this move makes: these
        # The replay's snapshot of the version this move makes, in the move's transaction.
        Snapshot.objects.create(conflict=conflict, version=read.version + 1, state=fields["state"])
        return Changes(
            fields=fields,
            lines=[{"actor": membership.user, "text": text} for text in events],
            extra=outcome,
        )

    moved = table_move(
        CONFLICTS,
        table_id=conflict_id,
        where={"campaign_id": membership.campaign_id},
        key=key,
        based_on=Basis(version, scope, basis),
        apply=apply,
    )
    read = moved.read
    if moved.repeated:
        return read  # a double click: the first submit already did it
    conflict = moved.row
    assert moved.changes is not None
    outcome = moved.changes.extra
    actor = membership.user.first_name or membership.user.username
    characters_changed = _changes_characters(outcome)
    return replace(
        read,
        conflict=conflict,
        seats=seats_of(conflict.pk) if characters_changed else read.seats,
        timeline=read.timeline
        + tuple(TimelineEntry(e.seq, e.version, e.text, e.created_at, actor) for e in moved.lines),
    )


def _changes_characters(outcome: engine.Outcome) -> bool:
    """Whether a move may have changed a seat's character (chips; the results at the end)."""
    return bool(outcome.chips) or outcome.state.phase == engine.Phase.DONE


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


NARRATION_MAX = 2000


def conflict_narrate(
    *, conflict_id: int, membership: Membership, text: str, key: str = ""
) -> Conflict:
    """Narration is written down (issue 18): once the lays are on the table and the narration
    settled (R8, R16), its holder's player — or the Dealer — types what they narrated; it goes
    on the timeline, under the result. Not a move of the engine: no card, no chip. ``key``,
    the form's idempotency key, writes it once however often the form is sent."""
    text = " ".join(text.split())
    if not text:
        raise ConflictError("Write what was narrated first.")
    if len(text) > NARRATION_MAX:
        raise ConflictError(f"Keep the narration under {NARRATION_MAX} characters.")

    def write(read: TableRead) -> Changes:
        state = read.state
        settled = state.phase == engine.Phase.DONE or (
            state.phase == engine.Phase.RESOLUTION and state.bids_closed
        )
        if not settled or state.narrator is None:
            raise ConflictError("Narration is written down once it is settled (R16).")
        mine = controlled_pids_among(read.seats, membership)
        if not membership.is_dealer and state.narrator not in mine:
            raise ConflictError("Only the narrator or the Dealer writes the narration down.")
        name = state.participant(state.narrator).name
        return Changes(
            fields={}, lines=[{"actor": membership.user, "text": f"Narration ({name}): {text}"}]
        )

    conflict: Conflict = table_move(
        CONFLICTS, table_id=conflict_id, where={"campaign_id": membership.campaign_id}, key=key,
        based_on=Basis(None), apply=write,
    ).row  # fmt: skip
    return conflict
