"""Conflict state survives the trip to the database and back, at every step (R10: the 54 cards
stay accounted for, and a corrupted row fails loudly)."""

from __future__ import annotations

import json
import random

import pytest

from cards.deck import ConservationError
from conflicts.engine import conflict as c
from conflicts.engine.serial import state_from_data, state_to_data


def _jack_and_luke_against_the_posse() -> c.ConflictState:
    jack = c.Participant(
        "c1", "Black Jack", c.Kind.PC,
        currents={"hand": 3, "eye": 4, "guts": 2, "heart": 4}, devil_rating=2,
    )  # fmt: skip
    luke = c.Participant(
        "c2", "Lucky Luke", c.Kind.PC,
        currents={"hand": 3, "eye": 3, "guts": 4, "heart": 3}, devil_rating=2,
    )  # fmt: skip
    posse = c.Participant("stud", "The posse", c.Kind.STUD, side="dealer", stud_size=5)
    return c.new_conflict([jack, luke, posse], stakes=1)


def _roundtrip(state: c.ConflictState) -> c.ConflictState:
    back = state_from_data(json.loads(json.dumps(state_to_data(state))))
    assert back == state
    return back


def test_it_round_trips_a_whole_conflict_R10() -> None:
    rng = random.Random(1872)
    state = _roundtrip(_jack_and_luke_against_the_posse())
    moves: list[c.Move] = [
        c.Propose("c1", ("hand", "eye"), trait=True),
        c.Approve("c1", ("hand", "eye"), trait=True),
        c.Approve("c2", ("hand", "guts"), devil=-1),
        c.SpendExtraCard("c2"),
        c.Deal(salt="pepper"),
    ]
    for move in moves:
        state = _roundtrip(c.apply(state, move, rng).state)
    jack = state.participant("c1")
    state = _roundtrip(c.apply(state, c.ApproveKnack("c1", "Gamblin'", 4), rng).state)
    state = _roundtrip(c.apply(state, c.Draw("c1", jack.hand[:2]), rng).state)
    for move in (c.Call(now=True), c.Reveal()):
        state = _roundtrip(c.apply(state, move, rng).state)
    for owed in state.owed:
        p = state.participant(owed.pid)
        allocation = c.default_allocation(owed, p.currents)
        state = _roundtrip(c.apply(state, c.Allocate(owed.pid, allocation), rng).state)
    state = _roundtrip(c.apply(state, c.Finish(), rng).state)
    assert state.phase == c.Phase.DONE


def test_it_refuses_a_row_that_lost_a_card_R10() -> None:
    state = c.apply(
        _jack_and_luke_against_the_posse(), c.Approve("c1", ("hand", "eye")), None
    ).state
    state = c.apply(state, c.Approve("c2", ("hand", "eye")), None).state
    state = c.apply(state, c.Deal(salt="s"), random.Random(2)).state
    data = state_to_data(state)
    data["deck"]["stock"].pop()
    with pytest.raises(ConservationError):
        state_from_data(data)
