"""Cards, notation and the deck: rulings R1 (notation), R2 (suits) and R10 (the deck)."""

from __future__ import annotations

import pickle
import random

import pytest

from cards.deck import (
    BLACK_JOKER,
    FULL_DECK,
    RED_JOKER,
    Card,
    CardParseError,
    ConservationError,
    Deck,
    Suit,
    assert_conserved,
    commitment,
    format_cards,
    new_deck,
    parse_card,
    parse_cards,
    system_rng,
    verify_commitment,
)


def card(rank: int, suit: Suit) -> Card:
    return next(c for c in FULL_DECK if c.rank == rank and c.suit == suit)


# ---------------------------------------------------------------------------------------------
# R1 notation


@pytest.mark.parametrize(
    ("token", "rank", "suit"),
    [
        ("10♥", 10, Suit.HEARTS),
        ("TH", 10, Suit.HEARTS),
        ("th", 10, Suit.HEARTS),
        ("10h", 10, Suit.HEARTS),
        ("10H", 10, Suit.HEARTS),
        ("T♥", 10, Suit.HEARTS),
        ("A♠", 14, Suit.SPADES),
        ("as", 14, Suit.SPADES),
        ("AS", 14, Suit.SPADES),
        ("aS", 14, Suit.SPADES),
        ("2c", 2, Suit.CLUBS),
        ("2♣", 2, Suit.CLUBS),
        ("9D", 9, Suit.DIAMONDS),
        ("9♦", 9, Suit.DIAMONDS),
        ("J♣", 11, Suit.CLUBS),
        ("jd", 11, Suit.DIAMONDS),
        ("Q♥", 12, Suit.HEARTS),
        ("qs", 12, Suit.SPADES),
        ("K♠", 13, Suit.SPADES),
        ("kc", 13, Suit.CLUBS),
        # emoji presentation: the suit symbol followed by the variation selector U+FE0F
        ("A♠\ufe0f", 14, Suit.SPADES),
        ("10♥\ufe0f", 10, Suit.HEARTS),
        ("3♣\ufe0f", 3, Suit.CLUBS),
        ("7♦\ufe0f", 7, Suit.DIAMONDS),
    ],
)
def test_it_parses_every_r1_notation_of_a_natural_card(token: str, rank: int, suit: Suit) -> None:
    """R1: ranks 2-10, J, Q, K, A (T for 10); suits as symbols or C/D/H/S in any case."""
    parsed = parse_card(token)
    assert parsed.rank == rank
    assert parsed.suit == suit
    assert parsed.joker == 0
    assert parsed in FULL_DECK


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ("RJ", RED_JOKER),
        ("rj", RED_JOKER),
        ("Rj", RED_JOKER),
        ("BJ", BLACK_JOKER),
        ("bj", BLACK_JOKER),
    ],
)
def test_it_parses_the_r1_joker_notation_in_any_case(token: str, expected: Card) -> None:
    """R1: jokers are RJ (red) and BJ (black)."""
    assert parse_card(token) is expected


@pytest.mark.parametrize(
    ("token", "text"),
    [
        ("TH", "10♥"),
        ("th", "10♥"),
        ("10h", "10♥"),
        ("as", "A♠"),
        ("kc", "K♣"),
        ("qd", "Q♦"),
        ("jh", "J♥"),
        ("2s", "2♠"),
        ("A♠\ufe0f", "A♠"),
        ("rj", "RJ"),
        ("bj", "BJ"),
    ],
)
def test_it_always_writes_cards_with_the_r1_symbols(token: str, text: str) -> None:
    """R1: output always uses the symbols (10♥, A♠, RJ), whatever notation came in."""
    parsed = parse_card(token)
    assert parsed.text == text
    assert str(parsed) == text


def test_it_writes_every_card_of_the_deck_in_symbols_and_reads_it_back() -> None:
    """R1: every card's text is in symbol notation and parses to the same interned card."""
    for c in FULL_DECK:
        assert c.text[-1] in "♣♦♥♠" or c.text in ("RJ", "BJ")
        assert "T" not in c.text
        assert parse_card(c.text) is c


def test_it_parses_a_list_of_mixed_notations_in_order() -> None:
    """R1: a hand may mix notations, separated by spaces or commas."""
    cards = parse_cards("3♥ 3C, 7d;TH  rj\tbj,A♠\ufe0f")
    assert [c.text for c in cards] == ["3♥", "3♣", "7♦", "10♥", "RJ", "BJ", "A♠"]
    assert format_cards(cards) == "3♥ 3♣ 7♦ 10♥ RJ BJ A♠"


def test_it_parses_an_empty_text_as_no_cards() -> None:
    """R1: no tokens, no cards."""
    assert parse_cards("") == []
    assert parse_cards("   ") == []


@pytest.mark.parametrize(
    "token",
    ["1♥", "11h", "Z♠", "10", "A", "♠", "10x", "AJ", "J", "RJJ", "0s", "1s", "10♥♥", "xj", "🂡"],
)
def test_it_refuses_a_bad_token_and_names_it(token: str) -> None:
    """R1: anything outside the notation raises CardParseError naming the token."""
    with pytest.raises(CardParseError) as caught:
        parse_card(token)
    assert caught.value.token == token
    assert token in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_it_names_the_bad_token_inside_a_list() -> None:
    """R1: in a list, the error names the one bad token, not the whole text."""
    with pytest.raises(CardParseError) as caught:
        parse_cards("3♥ 3♣ 7x 7♣")
    assert caught.value.token == "7x"
    assert "7x" in str(caught.value)


@pytest.mark.parametrize("text", ["3♥ 3h", "TH 10♥", "rj RJ", "A♠ as", "Ks KS"])
def test_it_refuses_the_same_card_twice(text: str) -> None:
    """R1: a hand holding one card twice is a typing mistake; the error names the card."""
    with pytest.raises(CardParseError) as caught:
        parse_cards(text)
    assert caught.value.token == parse_cards(text.split()[0])[0].text


# ---------------------------------------------------------------------------------------------
# R2 suits


def test_it_orders_suits_clubs_diamonds_hearts_spades() -> None:
    """R2: lowest to highest, ♣ < ♦ < ♥ < ♠."""
    assert Suit.CLUBS < Suit.DIAMONDS < Suit.HEARTS < Suit.SPADES
    assert [s.symbol for s in sorted(Suit)] == ["♣", "♦", "♥", "♠"]
    assert [int(s) for s in sorted(Suit)] == [1, 2, 3, 4]


def test_it_maps_each_suit_to_its_r2_attribute() -> None:
    """R2: ♠ Hand, ♦ Eye, ♣ Guts, ♥ Heart."""
    assert Suit.SPADES.attribute == "hand"
    assert Suit.DIAMONDS.attribute == "eye"
    assert Suit.CLUBS.attribute == "guts"
    assert Suit.HEARTS.attribute == "heart"
    assert len({s.attribute for s in Suit}) == 4


def test_it_gives_jokers_no_suit_and_a_colour() -> None:
    """R5 (via R1): jokers have no suit of their own; rank 0, suit 0; red 2, black 1."""
    assert (RED_JOKER.rank, RED_JOKER.suit, RED_JOKER.joker) == (0, 0, 2)
    assert (BLACK_JOKER.rank, BLACK_JOKER.suit, BLACK_JOKER.joker) == (0, 0, 1)
    assert RED_JOKER.is_joker
    assert BLACK_JOKER.is_joker
    assert RED_JOKER.suit_enum is None


# ---------------------------------------------------------------------------------------------
# R10 the deck


def test_it_has_54_distinct_cards_in_a_fresh_deck() -> None:
    """R10: every conflict starts from a fresh, complete 54-card deck."""
    assert len(FULL_DECK) == 54
    assert len({(c.rank, c.suit, c.joker) for c in FULL_DECK}) == 54
    assert len({c.text for c in FULL_DECK}) == 54
    assert [c.index for c in FULL_DECK] == list(range(54))
    naturals = [c for c in FULL_DECK if not c.is_joker]
    assert {(c.rank, c.suit) for c in naturals} == {(r, s) for r in range(2, 15) for s in Suit}
    deck = new_deck(random.Random(1))
    assert len(deck) == 54
    assert deck.discards == ()
    assert set(deck.stock) == set(FULL_DECK)
    assert_conserved(deck)


def test_it_interns_cards_so_equal_means_identical() -> None:
    """R1/R10: cards compare by identity: parsing twice gives the very same object."""
    assert parse_card("QH") is parse_card("Q♥")
    assert card(12, Suit.HEARTS) is parse_card("qh")
    assert parse_card("QH") != parse_card("QD")


def test_it_keeps_cards_interned_through_pickling() -> None:
    """R10: cards compare by identity, so a pickled card (a Celery task, a cache) must come back as
    the very same interned card."""
    for c in FULL_DECK:
        assert pickle.loads(pickle.dumps(c)) is c
    deck = new_deck(random.Random(4))
    assert pickle.loads(pickle.dumps(deck)).stock == deck.stock


def test_it_shuffles_production_decks_with_the_systems_cryptographic_randomness() -> None:
    """R10: the production source is the operating system's (random.SystemRandom)."""
    rng = system_rng()
    assert isinstance(rng, random.SystemRandom)
    assert set(new_deck(rng).stock) == set(FULL_DECK)


def test_it_shuffles_reproducibly_with_a_seeded_rng() -> None:
    """R10: randomness is injected, so the same seed gives the same order."""
    assert new_deck(random.Random(42)).stock == new_deck(random.Random(42)).stock


def test_it_shuffles_differently_across_seeds() -> None:
    """R10: different seeds, different orders (and never the fresh order)."""
    orders = {new_deck(random.Random(seed)).stock for seed in range(20)}
    assert len(orders) == 20
    assert tuple(FULL_DECK) not in orders


def test_it_deals_from_the_top_of_the_stock() -> None:
    """R10: a draw takes the top cards (stock[0] first) and leaves the rest in order."""
    deck = new_deck(random.Random(7))
    result = deck.draw(5, random.Random(0))
    assert result.cards == deck.stock[:5]
    assert result.deck.stock == deck.stock[5:]
    assert result.events == ()
    assert_conserved(result.deck, result.cards)
    again = result.deck.draw(3, random.Random(0))
    assert again.cards == deck.stock[5:8]


def test_it_draws_nothing_for_zero_and_refuses_a_negative_count() -> None:
    """R10/R11: a deal of 0 cards is allowed; a negative one is a bug."""
    deck = new_deck(random.Random(3))
    result = deck.draw(0, random.Random(0))
    assert result.cards == ()
    assert result.deck.stock == deck.stock
    with pytest.raises(ValueError, match="negative"):
        deck.draw(-1, random.Random(0))


def test_it_puts_discards_on_the_discard_pile_not_the_stock() -> None:
    """R10: discards go to a discard pile."""
    deck = new_deck(random.Random(5))
    result = deck.draw(6, random.Random(0))
    hand = list(result.cards)
    thrown = hand[:2]
    after = result.deck.discard(thrown)
    assert after.discards == tuple(thrown)
    assert after.stock == result.deck.stock
    assert_conserved(after, hand[2:])


def test_it_reshuffles_the_discards_when_the_stock_runs_dry() -> None:
    """R10: when the deck runs out, the discard pile (never cards in hands) becomes the deck,
    shuffled, and the log says so."""
    deck = new_deck(random.Random(11))
    dealt = deck.draw(50, random.Random(0))
    hand = list(dealt.cards)
    discarded = hand[:10]
    kept = hand[10:]
    deck = dealt.deck.discard(discarded)
    assert len(deck.stock) == 4
    result = deck.draw(7, random.Random(99))
    assert result.cards[:4] == deck.stock  # the old stock first
    assert set(result.cards[4:]) <= set(discarded)  # then from the reshuffled discards
    assert not set(result.cards) & set(kept)  # never cards in hands
    assert result.deck.discards == ()
    assert len(result.deck.stock) == 7
    assert any("ran out" in event and "10 discards" in event for event in result.events)
    assert len(result.events) == 1
    assert_conserved(result.deck, kept, result.cards)


def test_it_reshuffles_the_discards_reproducibly_with_the_given_rng() -> None:
    """R10: the reshuffle uses the injected rng, so a seed reproduces it."""
    deck = Deck((), tuple(FULL_DECK[:20]))
    first = deck.draw(20, random.Random(8))
    second = deck.draw(20, random.Random(8))
    assert first.cards == second.cards
    assert set(first.cards) == set(FULL_DECK[:20])
    assert first.cards != tuple(FULL_DECK[:20])  # shuffled, not the pile's order


def test_it_stops_short_when_stock_and_discards_are_both_empty() -> None:
    """R10: if even the discard pile is empty the deal stops short, and the log says so."""
    deck = new_deck(random.Random(13))
    dealt = deck.draw(50, random.Random(0))
    result = dealt.deck.draw(9, random.Random(0))
    assert result.cards == dealt.deck.stock
    assert len(result.cards) == 4
    assert result.deck.stock == ()
    assert result.deck.discards == ()
    assert len(result.events) == 1
    assert "empty" in result.events[0]
    assert "4 of 9" in result.events[0]
    assert_conserved(result.deck, dealt.cards, result.cards)


def test_it_reshuffles_then_stops_short_when_even_the_discards_are_too_few() -> None:
    """R10: stock (2) + discards (3) < 8 wanted: both events, 5 cards dealt."""
    deck = Deck(tuple(FULL_DECK[:2]), tuple(FULL_DECK[2:5]))
    result = deck.draw(8, random.Random(1))
    assert len(result.cards) == 5
    assert set(result.cards) == set(FULL_DECK[:5])
    assert len(result.events) == 2
    assert "ran out" in result.events[0]
    assert "5 of 8" in result.events[1]


def test_it_never_loses_or_duplicates_a_card_through_random_draws_and_discards() -> None:
    """R10 conservation: stock + discards + every hand is always the 54 cards, each once."""
    for seed in range(30):
        rng = random.Random(seed)
        deck = new_deck(rng)
        hands: list[list[Card]] = [[] for _ in range(4)]
        for _ in range(200):
            who = rng.randrange(4)
            if rng.random() < 0.55:
                result = deck.draw(rng.randrange(0, 9), rng)
                deck = result.deck
                hands[who].extend(result.cards)
            elif hands[who]:
                k = rng.randrange(0, len(hands[who]) + 1)
                thrown = rng.sample(hands[who], k)
                hands[who] = [c for c in hands[who] if c not in thrown]
                deck = deck.discard(thrown)
            assert_conserved(deck, *hands)


def test_it_catches_a_lost_card() -> None:
    """R10 conservation: a card in no pile and no hand is reported by name."""
    deck = new_deck(random.Random(2))
    result = deck.draw(5, random.Random(0))
    with pytest.raises(ConservationError) as caught:
        assert_conserved(result.deck, result.cards[:4])
    assert result.cards[4].text in str(caught.value)
    assert isinstance(caught.value, AssertionError)


def test_it_catches_a_duplicated_card() -> None:
    """R10 conservation: a card in two places is reported by name."""
    deck = new_deck(random.Random(2))
    result = deck.draw(5, random.Random(0))
    with pytest.raises(ConservationError) as caught:
        assert_conserved(result.deck, result.cards, [result.cards[0]])
    assert result.cards[0].text in str(caught.value)
    with pytest.raises(ConservationError):
        assert_conserved(result.deck.discard([result.cards[1]]), result.cards)


def test_it_verifies_a_commitment_to_the_deck_order() -> None:
    """R10: the auditable shuffle: the digest of (salt, order) verifies; any change fails."""
    order = new_deck(random.Random(21)).stock
    digest = commitment(order, "pepper")
    assert verify_commitment(order, "pepper", digest)
    assert len(digest) == 64
    swapped = (order[1], order[0], *order[2:])
    assert not verify_commitment(swapped, "pepper", digest)
    assert not verify_commitment(order, "peppers", digest)
    assert not verify_commitment(order[:-1], "pepper", digest)
    assert commitment(order, "pepper") == digest  # deterministic
    assert commitment(order, "salt") != digest
