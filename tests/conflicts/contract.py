"""Dust Devils conflicts under the contract suite (tests/tables/test_contract.py): the Dealer
(p1, the host) sets up the two players' characters (p2, p3) against a 5-card stud, approves
their sizing and deals; in the Draw both players stand pat at once, each on their own hand; a
proposal in the Draw is refused; no player sees another's hand, nor the stud (R10).

A conflict's hands are held by characters, not users: its table is set up by the Dealer (the
contract's ``start``, ``new_post``), a seat's moves name their hand (``pid``: ``scope``), and
who sits at it is the Dealer who set it up and the characters' players (``seated``)."""

from __future__ import annotations

from typing import Any

from characters.models import Character
from conflicts.engine.serial import state_from_data
from conflicts.services import HandSpec, conflict_create
from tests.conftest import _legal_pc
from tests.contract import Contract


def pcs(campaign: Any, users: list[Any]) -> list[Character]:
    """A player character for each player (the host deals): theirs, or a new one."""
    from characters.services import character_create

    out = []
    for user in users[1:]:
        pc = Character.objects.filter(campaign=campaign, player=user, kind="pc").first()
        if pc is None:
            data, knacks = _legal_pc(f"{user.username.title()} Slade")
            pc = character_create(
                campaign=campaign, kind="pc", player=user, data=data, knacks=knacks
            )
        out.append(pc)
    return out


def start(campaign: Any, users: list[Any]) -> Any:
    hands = [HandSpec(character=pc) for pc in pcs(campaign, users)]
    return conflict_create(
        campaign=campaign, actor=users[0], title="The contract",
        hands=[*hands, HandSpec(stud_size=5, goal="The posse")],
    )  # fmt: skip


def new_post(campaign: Any, users: list[Any]) -> dict[str, str]:
    """The Dealer's set-up form: the players' characters take part, against a 5-card stud."""
    takes = {f"{field}_{pc.pk}": value for pc in pcs(campaign, users)
             for field, value in (("take", "on"), ("side", "players"))}  # fmt: skip
    # The form lists every character of the campaign, each with its side (as a browser sends
    # the select's first choice); only the players' characters take part.
    sides = {f"side_{pk}": "players" for pk in Character.objects.filter(campaign=campaign)
             .values_list("pk", flat=True)}  # fmt: skip
    return {"title": "The contract", "stakes": "0", "stud": "5", **sides, **takes}


def scope(row: Any, pid: str) -> str:
    """p2 and p3: the players' hands, in the order set up; p1: the Dealer's stud."""
    seats = list(row.seats.order_by("id").values_list("pid", flat=True))
    return seats[-1] if pid == "p1" else seats[int(pid[1:]) - 2]


def seated(row: Any) -> list[Any]:
    players = [s.character.player for s in row.seats.order_by("id") if s.character_id]
    return [row.created_by, *players]


def of(pid: str, **fields: Any) -> Any:
    """A move's fields about the hand of seat ``pid``, as its phone posts them."""

    def made(row: Any) -> dict[str, Any]:
        return {"pid": scope(row, pid), **fields}

    return made


def secrets(row: Any) -> dict[str, list[str]]:
    """Each player's hand and the stud, as a card is written on a page, for every other
    player."""
    state = state_from_data(row.state)
    cards = {p.pid: [f'data-card="{c.text}"' for c in p.hand] for p in state.participants}
    return {
        seat: [card for pid, shown in cards.items() if pid != scope(row, seat) for card in shown]
        for seat in ("p2", "p3")
    }


CONTRACT = Contract(
    start=start,
    new_post=new_post,
    seated=seated,
    scope=scope,
    setup=(
        ("p1", "approve", of("p2", attributes=["hand", "eye"], devil="0")),
        ("p1", "approve", of("p3", attributes=["guts", "heart"], devil="0")),
        ("p1", "deal", {}),
    ),
    together=(("p2", "draw", of("p2", stand="1")), ("p3", "draw", of("p3", stand="1"))),
    refused=(("p2", "propose", of("p2", attributes=["hand", "eye"])), ""),
    secrets=secrets,
    fields=(
        "amount", "attribute", "attributes", "card", "cards", "devil", "discards", "extra_chip",
        "eye", "guts", "hand", "heart", "knack", "now", "reason", "source", "stand", "text",
        "trait",
    ),
)  # fmt: skip
