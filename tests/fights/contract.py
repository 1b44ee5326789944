"""Dust Devils fights under the contract suite (tests/tables/test_contract.py). A fight's seats
are its combatants, not the table's users: the host (p1) is the Dealer, who runs Mayor Crane
and the round; p2 and p3 each play their own player character. Set up: every Quickness typed
in and the round dealt (R23, R31). Two players roll dice against a TN for their own characters
at once (R32); a Quickness total once the round is dealt is refused; each hand is its player's
and the Dealer's alone, Mayor Crane's the Dealer's (R30)."""

from __future__ import annotations

from typing import Any

from campaigns.game_sessions import session_start
from characters.models import Character
from characters.services import character_create
from fights.engine.serial import state_from_data
from fights.services import fight_create
from tests.conftest import _legal_pc
from tests.contract import Contract

NAMES = ("Abe Slade", "Bess Doyle")
NPC = {"name": "Mayor Crane", "hand": 2, "eye": 3, "guts": 2, "heart": 4,
       "devil": "Owns the town and fears losing it.", "devil_rating": 3}  # fmt: skip


def cast(campaign: Any, users: list[Any]) -> list[Character]:
    """The player characters of ``users[1:]`` and the Dealer's Mayor Crane (made once)."""
    made = []
    for user, name in zip(users[1:], NAMES, strict=False):
        pc = Character.objects.filter(campaign=campaign, player=user, name=name).first()
        if pc is None:
            data, knacks = _legal_pc(name)
            pc = character_create(campaign=campaign, kind="pc", player=user, data=data,
                                  knacks=knacks)  # fmt: skip
        made.append(pc)
    npc = Character.objects.filter(campaign=campaign, name=NPC["name"]).first()
    if npc is None:
        npc = character_create(campaign=campaign, kind="npc", player=None, data=NPC,
                               knacks={"Politickin'": 3})  # fmt: skip
    return [*made, npc]


def start(campaign: Any, users: list[Any]) -> Any:
    session = session_start(campaign=campaign, actor=users[0])
    return fight_create(campaign=campaign, actor=users[0], session=session, title="Contract",
                        characters=cast(campaign, users))  # fmt: skip


def new_post(campaign: Any, users: list[Any]) -> dict[str, Any]:
    """The Dealer's new-fight form: the session being played, every character of the cast."""
    session = session_start(campaign=campaign, actor=users[0])
    takes = {f"take_{c.pk}": "on" for c in cast(campaign, users)}
    return {"session": session.pk, "title": "Contract", "cap": "5", "fate_pot": "white 10",
            **takes}  # fmt: skip


def seated(row: Any) -> list[Any]:
    """Who is at a fight: the Dealer who started it, then the players of its characters."""
    players = [s.character.player for s in row.seats.order_by("id") if s.kind == "pc"]
    return [row.created_by, *players]


def scope(row: Any, pid: str) -> str:
    """The combatant a seat's move is about: p2's and p3's characters (the Dealer's: none)."""
    pcs = [s.cid for s in row.seats.order_by("id") if s.kind == "pc"]
    return {"p2": pcs[0], "p3": pcs[1]}.get(pid, "")


def of(pid: str, **fields: str) -> Any:
    """A move's fields about seat ``pid``'s combatant (the Dealer's: Mayor Crane)."""

    def made(row: Any) -> dict[str, str]:
        npc = row.seats.get(kind="npc").cid
        return {"cid": scope(row, pid) or npc, **fields}

    return made


def secrets(row: Any) -> dict[str, list[str]]:
    """Each player may not see the other player's hand, nor Mayor Crane's (in words: a card's
    text is in every Act form's card list; a joker's name is in the rules' words)."""
    state = state_from_data(row.state)
    hands = {c.cid: [card.words for card in c.hand if not card.is_joker] for c in state.combatants}
    mine = {"p2": scope(row, "p2"), "p3": scope(row, "p3")}
    return {pid: [w for cid, words in hands.items() if cid != own for w in words]
            for pid, own in mine.items()}  # fmt: skip


CONTRACT = Contract(
    setup=(
        ("p2", "quickness", of("p2", total="11")),
        ("p3", "quickness", of("p3", total="9")),
        ("p1", "quickness", of("p1", total="8")),
        ("p1", "deal", {}),
    ),
    together=(
        ("p2", "tn-roll", of("p2", dice="2d6", tn="5")),
        ("p3", "tn-roll", of("p3", dice="2d6", tn="5")),
    ),
    refused=(("p2", "quickness", of("p2", total="7")), "The round is dealt"),
    secrets=secrets,
    fields=("cid", "total", "bust", "text", "card", "dice", "tn", "cap", "character", "extras"),
    start=start,
    new_post=new_post,
    seated=seated,
    scope=scope,
)
