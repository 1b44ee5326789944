"""Helpers for the saloon's engine tests: a seated table, cards by text, and a random player
who always makes a legal move (for the property tests)."""

from __future__ import annotations

import random
from dataclasses import replace

from cards.deck import BLACK_JOKER, RED_JOKER, Card, parse_card, parse_cards
from saloon.engine import game as g

SEATS = (("a", "Alessio"), ("b", "Benedetta"), ("d", "Daniele"), ("gr", "Greta"), ("v", "Vanessa"))


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def card(text: str) -> Card:
    return parse_card(text)


def table(players: int = 3, seed: int = 1, *, pick: bool = False) -> g.SaloonState:
    return g.new_game(SEATS[:players], random.Random(seed), pick=pick).state


NAMES = dict(SEATS)


def seated(hands: dict[str, str], phase: g.Phase, **fields: object) -> g.SaloonState:
    """A table with these hands, in this seat order (keys of ``hands`` from ``SEATS``), each
    with an archetype in seat order (K♥ Doctor, Q♥ Prostitute, ...); the other face cards
    aside, every other numbered card on the discard pile (the 54 cards stay conserved)."""
    held = {pid: cards(text) for pid, text in hands.items()}
    taken = {c for h in held.values() for c in h}
    players = tuple(
        g.Player(pid, NAMES[pid], archetype=g.TABLE_ORDER[i], hand=held[pid])
        for i, pid in enumerate(hands)
    )
    faces = {p.archetype for p in players}
    jokers = tuple(c for c in (BLACK_JOKER, RED_JOKER) if c not in taken)
    if "red_joker" in fields:
        jokers = tuple(c for c in jokers if c != RED_JOKER)
    state = g.SaloonState(
        phase=phase,
        players=players,
        aside=(*(c for c in g.FACE_CARDS if c not in faces), *jokers),
        discards=tuple(c for c in g.NUMBERED if c not in taken),
        **fields,  # type: ignore[arg-type]
    )
    assert g.conserved(state)
    return state


def playing(hands: dict[str, str], doomed: str, drawer: str | None = None) -> g.SaloonState:
    """A game in play with these hands (the Doomed's includes BJ)."""
    state = seated(hands, g.Phase.PLAY, doomed=doomed, red_joker=doomed)
    state = replace(
        state,
        players=tuple(replace(p, discarded=True) for p in state.players),
        turn=g.Turn(drawer=drawer or g._next_drawer(state, doomed)),
    )
    return state


def random_move(state: g.SaloonState, rng: random.Random) -> g.Move:
    """One legal move, as a table of players pressing buttons at random would make it."""
    if state.unwanted:
        return g.LowerUnwanted(state.unwanted)
    if rng.random() < 0.02:
        return g.RaiseUnwanted(rng.choice(state.players).pid)
    if state.phase == g.Phase.ARCHETYPES:
        pid = rng.choice(g.whose_move(state))
        free = [c for c in g.FACE_CARDS if c in state.aside]
        return g.PickArchetype(pid, rng.choice(free))
    if state.phase == g.Phase.DISCARD:
        pid = rng.choice(g.whose_move(state))
        hand = state.player(pid).hand
        triples = [[c for c in hand if c.rank == r] for r in {c.rank for c in hand}]
        keep = tuple(rng.choice(t) for t in triples if len(t) == 3 and rng.random() < 0.5)
        return g.Discard(pid, keep)
    if state.phase == g.Phase.SWAP:
        top = max(len(p.hand) for p in state.players)
        other = rng.choice([p.pid for p in state.players if len(p.hand) == top])
        return g.SwapWith(state.appointed, other)
    if state.phase == g.Phase.DUEL:
        assert state.duel is not None
        return g.Shoot(state.duel.shooter, rng.randrange(2))
    assert state.phase == g.Phase.PLAY
    assert state.turn is not None
    turn = state.turn
    safe = [p.pid for p in state.players if not p.hand and not p.left]
    if safe and rng.random() < 0.05:
        return g.Leave(rng.choice(safe))
    if turn.step == g.Step.DRAW:
        size = len(state.player(state.doomed).hand)
        return g.Draw(turn.drawer, rng.randrange(size))
    if turn.step in (g.Step.ASK, g.Step.CLEAR):
        others = [
            p.pid
            for p in state.players
            if p.pid != turn.drawer and (turn.table == 3 or p.pid != state.doomed)
        ]
        if rng.random() < 0.5:
            return g.Prompt(turn.drawer, subject_pid=rng.choice(others), text="why")
        return g.Prompt(turn.drawer, subject="the blacksmith")
    if turn.step == g.Step.ANSWER:
        return g.Answer(turn.answerer, rng.choice(["", "Because."]))
    if rng.random() < 0.5:
        return g.FollowUp(turn.offer, "And then?")
    return g.Pass(turn.offer)


def play_out(state: g.SaloonState, rng: random.Random, limit: int = 5000) -> list[g.SaloonState]:
    """Random legal moves until the game is over; every state on the way."""
    seen = [state]
    for _ in range(limit):
        if state.phase == g.Phase.OVER:
            return seen
        state = g.apply(state, random_move(state, rng), rng).state
        seen.append(state)
    raise AssertionError(f"no ending after {limit} moves")


__all__ = ["BLACK_JOKER", "card", "cards", "play_out", "playing", "random_move", "table"]
