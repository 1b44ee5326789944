"""The site's reads and writes of any declared game (``tables.game.Game``): its list, who sits
where, a new game, and a move through the kit's one pipeline (``tables.moves.table_move``)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Count, Exists, OuterRef
from django.http import Http404

from campaigns.access import membership_for
from campaigns.models import Campaign, Membership
from cards.deck import system_rng
from cards.errors import IllegalMove
from cards.words import said
from tables import clock
from tables.errors import NotYours, Refused
from tables.forms import GameMove, display_name
from tables.game import Game
from tables.moves import Basis, Changes, Moved, opening_lines, table_move
from tables.seating import acting_for, is_host, seating_problem
from tables.words import refusal


# --- Reads ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Listed:
    """A game in a table's list: how many play, and whether the viewer has a seat."""

    table: Any
    players: int
    mine: bool


def games_of(game: Game, campaign: Campaign, user: User | None = None) -> list[Listed]:
    """The table's games of this kind, newest first, each with its number of players and whether
    ``user`` has a seat (two annotations: one query)."""
    viewer = user.pk if user is not None else 0
    mine = game.seat_model._default_manager.filter(**{game.fk: OuterRef("pk"), "user_id": viewer})
    rows = game.model._default_manager.filter(campaign=campaign).annotate(
        n=Count("seats"), seated=Exists(mine)
    )
    return [Listed(table=row, players=row.n, mine=row.seated) for row in rows]


def lobby_members(campaign: Campaign) -> list[Membership]:
    """Who sits at the table, the host first, then in the order they came."""
    members = Membership.objects.filter(campaign=campaign).select_related("user")
    return sorted(members, key=lambda m: (not m.is_dealer, m.joined_at, m.pk))


def seat_of(game: Game, table_id: int, user: User | None) -> Any:
    """The viewer's seat at a game (None: they watch)."""
    if user is None or not user.is_authenticated:
        return None
    return game.seat_model._default_manager.filter(**{f"{game.fk}_id": table_id}, user=user).first()


def load(game: Game, request: Any, slug: str, table_id: int) -> Any:
    """The game at this table (404 for those who do not sit at it)."""
    row = game.page_row(table_id, membership_for(request.user, slug).campaign)
    if row is None:
        raise Http404(game.missing)
    return row


# --- Writes --------------------------------------------------------------------------------------
def create(
    game: Game, *, campaign: Campaign, actor: User, players: Sequence[User],
    data: dict[str, Any] | None = None, rng: random.Random | None = None,
) -> Any:  # fmt: skip
    """A new game for ``players`` of the table's members, seated clockwise in the order given,
    with the new-game form's ``data``. Raises ``Refused`` in plain words."""
    data = data or {}
    if problem := seating_problem(campaign, actor=actor, players=players):
        raise Refused(problem)
    seats = [(f"p{i + 1}", display_name(p)) for i, p in enumerate(players)]
    pid_of = {p.pk: pid for p, (pid, _) in zip(players, seats, strict=True)}
    try:
        state, events = game.new_state(seats, data, pid_of, rng or system_rng())
    except IllegalMove as error:
        raise Refused(refusal(error)) from error
    with transaction.atomic():
        row = game.model._default_manager.create(
            campaign=campaign, state=game.dump(state), phase=game.phase(state), created_by=actor,
            **game.row_fields(data),
        )  # fmt: skip
        game.seat_model._default_manager.bulk_create(
            game.seat_model(**{game.fk: row}, user=p, pid=pid, position=i)
            for i, (p, (pid, _)) in enumerate(zip(players, seats, strict=True))
        )
        opening = game.note(said(game.opening, actor=display_name(actor), name=game.name))
        opening_lines(game.table, row, game.lines((opening, *events), actor, state))
    return row


def move(
    game: Game, *, table_id: int, campaign: Campaign, user: User, form: GameMove,
    at_ms: int | None = None, for_pid: str = "", rng: random.Random | None = None,
) -> Moved[Any]:  # fmt: skip
    """One move of a valid ``form`` through the kit's pipeline, made with the mover's own seat;
    or, by the table's host, with the seat ``for_pid`` of a player whose phone is gone (the
    timeline says so); a host's move (``host_only``) with theirs, seated or not. ``at_ms``: the
    server's clock when the move arrived (else read under the lock). Raises ``Refused``
    (nothing changed) or ``NotYours``; a repeated submit changes nothing."""
    seat = seat_of(game, table_id, user)
    pid = seat.pid if seat else ""
    proxy = game.host_acts_for and bool(for_pid) and for_pid != pid and not form.host_only
    if proxy:
        pid = for_pid
    # Who hosts is no state of the table's: a host's move by anyone else is refused at once.
    if form.host_only or proxy:
        if not is_host(campaign, user):
            raise NotYours(form.host_refusal if form.host_only else
                           "Only the host can act for another player.")  # fmt: skip
        form.host = display_name(user)

    def apply(read: Any) -> Changes:
        before = game.load(game.row(read).state)
        said: tuple[Any, ...] = ()
        if proxy:
            name = game.seat_name(before, pid)
            if name is None:
                raise Refused(game.no_seat)
            said = (game.note(acting_for(user, name), pid),)
        elif seat is None and not form.host_only:
            raise NotYours("Only the players at this game play; you can watch.")
        now = at_ms if at_ms is not None else clock.now_ms()
        state, events = game.apply(before, form.move(pid, now), rng or system_rng())
        return Changes(
            fields={"state": game.dump(state), "phase": game.phase(state)},
            lines=game.lines((*said, *events), user, state),
        )

    data = form.cleaned_data
    # A proxy's form carries no basis, and none posted counts: another seat's basis may hash
    # what only that seat sees, and a guessed one must not be an oracle for it.
    return table_move(
        game.table, table_id=table_id, where={"campaign": campaign}, key=data["key"],
        based_on=Basis(data["version"], pid, "" if proxy else data["basis"]), apply=apply,
    )  # fmt: skip
