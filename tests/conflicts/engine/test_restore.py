"""Issue 28, R10: what a campaign file carries of a running conflict (``sealed``) and how it
comes back (``redealt``): no hidden card, no order and no salt leave a running table, and no
file can choose a card — whatever it says a hidden place holds is dealt again from a fresh
shuffle under a new commitment. Pure: no database."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cards.deck import FULL_DECK, parse_card, verify_commitment
from conflicts.engine.conflict import Call, ConflictState, Phase, all_cards, visible_cards
from conflicts.engine.restore import HIDDEN, redealt, sealed
from conflicts.engine.serial import BadState, state_from_data, state_to_data
from tests.conflicts.engine.conflict_kit import (
    JACK,
    POSSE,
    ZEKE,
    black_jack,
    dealt,
    revealed,
    rng,
    step,
    stud,
    zeke,
)
from tests.conftest import depth

TEXTS = {card.text for card in FULL_DECK}


def drawing() -> ConflictState:
    return dealt([zeke(), black_jack(), stud(5)], seed=7, salt="the-old-salt")


def tokens(data: object) -> set[str]:
    """Every card the data names (its JSON's strings that are cards)."""
    found: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, str) and value in TEXTS:
            found.add(value)

    walk(data)
    return found


def test_a_sealed_running_conflict_names_no_card_and_no_salt() -> None:
    state = drawing()
    data = sealed(state)
    assert tokens(data) == set()
    assert "the-old-salt" not in json.dumps(data)
    assert (data["order"], data["salt"], data["commitment"]) == ([], "", "")
    for hand, p in zip(data["participants"], state.participants, strict=True):
        assert hand["hand"] == [HIDDEN] * len(p.hand)  # how many, never which
    assert data["deck"]["stock"] == [HIDDEN] * len(state.deck.stock)  # type: ignore[union-attr]


def test_after_the_reveal_only_the_lays_on_the_table_are_named() -> None:
    outcome = revealed(drawing())
    data = sealed(outcome.state)
    public = {c.text for c in visible_cards(outcome.state, (), dealer=False)}
    assert tokens(data) == public
    assert public  # the lays
    assert "the-old-salt" not in json.dumps(data)


def test_a_finished_conflict_is_written_whole() -> None:
    state = revealed(drawing()).state
    done = ConflictState(**{**state.__dict__, "phase": Phase.DONE})
    assert sealed(done) == state_to_data(done)


@pytest.mark.parametrize("phase", ["draw", "laying", "resolution"])
def test_a_restored_running_conflict_is_dealt_again_under_a_new_commitment(phase: str) -> None:
    state = drawing()
    if phase == "laying":
        state = step(state, Call(now=True)).state
    if phase == "resolution":
        state = revealed(state).state
    back = redealt(sealed(state), rng(99), "a-new-salt")
    assert back.phase == state.phase
    assert sorted(all_cards(back), key=str) == sorted(FULL_DECK, key=str)  # 54, each once
    for old, new in zip(state.participants, back.participants, strict=True):
        assert len(new.hand) == len(old.hand)
        assert (new.drew, new.folded, new.attributes) == (old.drew, old.folded, old.attributes)
        if phase == "resolution" and old.lay:
            assert new.lay == old.lay  # public since the reveal: kept
            assert set(new.lay) <= set(new.hand)
    assert len(back.deck.stock) == len(state.deck.stock)  # type: ignore[union-attr]
    assert back.salt == "a-new-salt"
    assert verify_commitment(back.order, back.salt, back.commitment)
    assert back.commitment != state.commitment


def test_no_file_can_stack_the_deck() -> None:
    """The probe: take the conflict's full state (what an older export held), move the aces and
    jokers to the top of the stock, put the best cards in Zeke's hand, recompute the commitment
    with the exported salt, restore — the cards it chose are not where it put them."""
    state = drawing()
    data = state_to_data(state)
    best = ["RJ", "BJ", "A♠", "A♥", "A♦", "A♣"]
    zeke_hand = data["participants"][0]["hand"]
    pool = [t for t in [*zeke_hand, *data["deck"]["stock"]] if t not in best]
    elsewhere = {t for p in data["participants"][1:] for t in p["hand"]}
    wanted = [t for t in best if t not in elsewhere]
    data["participants"][0]["hand"] = wanted[:2] + pool[: len(zeke_hand) - 2]
    data["deck"]["stock"] = wanted[2:] + pool[len(zeke_hand) - 2 :]
    forged = state_from_data(data)  # a whole deck: the forgery loads
    assert forged.participant(ZEKE).hand[:2] == tuple(parse_card(t) for t in wanted[:2])

    backs = [redealt(data, rng(seed), "s") for seed in range(20)]
    zeke_hands = {b.participant(ZEKE).hand for b in backs}
    tops = {b.deck.stock[:5] for b in backs}  # type: ignore[union-attr]
    assert len(zeke_hands) == 20  # a fresh shuffle every time
    assert len(tops) == 20
    assert forged.participant(ZEKE).hand not in zeke_hands
    assert forged.deck.stock not in {b.deck.stock for b in backs}  # type: ignore[union-attr]


def test_a_file_whose_cards_are_not_a_deck_is_refused() -> None:
    data = sealed(drawing())
    data["deck"]["stock"].append(HIDDEN)  # 55 cards
    with pytest.raises(ValueError, match="not a deck's 54"):
        redealt(data, rng(), "s")


def test_a_lay_that_is_not_in_its_hand_is_refused() -> None:
    data = sealed(revealed(drawing()).state)
    hand = next(h for h in data["participants"] if h["pid"] == JACK)
    other = next(h for h in data["participants"] if h["pid"] == POSSE)
    hand["lay"] = other["lay"]
    with pytest.raises(ValueError, match="each lay"):
        redealt(data, rng(), "s")


@pytest.mark.parametrize("bad", ["2026-13-45", [1, 2], ["hand", "luck"], "he"])
def test_the_loader_refuses_an_attribute_the_screens_cannot_read(bad: object) -> None:
    data = state_to_data(drawing())
    data["participants"][0]["attributes"] = bad
    with pytest.raises(BadState, match="attributes"):
        state_from_data(data)


@settings(max_examples=depth(40), deadline=None)
@given(seed=st.integers(0, 10**6), hidden=st.lists(st.sampled_from(sorted(TEXTS)), max_size=60))
def test_whatever_a_file_says_a_hidden_place_holds_comes_back_as_a_whole_deck(
    seed: int, hidden: list[str]
) -> None:
    data = sealed(drawing())
    places = [*(h["hand"] for h in data["participants"]), data["deck"]["stock"]]
    texts = iter(hidden)
    for cards in places:
        cards[:] = [next(texts, HIDDEN) for _ in cards]  # any card, twice or not at all
    back = redealt(data, rng(seed), "salt")
    assert sorted(all_cards(back), key=str) == sorted(FULL_DECK, key=str)
    assert verify_commitment(back.order, "salt", back.commitment)
