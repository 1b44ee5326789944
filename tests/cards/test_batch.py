"""The batch evaluator (issue 30) against the reference for single hands, ``hands.hand_key``:
the same R6 order, as one integer per hand, for hands of every size with jokers."""

from __future__ import annotations

import random
from itertools import combinations, islice

import numpy as np
import pytest

from cards import batch
from cards.deck import BLACK_JOKER, FULL_DECK, RED_JOKER, Card
from cards.hands import evaluate, hand_key
from tests.conftest import share

NATURALS = FULL_DECK[:52]


def random_hands(seed: int) -> list[list[Card]]:
    """Hands of 0 to 14 cards: plain draws from the 54, and draws with one or both jokers
    forced in (R5: they are where the evaluator has the most to get right)."""
    rng = random.Random(seed)
    hands: list[list[Card]] = []
    for size in range(15):
        for _ in range(400):
            hands.append(rng.sample(FULL_DECK, size))
        for jokers in ([RED_JOKER], [BLACK_JOKER], [RED_JOKER, BLACK_JOKER]):
            if size >= len(jokers):
                for _ in range(300):
                    hands.append(rng.sample(NATURALS, size - len(jokers)) + jokers)
    # Hands built to make the rarer lays: runs, suits, sets, with and without jokers.
    for _ in range(3000):
        suit = rng.randrange(4)
        low = rng.randrange(13)
        run = [NATURALS[13 * suit + (low + i) % 13] for i in range(rng.randint(3, 6))]
        rest = rng.sample([c for c in FULL_DECK if c not in run], rng.randint(0, 7))
        hands.append(run + rest)
    for _ in range(3000):
        rank = rng.randrange(13)
        kind = [NATURALS[13 * s + rank] for s in rng.sample(range(4), rng.randint(2, 4))]
        rest = rng.sample([c for c in FULL_DECK if c not in kind], rng.randint(0, 8))
        hands.append(kind + rest)
    return hands


@pytest.mark.parametrize("seed", [1, 2])
def test_it_equals_the_reference_on_random_hands_of_every_size(seed: int) -> None:
    hands = random_hands(seed)
    keys = batch.hand_keys(batch.masks_of(hands))
    wrong = [
        (hand, hand_key(hand), batch.unpack_key(int(key)))
        for hand, key in zip(hands, keys, strict=True)
        if int(key) != batch.pack_key(hand_key(hand))
    ]
    assert wrong[:5] == []


def test_its_integers_compare_as_the_hands_do_R6() -> None:
    rng = random.Random(3)
    hands = [rng.sample(FULL_DECK, rng.randint(0, 12)) for _ in range(3000)]
    keys = batch.hand_keys(batch.masks_of(hands))
    for i in range(len(hands) - 1):
        a, b = evaluate(hands[i]), evaluate(hands[i + 1])
        assert (keys[i] < keys[i + 1]) == (a < b)
        assert (keys[i] == keys[i + 1]) == (a.key == b.key)


def test_it_gives_each_hand_its_category() -> None:
    hands = random_hands(4)[::7]
    result = batch.evaluate_hands(hands)
    assert result.categories.tolist() == [evaluate(h).category.order for h in hands]
    assert set(result.categories.tolist()) == set(range(11))  # every category comes up


def test_a_key_packs_and_unpacks() -> None:
    for hand in random_hands(5)[::50]:
        key = hand_key(hand)
        assert batch.unpack_key(batch.pack_key(key)) == key


def test_it_reads_hands_given_as_card_indices() -> None:
    rng = random.Random(6)
    hands = [rng.sample(FULL_DECK, rng.randint(0, 9)) for _ in range(200)]
    indices = np.full((len(hands), 9), batch.NO_CARD)
    for row, hand in zip(indices, hands, strict=True):
        row[: len(hand)] = [c.index for c in hand]
    assert np.array_equal(batch.masks_from_indices(indices), batch.masks_of(hands))


def test_it_takes_no_hands_and_the_empty_hand() -> None:
    assert batch.hand_keys([]).shape == (0,)
    assert batch.hand_keys([0]).tolist() == [batch.pack_key(hand_key([]))] == [0]


def test_it_keeps_no_memory_of_hands_seen() -> None:
    """The speed never depends on having seen a hand before: nothing is remembered between
    calls (the tables are built once at import and are read-only)."""

    def remembered() -> dict[str, object]:
        return {
            name: value
            for name, value in vars(batch).items()
            if isinstance(value, dict | list | set) and not name.startswith("__")
        }

    assert remembered() == {}
    batch.hand_keys(batch.masks_of(random_hands(7)[:2000]))
    assert remembered() == {}
    tables = [v for v in vars(batch).values() if isinstance(v, np.ndarray)]
    assert tables
    assert not any(t.flags.writeable for t in tables)


@pytest.mark.slow
def test_it_equals_the_reference_on_every_five_card_hand() -> None:
    """All 3,162,510 five-card hands of the 54 cards, in chunks (``make test``'s dev profile:
    every tenth; CI all of them)."""
    bits = [1 << c.index for c in FULL_DECK]
    step = round(1 / share())
    hands = islice(combinations(FULL_DECK, 5), 0, None, step)
    checked = 0
    while chunk := list(islice(hands, 200_000)):
        masks = np.array([sum(bits[c.index] for c in hand) for hand in chunk], dtype=np.int64)
        keys = batch.hand_keys(masks).tolist()
        expected = [batch.pack_key(hand_key(hand)) for hand in chunk]
        wrong = [h for h, k, e in zip(chunk, keys, expected, strict=True) if k != e]
        assert wrong[:5] == []
        checked += len(chunk)
    assert checked == -(-3_162_510 // step)
