"""Writes to the saloon (docs/architecture.md, "The shape of a table action").

``saloon_move`` is the one way a move reaches a game, through the table kit's pipeline
(``tables.moves.table_move``: lock, idempotency key, what the move was based on, save with
``version + 1`` and the timeline, publish on commit: a version, never a card). What is the
saloon's own: the mover's seat (only seated players act; the engine then lets each act only on
their turn) and the engine.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from django.contrib.auth.models import User
from django.db import transaction

from campaigns.access import seating_problem
from campaigns.models import Campaign, Membership
from campaigns.once import invite_once
from campaigns.services import campaign_create
from cards.deck import system_rng
from cards.errors import IllegalMove
from saloon.engine import game as g
from saloon.engine.serial import state_from_data, state_to_data
from saloon.models import Saloon, SaloonLine, SaloonMoveKey, SaloonSeat
from saloon.reads import SaloonRead, carried_on, saloon_read
from tables.errors import NotYours, Refused
from tables.moves import Basis, Changes, Table, basis_of, opening_lines, table_move

SaloonError = Refused  # the table kit's one error family, under the saloon's names
NotSeated = NotYours  # only the players at the table play


def display_name(user: User) -> str:
    return user.first_name or user.get_username()


def oneoff_create(*, host: User, name: str = "") -> Campaign:
    """A one-off table for people outside any campaign (issue 20): a campaign of kind one-off
    (see ``campaigns.models.Campaign``) with ``host`` seated in the Dealer's chair. The others
    come in by invitation links (``oneoff_invite``) and become its members, so every page, move
    and stream of its games is scoped by membership exactly as a campaign's are."""
    name = " ".join(name.split())[:120] or f"{display_name(host)}’s saloon table"
    return campaign_create(dealer=host, name=name, kind=Campaign.Kind.ONE_OFF)


def oneoff_invite(*, membership: Membership, key: str = "") -> str:
    """A new single-use invitation link's token for a one-off table, made by its host (the
    campaigns' own invitations: only the token's hash is stored, so it is shown once). Once per
    form (``key``): the same form sent again shows the same link."""
    if not membership.campaign.is_one_off:
        raise SaloonError("A campaign's Dealer invites players on its Invitations page.")
    if not membership.is_dealer:
        raise SaloonError("Only the host of this table makes invitation links.")
    return invite_once(
        campaign=membership.campaign, actor=membership.user, label="A seat at the saloon",
        key=key,
    )  # fmt: skip


def saloon_create(
    *,
    campaign: Campaign,
    actor: User,
    players: Sequence[User],
    pick: bool = False,
    rng: random.Random | None = None,
) -> Saloon:
    """A new game for 3–5 of the campaign's members, seated clockwise in the order given. The
    one who starts it must be a member too."""
    if problem := seating_problem(campaign, actor=actor, players=players):
        raise SaloonError(problem)
    seats = [(f"p{i + 1}", display_name(p)) for i, p in enumerate(players)]
    try:
        outcome = g.new_game(seats, rng or system_rng(), pick=pick)
    except IllegalMove as error:
        raise SaloonError(str(error)) from error
    with transaction.atomic():
        saloon = Saloon.objects.create(
            campaign=campaign,
            state=state_to_data(outcome.state),
            phase=outcome.state.phase.value,
            created_by=actor,
        )
        SaloonSeat.objects.bulk_create(
            SaloonSeat(saloon=saloon, user=p, pid=pid, position=i)
            for i, (p, (pid, _)) in enumerate(zip(players, seats, strict=True))
        )
        opening = g.Entry("rule", f"{display_name(actor)} starts a game: Death enters the saloon.")
        opening_lines(
            SALOONS, saloon, _lines((opening, *outcome.entries), actor, outcome.state.deal)
        )
    return saloon


class SaloonTable(Table[SaloonRead]):
    """A saloon game, as the table kit moves it: its row, keys and timeline, read as its
    screens read it (``reads.saloon_read``: the answer needs no second read); every move is a
    seat's, based on that seat, the turn and the phase."""

    model = Saloon
    key_model = SaloonMoveKey
    line_model = SaloonLine
    fk = "saloon"
    channel = "saloon"
    missing = "No such game in this campaign."

    def read(self, table_id: int) -> SaloonRead:
        read = saloon_read(table_id)
        assert read is not None  # the kit's lock found the row
        return read

    def row(self, read: SaloonRead) -> Saloon:
        return read.saloon

    def basis(self, read: SaloonRead, scope: str) -> str:
        return seat_basis(state_from_data(read.saloon.state), scope)


SALOONS = SaloonTable()


def seat_basis(state: g.SaloonState, pid: str) -> str:
    """What a move of seat ``pid`` is based on: that player, whose turn it is, the duel, the
    Unwanted card and the phase."""
    if not state.has(pid):
        return ""
    return basis_of(
        state.phase.value, repr(state.player(pid)), repr(state.turn), repr(state.duel),
        state.unwanted, state.doomed, state.deal,
    )  # fmt: skip


def seat_of(saloon_id: int, user: User) -> SaloonSeat | None:
    return SaloonSeat.objects.filter(saloon_id=saloon_id, user=user).first()


def saloon_move(
    *,
    saloon_id: int,
    campaign: Campaign,
    user: User,
    move: Callable[[str], g.Move],
    version: int | None,
    key: str = "",
    basis: str = "",
    rng: random.Random | None = None,
    as_host: bool = False,
) -> Saloon:
    """Apply one move, made by ``move(pid)`` with the mover's own seat (a form cannot act for
    someone else), through the table kit. Raises ``SaloonError`` (nothing changed) when
    refused; returns the game unchanged for a repeated submit. ``as_host``: the host (the
    table's Dealer, seated or not) lowers the Unwanted card (R34)."""
    return saloon_move_read(
        saloon_id=saloon_id, campaign=campaign, user=user, move=move, version=version, key=key,
        basis=basis, rng=rng, as_host=as_host,
    ).saloon  # fmt: skip


def saloon_move_read(
    *,
    saloon_id: int,
    campaign: Campaign,
    user: User,
    move: Callable[[str], g.Move],
    version: int | None,
    key: str = "",
    basis: str = "",
    rng: random.Random | None = None,
    as_host: bool = False,
) -> SaloonRead:
    """``saloon_move``, returning the game as its screens would read it now: the move's own
    read (taken under the lock) carried on with the lines it wrote. Raises
    ``Saloon.DoesNotExist`` for a game outside ``campaign``."""
    seat = seat_of(saloon_id, user)
    if as_host:
        if not Membership.objects.filter(
            campaign=campaign, user=user, role=Membership.Role.DEALER
        ).exists():
            raise NotSeated("Only the host lowers the Unwanted card for the table.")
        pid = seat.pid if seat else ""
        move = lambda _pid: g.LowerUnwanted(pid, host=display_name(user))  # noqa: E731

    def apply(read: SaloonRead) -> Changes:
        saloon = read.saloon
        if seat is None and not as_host:
            raise NotSeated("Only the players at this table can play; you can watch.")
        made = move(seat.pid if seat else "")
        outcome = g.apply(state_from_data(saloon.state), made, rng or system_rng())
        return Changes(
            fields={"state": state_to_data(outcome.state), "phase": outcome.state.phase.value},
            lines=_lines(outcome.entries, user, outcome.state.deal),
        )

    moved = table_move(
        SALOONS, table_id=saloon_id, where={"campaign": campaign}, key=key,
        based_on=Basis(version, seat.pid if seat else "", basis), apply=apply,
    )  # fmt: skip
    return carried_on(moved.read, moved.lines)


def _lines(entries: Sequence[g.Entry], actor: User, deal: int) -> list[dict[str, object]]:
    return [
        {"deal": deal, "kind": e.kind, "pid": e.pid, "actor": actor, "text": e.text,
         "said": e.said}
        for e in entries
    ]  # fmt: skip


STRIKABLE = ("question", "cue", "answer", "follow_up", "tell")
STRUCK_TEXT = "Words struck from the story at the table’s request."


def saloon_line_strike(
    *,
    saloon_id: int,
    campaign: Campaign,
    user: User,
    line_id: int,
    version: int | None,
    key: str = "",
) -> Saloon:
    """S4: while the Unwanted card is up, strike a line's words (a question, a cue, an answer, a
    follow-up, a tale) from the timeline and the story, for good. The engine rules who may
    (``Strike``); this writes it, in the same transaction as the move."""
    struck: list[int] = []

    def strike(pid: str) -> g.Move:
        line = SaloonLine.objects.filter(
            saloon_id=saloon_id, pk=line_id, kind__in=STRIKABLE, struck=False
        ).first()
        if line is None:
            raise SaloonError("There are no such words left in this game's story.")
        struck.append(line.pk)
        latest = (
            SaloonLine.objects.filter(saloon_id=saloon_id, kind__in=("question", "cue"))
            .order_by("-seq")
            .values_list("pk", flat=True)
            .first()
        )
        return g.Strike(pid, author=line.pid, prompt=line.pk == latest)

    with transaction.atomic():
        saloon = saloon_move(
            saloon_id=saloon_id, campaign=campaign, user=user, move=strike, version=version,
            key=key,
        )  # fmt: skip
        SaloonLine.objects.filter(pk__in=struck).update(text=STRUCK_TEXT, said="", struck=True)
    return saloon
