"""High card's pure rules: each seat draws one card from a shuffled deck, seen by its drawer
alone until every seat has drawn; then all are shown, and the highest (by rank, then suit)
wins."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from cards.deck import FULL_DECK, Card, parse_card
from cards.errors import IllegalMove


@dataclass(frozen=True)
class State:
    seats: tuple[tuple[str, str], ...]  # (pid, name), clockwise
    deck: tuple[Card, ...]
    drawn: tuple[tuple[str, Card], ...] = ()
    winner: str = ""

    @property
    def phase(self) -> str:
        return "over" if self.winner else "draw"

    def has(self, pid: str) -> bool:
        return any(p == pid for p, _ in self.seats)

    def name(self, pid: str) -> str:
        return dict(self.seats)[pid]

    def card(self, pid: str) -> Card | None:
        return dict(self.drawn).get(pid)


@dataclass(frozen=True)
class Draw:
    pid: str


@dataclass(frozen=True)
class Event:
    text: str
    pid: str = ""


def new_game(seats: list[tuple[str, str]], rng: random.Random) -> tuple[State, list[Event]]:
    if not 2 <= len(seats) <= 6:
        raise IllegalMove("High card is for 2 to 6 players.")
    deck = list(FULL_DECK[:52])  # no jokers
    rng.shuffle(deck)
    return State(seats=tuple(seats), deck=tuple(deck)), [Event("The deck is shuffled.")]


def apply(state: State, move: Draw) -> tuple[State, list[Event]]:
    if state.winner:
        raise IllegalMove("The game is over.")
    if not state.has(move.pid):
        raise IllegalMove("Only the players at this game draw.")
    if state.card(move.pid) is not None:
        raise IllegalMove("You have drawn your card already.")
    state = replace(state, deck=state.deck[1:], drawn=(*state.drawn, (move.pid, state.deck[0])))
    events = [Event(f"{state.name(move.pid)} draws a card.", move.pid)]
    if len(state.drawn) == len(state.seats):
        best = max(state.drawn, key=lambda pc: pc[1].order)  # by rank, then suit
        state = replace(state, winner=best[0])
        shown = ", ".join(f"{state.name(p)}: {c.text}" for p, c in state.drawn)
        events.append(Event(f"The cards are shown ({shown}). {state.name(best[0])} wins."))
    return state, events


def visible(state: State, viewer: str | None) -> dict[str, Any]:
    """What ``viewer`` sees: their own card; the others' only once the game is over."""
    return {
        "phase": state.phase,
        "cards": [
            (pid, name, card if (state.winner or pid == viewer) else None, card is not None)
            for pid, name in state.seats
            for card in (state.card(pid),)
        ],
        "winner": state.name(state.winner) if state.winner else "",
        "can_draw": bool(viewer)
        and state.has(viewer or "")
        and state.card(viewer or "") is None
        and not state.winner,
    }


def to_data(state: State) -> dict[str, Any]:
    return {
        "seats": [list(s) for s in state.seats],
        "deck": [c.text for c in state.deck],
        "drawn": [[p, c.text] for p, c in state.drawn],
        "winner": state.winner,
    }


def from_data(data: dict[str, Any]) -> State:
    return State(
        seats=tuple((p, n) for p, n in data["seats"]),
        deck=tuple(parse_card(c) for c in data["deck"]),
        drawn=tuple((p, parse_card(c)) for p, c in data["drawn"]),
        winner=data["winner"],
    )
