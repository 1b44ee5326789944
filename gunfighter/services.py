"""Writes to The Gunfighter (DESIGN.md, "The shape of a table action"): a new game, and every
move through the table kit's one pipeline (``tables.moves.table_move``: lock, idempotency key,
basis, save with ``version + 1`` and the timeline, publish on commit). What is the game's own:
the mover's seat (only seated gunfighters act) and the engine. The server's clock is read here,
under the lock, and handed to the engine in the move (``tables.clock``)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from django.contrib.auth.models import User
from django.db import transaction

from campaigns.access import acting_for, is_host
from campaigns.models import Campaign, Membership
from cards.deck import system_rng
from cards.errors import IllegalMove
from gunfighter.engine import game as g
from gunfighter.engine.serial import state_from_data, state_to_data
from gunfighter.engine.state import Event, GunfightState, Move
from gunfighter.models import Gunfight, GunfightLine, GunfightMoveKey, GunfightSeat
from tables import clock
from tables.errors import NotYours, Refused
from tables.moves import Basis, Changes, Moved, Table, basis_of, opening_lines, table_move

GunfightError = Refused  # the table kit's one error family, under the game's names
NotSeated = NotYours

# A move as a function of the mover's seat and the server's clock (ms): a form never acts for
# someone else, and never says what time it is.
MoveOf = Callable[[str, int], Move]


def display_name(user: User) -> str:
    return user.first_name or user.get_username()


def gunfight_create(
    *,
    campaign: Campaign,
    actor: User,
    players: Sequence[User],
    western: User | None = None,
    choose: bool = False,
    rng: random.Random | None = None,
) -> Gunfight:
    """A new game for 2–6 of the table's members, seated clockwise in the order given;
    ``western``: who saw a western last (the first player if not said); ``choose``: everyone
    agreed to choose their decks (GF2). The one who starts it must be a member too."""
    members = set(Membership.objects.filter(campaign=campaign).values_list("user_id", flat=True))
    if actor.pk not in members:
        raise GunfightError("Only the table's members can start a game at it.")
    if any(p.pk not in members for p in players):
        raise GunfightError("Every gunfighter must be a member of this table.")
    if len({p.pk for p in players}) != len(players):
        raise GunfightError("Each gunfighter sits at the table once.")
    seats = [(f"p{i + 1}", display_name(p)) for i, p in enumerate(players)]
    pid_of = {p.pk: pid for p, (pid, _) in zip(players, seats, strict=True)}
    first = seats[0][0] if seats else ""
    try:
        state, events = g.new_game(
            seats, western=pid_of.get(western.pk, "?") if western else first,
            rng=rng or system_rng(), choose=choose,
        )  # fmt: skip
    except IllegalMove as error:
        raise GunfightError(str(error)) from error
    with transaction.atomic():
        gunfight = Gunfight.objects.create(
            campaign=campaign, state=state_to_data(state), phase=state.phase.value,
            created_by=actor,
        )  # fmt: skip
        GunfightSeat.objects.bulk_create(
            GunfightSeat(gunfight=gunfight, user=p, pid=pid, position=i)
            for i, (p, (pid, _)) in enumerate(zip(players, seats, strict=True))
        )
        opening = Event(f"{display_name(actor)} calls a gunfight.")
        opening_lines(GUNFIGHTS, gunfight, _lines((opening, *events), actor, state))
    return gunfight


class GunfightTable(Table[Gunfight]):
    """A gunfight as the table kit moves it: every move is a seat's, based on that seat, the
    phase, the showdown, the clock and whose mat is reviewed."""

    model = Gunfight
    key_model = GunfightMoveKey
    line_model = GunfightLine
    fk = "gunfight"
    channel = "gunfighter"
    missing = "No such gunfight at this table."

    def read(self, table_id: int) -> Gunfight:
        return Gunfight.objects.select_related("campaign").get(pk=table_id)

    def basis(self, read: Gunfight, scope: str) -> str:
        return seat_basis(state_from_data(read.state), scope)


GUNFIGHTS = GunfightTable()


def seat_basis(state: GunfightState, pid: str) -> str:
    """What a move of seat ``pid`` is based on: that gunfighter, the phase, the showdown, the
    clock and whose mat is reviewed (others' taps in between never make it stale)."""
    if not state.has(pid):
        return ""
    return basis_of(
        state.phase.value, state.showdown, state.clock_at, g.reviewing(state),
        repr(state.gunfighter(pid)),
    )  # fmt: skip


def seat_of(gunfight_id: int, user: User) -> GunfightSeat | None:
    return GunfightSeat.objects.filter(gunfight_id=gunfight_id, user=user).first()


def gunfight_move(
    *,
    gunfight_id: int,
    campaign: Campaign,
    user: User,
    move: MoveOf,
    version: int | None,
    key: str = "",
    basis: str = "",
    rng: random.Random | None = None,
    for_pid: str = "",
) -> Moved[Gunfight]:
    """One move, made by ``move(pid, now_ms)`` with the mover's own seat, through the table
    kit; or, by the table's host, with the seat ``for_pid`` of a gunfighter whose phone is gone
    (GF12). Raises ``GunfightError`` (nothing changed) when refused; a repeated submit changes
    nothing (``Moved.repeated``, no lines)."""
    seat = seat_of(gunfight_id, user)
    pid = seat.pid if seat else ""
    proxy = bool(for_pid) and for_pid != pid
    if proxy:
        pid = for_pid
    elif seat is None:
        raise NotSeated("Only the gunfighters at this table play; you can watch.")

    def apply(gunfight: Gunfight) -> Changes:
        before = state_from_data(gunfight.state)
        events: tuple[Event, ...] = ()
        if proxy:
            events = _for(before, campaign, user, pid)
        state, made = g.apply(before, move(pid, clock.now_ms()), rng or system_rng())
        return Changes(
            fields={"state": state_to_data(state), "phase": state.phase.value},
            lines=_lines((*events, *made), user, state),
        )

    return table_move(
        GUNFIGHTS, table_id=gunfight_id, where={"campaign": campaign}, key=key,
        based_on=Basis(version, pid, basis), apply=apply,
    )  # fmt: skip


def _for(state: GunfightState, campaign: Campaign, host: User, pid: str) -> tuple[Event]:
    """GF12: only the table's host acts for another gunfighter, and says so on the timeline."""
    if not is_host(campaign, host):
        raise NotSeated("Only the host can act for another gunfighter.")
    if not state.has(pid):
        raise GunfightError("No such gunfighter at this table.")
    return (Event(acting_for(host, state.gunfighter(pid).name), pid),)


def _lines(events: Sequence[Event], actor: User, state: GunfightState) -> list[dict[str, object]]:
    return [
        {"showdown": state.showdown, "pid": e.pid, "actor": actor, "text": e.text} for e in events
    ]
