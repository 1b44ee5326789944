"""Writes to Saloon Showdown (DESIGN.md, "The shape of a table action").

``showdown_move`` is the one way a move reaches a game, through the table kit's pipeline
(``tables.moves.table_move``). What is the game's own: the mover's seat (a form never acts for
someone else), the host's event moves, the server's clock for the duel (``tables.clock``) and the
engine.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from django.contrib.auth.models import User
from django.db import transaction

from campaigns.access import acting_for, is_host, seating_problem
from campaigns.models import Campaign
from cards.deck import system_rng
from cards.errors import IllegalMove
from showdown.engine import game as g
from showdown.engine import moves as m
from showdown.engine.state import Options, State, state_from_data, state_to_data
from showdown.models import Showdown, ShowdownLine, ShowdownMoveKey, ShowdownSeat
from tables.errors import NotYours, Refused
from tables.moves import Basis, Changes, Table, basis_of, opening_lines, table_move

ShowdownError = Refused  # the table kit's one error family


def display_name(user: User) -> str:
    return user.first_name or user.get_username()


def showdown_create(
    *, campaign: Campaign, actor: User, players: Sequence[User], dealer: User, options: Options
) -> Showdown:
    """A new game for 2–7 of the table's members, seated clockwise in the order given;
    ``dealer``: who saw a western last (the dealer token)."""
    if problem := seating_problem(campaign, actor=actor, players=players):
        raise ShowdownError(problem)
    seats = [(f"p{i + 1}", display_name(p)) for i, p in enumerate(players)]
    pids = {p.pk: pid for p, (pid, _) in zip(players, seats, strict=True)}
    dealer_pid = pids.get(dealer.pk, "")
    try:
        outcome = g.new_game(seats, dealer_pid, options)
    except IllegalMove as error:
        raise ShowdownError(str(error)) from error
    with transaction.atomic():
        showdown = Showdown.objects.create(
            campaign=campaign,
            state=state_to_data(outcome.state),
            phase=outcome.state.phase.value,
            created_by=actor,
        )
        ShowdownSeat.objects.bulk_create(
            ShowdownSeat(showdown=showdown, user=p, pid=pid, position=i)
            for i, (p, (pid, _)) in enumerate(zip(players, seats, strict=True))
        )
        opening = g.Entry("rule", f"{display_name(actor)} starts a game of Saloon Showdown.")
        opening_lines(SHOWDOWNS, showdown, _lines((opening, *outcome.entries), actor))
    return showdown


class ShowdownTable(Table[Showdown]):
    """A Saloon Showdown game, as the table kit moves it: every move is a seat's (or the
    host's), based on that seat, the phase and whatever is under way."""

    model = Showdown
    key_model = ShowdownMoveKey
    line_model = ShowdownLine
    fk = "showdown"
    channel = "showdown"
    missing = "No such game at this table."

    def read(self, table_id: int) -> Showdown:
        return Showdown.objects.select_related("campaign").get(pk=table_id)

    def basis(self, read: Showdown, scope: str) -> str:
        return seat_basis(state_from_data(read.state), scope)


SHOWDOWNS = ShowdownTable()


def seat_basis(state: State, pid: str) -> str:
    """What a move of seat ``pid`` is based on, as that seat sees it (``visible_state``: the
    fingerprint travels in its forms, and a hash of a 0–9 count is no secret): the phase, whose
    turn, the dealer token, that player's money, the threat, the bluff's players and their own
    count, the fight's kind, gunmen, "Via!" and their own readiness, the event. Not what others
    do meanwhile — their counts, their Ready, a shot claimed — so taps made at once all arrive
    (a late shot is then refused by the engine, which keeps the first by the server's clock)."""
    if not state.has(pid):
        return ""
    view = g.visible_state(state, pid)
    seen, fight, event = view.state, view.state.fight, view.state.event
    return basis_of(
        seen.phase.value, seen.turn, seen.dealer, repr(seen.player(pid)), repr(seen.threat),
        repr(seen.bluff), view.mine,
        None if fight is None else (fight.kind.value, fight.members, fight.go_at,
                                    pid in fight.ready),
        None if event is None else (event.name, event.drawer),
    )  # fmt: skip


def seat_of(showdown_id: int, user: User) -> ShowdownSeat | None:
    return ShowdownSeat.objects.filter(showdown_id=showdown_id, user=user).first()


def showdown_move(
    *,
    showdown_id: int,
    campaign: Campaign,
    user: User,
    move: Callable[[str], m.Move],
    version: int | None,
    key: str = "",
    basis: str = "",
    rng: random.Random | None = None,
    for_pid: str = "",
) -> Showdown:
    """Apply one move, made by ``move(pid)`` with the mover's own seat, through the table kit;
    or, by the table's host, with the seat ``for_pid`` of a player whose phone is gone (SS19).
    Raises ``ShowdownError`` (nothing changed) when refused; a repeated submit changes nothing.
    The events' moves are the host's (the table's Dealer, seated or not)."""
    seat = seat_of(showdown_id, user)
    pid = seat.pid if seat else ""
    proxy = bool(for_pid) and for_pid != pid
    if proxy:
        pid = for_pid

    def apply(showdown: Showdown) -> Changes:
        made = move(pid)
        before = state_from_data(showdown.state)
        said: tuple[g.Entry, ...] = ()
        if isinstance(made, m.HostMove):
            if not is_host(campaign, user):
                raise NotYours("Only the host reveals and settles the event cards.")
        elif proxy:  # SS19: the host, for a phone that is gone; the timeline says so
            if not is_host(campaign, user):
                raise NotYours("Only the host can act for another player.")
            if not before.has(pid):
                raise ShowdownError("No such player at this game.")
            said = (g.Entry("rule", acting_for(user, before.player(pid).name), pid),)
        elif seat is None:
            raise NotYours("Only the players at this game play; you can watch.")
        outcome = g.apply(before, made, rng or system_rng())
        return Changes(
            fields={"state": state_to_data(outcome.state), "phase": outcome.state.phase.value},
            lines=_lines((*said, *outcome.entries), user),
        )

    # A proxy's form carries no basis, and none posted counts: another seat's basis may hash
    # its hidden count, and a guessed one must not be an oracle for it (SS15, SS19).
    moved = table_move(
        SHOWDOWNS, table_id=showdown_id, where={"campaign": campaign}, key=key,
        based_on=Basis(version, pid, "" if proxy else basis), apply=apply,
    )  # fmt: skip
    showdown: Showdown = moved.row
    return showdown


def _lines(entries: Sequence[g.Entry], actor: User) -> list[dict[str, object]]:
    return [{"kind": e.kind, "pid": e.pid, "actor": actor, "text": e.text} for e in entries]
