"""The conflict state machine (conflicts/engine/conflict.py) played through the seed's own
scenes: the posse ambush (a 5-card stud), the saloon (a 3-card stud), the bank job (a 7-card stud
with Stakes of two chips), Black Jack's full house or two pair keeping the K♠, Luke shot at with
5♥ 5♣ 5♦ (and with a joker), Zeke's Devil for and against him, narration bids, folds and the
Road to Hell.

Every test names the ruling it checks (docs/rulings.md). Every move goes through the kit's
``step`` or ``play``, which check after each move that the 54 cards are all there exactly once
(R10).
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cards.deck import FULL_DECK, verify_commitment
from cards.hands import evaluate
from conflicts.engine.conflict import (
    ATTRIBUTES,
    STUD_SIZES,
    Allocate,
    Approve,
    AwardExtraCard,
    AwardRedraw,
    Call,
    ChipMove,
    ChooseLay,
    CloseBids,
    ConflictState,
    Deal,
    DealerFold,
    Draw,
    Finish,
    Fold,
    IllegalMove,
    Kind,
    Outcome,
    OverrideDifficulty,
    Owed,
    Phase,
    PlaceBid,
    Propose,
    Restore,
    Reveal,
    SpendExtraCard,
    attribute_losses,
    deal_size,
    default_allocation,
    new_conflict,
    placeable,
    recovery_stud_size,
    recovery_won,
    winner_bonus_pids,
)
from tests.conflicts.engine.conflict_kit import (
    BANG,
    JACK,
    LUKE,
    POSSE,
    PURSES,
    RIVAL,
    ZEKE,
    approved,
    approved_knack,
    black_jack,
    cards,
    dealt,
    luke,
    mccreedy,
    play,
    refused,
    revealed,
    rival,
    set_hands,
    stack,
    step,
    stud,
    zeke,
)


def sized(p, attributes=("hand", "eye"), *, trait=False, devil=0, **more) -> int:
    """deal_size of a participant approved this way."""
    return deal_size(replace(p, attributes=attributes, trait=trait, devil=devil, **more))[0]


def finished(state: ConflictState) -> Outcome:
    """Every beaten character takes the default allocation (R9), then the conflict finishes."""
    moves = [Allocate(o.pid, default_allocation(o, state.participant(o.pid).currents))
             for o in state.owed if o.allocation is None]  # fmt: skip
    state, _ = play(state, moves)
    return step(state, Finish())


def settle(state: ConflictState) -> tuple[ConflictState, tuple[ChipMove, ...]]:
    outcome = finished(state)
    return outcome.state, outcome.chips


# =============================================================================================
# Sizing the Deal (R11, R12, R17)


def test_it_deals_zeke_his_two_attributes_r11() -> None:
    """R11: the two attributes the Dealer approves, at their current values."""
    assert sized(zeke(), ("hand", "eye")) == 8
    assert sized(zeke(), ("heart", "guts")) == 5


def test_it_takes_two_cards_from_zeke_at_the_saloon_when_his_devil_is_against_him_r11() -> None:
    """R11, the seed: Zeke, a mean drunk (Devil 2), sweet-talking Sally after a pint of
    whiskey: the Dealer deals two fewer cards (Heart 2 + Eye 3 − 2 = 3)."""
    count, lines = deal_size(replace(zeke(), attributes=("heart", "eye"), devil=-1))
    assert count == 3
    assert [(line.label, line.amount) for line in lines] == [
        ("Heart", 2), ("Eye", 3), ("Devil in play, against", -2),
    ]  # fmt: skip


def test_it_gives_zeke_two_more_cards_crossing_the_saloon_brawl_r11() -> None:
    """R11, the seed: a little liquid courage: the Devil for him adds its rating (Guts 3 +
    Hand 5 + 2 = 10)."""
    count, lines = deal_size(replace(zeke(), attributes=("guts", "hand"), devil=1))
    assert count == 10
    assert ("Devil in play, for", 2) in [(line.label, line.amount) for line in lines]


def test_it_sizes_the_deal_at_approval_and_deals_exactly_that_r11() -> None:
    """R11: the Approve event states the size and the Deal deals it."""
    state = new_conflict([zeke(), stud(5)])
    outcome = step(state, Approve(ZEKE, ("heart", "eye"), False, -1))
    assert outcome.events == ("The Dealer sets Zeke Munroe's Deal at 3 cards.",)
    state = step(outcome.state, Deal("s"), 3).state
    assert len(state.participant(ZEKE).hand) == 3
    assert len(state.participant(POSSE).hand) == 5


def test_it_adds_one_card_for_a_trait_at_most_r11() -> None:
    """R11: +1 if the goal plays to one of the two traits, at most +1 (a flag, not a count)."""
    assert sized(zeke(), trait=True) == sized(zeke()) + 1
    _, lines = deal_size(replace(zeke(), attributes=("hand", "eye"), trait=True))
    assert [line.amount for line in lines if line.label == "Trait"] == [1]


def test_it_sells_one_extra_card_per_hand_for_a_chip_r11_r15() -> None:
    """R11/R15: a player spends one chip for an extra card, once per hand."""
    state = approved(new_conflict([zeke(), stud(5)]), {ZEKE: (("hand", "eye"), False, 0)})
    outcome = step(state, SpendExtraCard(ZEKE))
    assert outcome.chips == (ChipMove(ZEKE, -1, "extra_card"),)
    assert deal_size(outcome.state.participant(ZEKE))[0] == 9
    assert "once per hand" in refused(outcome.state, SpendExtraCard(ZEKE))
    state = step(outcome.state, Deal("s")).state
    assert len(state.participant(ZEKE).hand) == 9


def test_it_lets_only_players_spend_chips_for_extra_cards_r15() -> None:
    """R15: the Dealer awards chips for the Dealer's hands; it never spends them."""
    state = new_conflict([luke(), rival(), stud(3, pid="hazard", name="Rattlers")])
    refused(state, SpendExtraCard(RIVAL))
    refused(state, SpendExtraCard("hazard"))


def test_it_pays_every_player_still_in_for_a_dealer_extra_card_r11_r15() -> None:
    """R11/R15: each Dealer award of an extra card gives one chip to every player in the
    conflict (not to one who folded) and one card to that Dealer hand."""
    state = new_conflict([black_jack(), luke(), mccreedy(), stud(5)])
    state = step(state, Fold(BANG)).state
    outcome = step(state, AwardExtraCard(POSSE))
    assert outcome.chips == (ChipMove(JACK, 1, "dealer_award"), ChipMove(LUKE, 1, "dealer_award"))
    outcome = step(outcome.state, AwardExtraCard(POSSE))
    assert len(outcome.chips) == 2
    assert deal_size(outcome.state.participant(POSSE))[0] == 7
    assert "Dealer's own hands" in refused(outcome.state, AwardExtraCard(JACK))


def test_it_lets_the_dealer_award_extra_cards_to_an_important_npc_r12_r15() -> None:
    """R12/R15: an important NPC's hand is a Dealer hand too."""
    state = approved(new_conflict([luke(), rival()]), {
        LUKE: (("hand", "eye"), False, 0), RIVAL: (("hand", "eye"), False, 0),
    })  # fmt: skip
    outcome = step(state, AwardExtraCard(RIVAL))
    assert outcome.chips == (ChipMove(LUKE, 1, "dealer_award"),)
    assert deal_size(outcome.state.participant(RIVAL))[0] == 8


def test_it_never_deals_fewer_than_zero_cards_r11() -> None:
    """R11: never fewer than 0, even with a Devil of 3 against two attributes at 1."""
    weak = zeke(currents={"hand": 1, "eye": 1, "guts": 1, "heart": 1}, devil_rating=3)
    assert sized(weak, devil=-1) == 0
    state = approved(new_conflict([weak, stud(3)]), {ZEKE: (("hand", "eye"), False, -1)})
    state = step(state, Deal("s")).state
    assert state.participant(ZEKE).hand == ()


def test_it_adds_the_winner_bonus_only_when_the_house_rule_is_on_r11_r20() -> None:
    """R11 house rule / R20: dealing again, the winner of the last hand gets an extra card."""
    state = dealt([black_jack(), luke(), stud(5)])
    state = set_hands(
        state, {JACK: "AS AH AD KC KD", LUKE: "2C 3D 5H 7S 9C", POSSE: "4C 4D 8H JS QC"}
    )
    done, _ = settle(revealed(state).state)
    assert done.winner == JACK
    assert winner_bonus_pids(done, house_rule=True) == (JACK,)
    assert winner_bonus_pids(done, house_rule=False) == ()


def test_it_never_gives_the_winner_bonus_to_the_dealers_stud_r11_r12_r20() -> None:
    """R11's house rule rewards the winner's character; a stud hand's size is the Dealer's
    call (R12), so a stud that won the last hand deals again at its own size."""
    state = dealt([black_jack(), luke(), stud(5)])
    state = set_hands(
        state, {JACK: "2C 3D 5H 7S 9C", LUKE: "2D 3H 6S 8C TD", POSSE: "AS AH AD KC KD"}
    )
    done, _ = settle(revealed(state).state)
    assert done.winner == POSSE
    assert winner_bonus_pids(done, house_rule=True) == ()


@pytest.mark.parametrize("size", STUD_SIZES)
def test_it_deals_a_stud_hand_of_three_five_or_seven_r12(size: int) -> None:
    """R12: the Dealer's stud hand is 3, 5 or 7 cards."""
    state = dealt([black_jack(), stud(size)])
    assert len(state.participant(POSSE).hand) == size


@pytest.mark.parametrize("size", [0, 1, 2, 4, 6, 8, -3])
def test_it_refuses_any_other_stud_size_r12(size: int) -> None:
    """R12: only 3, 5 or 7."""
    with pytest.raises(IllegalMove, match="3, 5 or 7"):
        new_conflict([black_jack(), stud(size)])


def test_it_lets_no_one_make_choices_for_a_stud_hand_r12() -> None:
    """R12: a stud hand has no attributes, traits or Devil to approve."""
    state = new_conflict([black_jack(), stud(5)])
    assert "stud hand" in refused(state, Approve(POSSE, ("hand", "eye")))
    assert "stud hand" in refused(state, Propose(POSSE, ("hand", "eye")))


def test_it_replaces_a_zero_attribute_with_the_devil_rating_r17() -> None:
    """R17: on the Road to Hell the Devil rating stands in for a zero attribute in the Deal."""
    broken = zeke(currents={"hand": 5, "eye": 3, "guts": 0, "heart": 2})
    assert sized(broken, ("guts", "hand")) == 2 + 5
    p = replace(broken, attributes=("guts", "hand"))
    assert p.last_stand
    assert p.zero_attributes == ("guts",)
    # A conflict not using the zero attribute is no last stand.
    q = replace(broken, attributes=("hand", "eye"))
    assert not q.last_stand
    assert sized(broken, ("hand", "eye")) == 8


def test_it_deals_twice_the_devil_rating_when_both_attributes_are_zero_r17() -> None:
    """R17: both chosen attributes at 0: twice the Devil rating."""
    broken = zeke(currents={"hand": 5, "eye": 3, "guts": 0, "heart": 0})
    assert sized(broken, ("guts", "heart")) == 4
    assert sized(broken, ("guts", "heart"), devil=1) == 6  # and the Devil in play still counts


def test_it_proposes_and_approves_separately_r11() -> None:
    """R11: the player proposes, the Dealer approves (and may choose differently)."""
    state = new_conflict([zeke(), stud(5)])
    state = step(state, Propose(ZEKE, ("hand", "guts"), True)).state
    assert state.participant(ZEKE).proposal == (("hand", "guts"), True)
    assert state.participant(ZEKE).attributes is None
    assert "not set the Deal" in refused(state, Deal("s"))
    state = step(state, Approve(ZEKE, ("eye", "heart"))).state
    assert state.participant(ZEKE).attributes == ("eye", "heart")
    assert not state.participant(ZEKE).trait


def test_it_refuses_a_devil_for_a_character_without_one_r11() -> None:
    """R11: only a character with a Devil rating can have it in play."""
    plain = rival(devil_rating=0, kind=Kind.NPC)
    state = new_conflict([luke(), plain])
    assert "no Devil" in refused(state, Approve(RIVAL, ("hand", "eye"), False, 1))
    assert "for, against" in refused(state, Approve(LUKE, ("hand", "eye"), False, 2))


# =============================================================================================
# The Deal (R10)


def test_it_starts_every_conflict_from_a_fresh_full_deck_r10() -> None:
    """R10: the shuffled order holds all 54 cards, and a continued fight shuffles anew."""
    state = dealt([black_jack(), luke(), stud(5)], seed=11)
    assert sorted(state.order, key=lambda c: c.index) == list(FULL_DECK)
    again = new_conflict([black_jack(), luke(), stud(5)])  # R20: dealt again, no deck yet
    assert again.deck is None
    assert all(not p.hand for p in again.participants)
    redealt = dealt([black_jack(), luke(), stud(5)], seed=12)
    assert sorted(redealt.order, key=lambda c: c.index) == list(FULL_DECK)
    assert redealt.order != state.order
    assert redealt.deck is not None
    assert redealt.deck.discards == ()


def test_it_commits_to_the_shuffle_r10() -> None:
    """R10 (auditable shuffle): SHA-256 of salt + order is published at the Deal; the salt is
    revealed at the end and the commitment checks out."""
    state = dealt([black_jack(), luke(), stud(5)], seed=5, salt="0123abcd")
    assert verify_commitment(state.order, state.salt, state.commitment)
    assert not verify_commitment(state.order, "other", state.commitment)
    assert not verify_commitment(state.order[::-1], state.salt, state.commitment)
    assert "0123abcd" not in " ".join(step(state, Call(now=True)).events)
    final = finished(revealed(state).state)
    assert "0123abcd" in final.events[-1]
    assert verify_commitment(final.state.order, final.state.salt, final.state.commitment)


def test_it_deals_round_robin_one_card_at_a_time_r10() -> None:
    """R10/R11: round by round, one card to each hand in seat order, as at a real table."""
    small = black_jack(currents={"hand": 1, "eye": 2, "guts": 1, "heart": 1})
    mid = luke(currents={"hand": 2, "eye": 3, "guts": 1, "heart": 1})
    state = dealt([small, mid, stud(3)], seed=8)
    o = state.order
    assert state.participant(JACK).hand == (o[0], o[3], o[6])
    assert state.participant(LUKE).hand == (o[1], o[4], o[7], o[9], o[10])
    assert state.participant(POSSE).hand == (o[2], o[5], o[8])
    assert state.deck is not None
    assert state.deck.stock == o[11:]


def _crowd() -> list:
    """The seed's four outlaws at their biggest, and a 7-card stud: 56 cards wanted."""
    return [zeke(), black_jack(), luke(), mccreedy(), stud(7)]


def _crowded_deal(seed: int = 2) -> tuple[ConflictState, tuple[str, ...]]:
    state = new_conflict(_crowd())
    state, _ = play(state, [
        Approve(ZEKE, ("hand", "eye"), True, 1),  # 5 + 3 + 1 + 2 = 11, +1 chip = 12
        Approve(JACK, ("hand", "eye"), True, 1),  # 4 + 4 + 1 + 1 = 10, +1 chip = 11
        Approve(LUKE, ("hand", "heart"), True, 1),  # 3 + 4 + 1 + 3 = 11, +1 chip = 12
        Approve(BANG, ("hand", "guts"), True, 1),  # 5 + 4 + 1 + 2 = 12, +1 chip = 13
        SpendExtraCard(ZEKE), SpendExtraCard(JACK), SpendExtraCard(LUKE), SpendExtraCard(BANG),
        AwardExtraCard(POSSE),  # 7 + 1 = 8
    ])  # fmt: skip
    wanted = [deal_size(p)[0] for p in state.participants]
    assert wanted == [12, 11, 12, 13, 8]
    assert sum(wanted) == 56
    outcome = step(state, Deal("s"), seed)
    return outcome.state, outcome.events


def test_it_stops_the_deal_short_when_the_deck_runs_out_and_says_so_r10() -> None:
    """R10: a fresh deck has no discards to reshuffle, so a 56-card Deal stops at 54, and the
    log says so once, with the count."""
    state, events = _crowded_deal()
    sizes = {p.pid: len(p.hand) for p in state.participants}
    # Round robin: everyone gets 8; then the four outlaws 3 more each (52); in round 12 Zeke and
    # Luke take the last two cards and McCreedy is two short.
    assert sizes == {ZEKE: 12, JACK: 11, LUKE: 12, BANG: 11, POSSE: 8}
    assert state.deck is not None
    assert state.deck.stock == ()
    assert state.deck.discards == ()
    short = [e for e in events if "empty" in e or "short" in e or "ran out" in e]
    assert len(short) == 1, events
    assert "54" in short[0], short
    assert "56" in short[0], short


def test_it_reshuffles_the_discards_into_a_new_deck_when_the_stock_runs_out_r10() -> None:
    """R10: during the Draw, an empty stock takes the discard pile (never cards in hands),
    shuffled; the log says so."""
    state, _ = _crowded_deal()
    zeke_hand = state.participant(ZEKE).hand
    outcome = step(approved_knack(state, ZEKE, 2), Draw(ZEKE, zeke_hand[:2]), 4)
    assert any("discards shuffled into a new deck" in e for e in outcome.events)
    after = outcome.state
    assert len(after.participant(ZEKE).hand) == 12
    assert after.deck is not None
    assert after.deck.discards == ()
    # Every other hand is untouched by the reshuffle.
    for pid in (JACK, LUKE, BANG, POSSE):
        assert after.participant(pid).hand == state.participant(pid).hand
    outcome = step(after, AwardRedraw(POSSE, after.participant(POSSE).hand[0]), 5)
    assert any("shuffled into a new deck" in e for e in outcome.events)
    assert len(outcome.state.participant(POSSE).hand) == 8


# =============================================================================================
# The Draw (R13)


def _draw_table(seed: int = 3) -> ConflictState:
    return dealt([zeke(), black_jack(), stud(5)], seed=seed)


def test_it_lets_a_player_discard_up_to_the_knack_rating_r13() -> None:
    """R13: up to the rating of one relevant knack."""
    state = _draw_table()
    hand = state.participant(ZEKE).hand
    assert "at most 2" in refused(approved_knack(state, ZEKE, 2), Draw(ZEKE, hand[:3]))
    outcome = step(approved_knack(state, ZEKE, 2), Draw(ZEKE, hand[:2]))
    assert outcome.chips == ()
    assert len(outcome.state.participant(ZEKE).hand) == len(hand)


def test_it_deals_all_replacements_at_once_from_the_top_r13() -> None:
    """R13: discards are chosen, then all the replacements are dealt at once; the discards go
    to the discard pile."""
    state = _draw_table()
    assert state.deck is not None
    hand = state.participant(ZEKE).hand
    top = state.deck.stock[:3]
    after = step(approved_knack(state, ZEKE, 3), Draw(ZEKE, hand[1:4])).state
    p = after.participant(ZEKE)
    assert p.hand == (hand[0], *hand[4:], *top)
    assert p.discarded == hand[1:4]
    assert after.deck is not None
    assert after.deck.discards == hand[1:4]
    assert after.deck.stock == state.deck.stock[3:]


def test_it_reproduces_black_jacks_draw_from_the_seed_r13() -> None:
    """R13, the seed: dealt 3♥ 3♣ 7♦ 7♣ 9♦ Q♦, Shootin' (2) discards the 9♦ and Q♦ and draws
    the 3♦ and K♠: a full house."""
    state = set_hands(_draw_table(), {JACK: "3H 3C 7D 7C 9D QD"})
    state = stack(state, "3D KS")
    after = step(approved_knack(state, JACK, 2), Draw(JACK, cards("9D QD"))).state
    assert after.participant(JACK).hand == cards("3H 3C 7D 7C 3D KS")
    assert evaluate(after.participant(JACK).hand).category.value == "full_house"


def test_it_sells_one_more_discard_for_a_chip_charged_only_when_used_r13_r15() -> None:
    """R13/R15: +1 with a chip; the chip is spent only if the extra discard is used."""
    state = _draw_table()
    hand = state.participant(ZEKE).hand
    unused = step(approved_knack(state, ZEKE, 2), Draw(ZEKE, hand[:2], extra_chip=True))
    assert unused.chips == ()
    assert not unused.state.participant(ZEKE).extra_draw
    used = step(approved_knack(state, ZEKE, 2), Draw(ZEKE, hand[:3], extra_chip=True))
    assert used.chips == (ChipMove(ZEKE, -1, "extra_draw"),)
    assert used.state.participant(ZEKE).extra_draw
    assert "at most 3" in refused(
        approved_knack(state, ZEKE, 2), Draw(ZEKE, hand[:4], extra_chip=True)
    )


def test_it_lets_a_player_without_a_knack_draw_one_for_a_chip_r13() -> None:
    """R13, the seed: without a relevant knack no draw, unless a chip buys one."""
    state = _draw_table()
    hand = state.participant(ZEKE).hand
    assert "at most 0" in refused(state, Draw(ZEKE, hand[:1]))
    outcome = step(state, Draw(ZEKE, hand[:1], extra_chip=True))
    assert outcome.chips == (ChipMove(ZEKE, -1, "extra_draw"),)


def test_it_lets_each_hand_draw_once_r13() -> None:
    """R13/R15: one Draw per hand (so the extra-draw chip is once per hand too)."""
    state = _draw_table()
    hand = state.participant(ZEKE).hand
    after = step(approved_knack(state, ZEKE, 2), Draw(ZEKE, hand[:3], extra_chip=True)).state
    again = after.participant(ZEKE).hand
    assert "already drawn" in refused(approved_knack(after, ZEKE, 2), Draw(ZEKE, again[:1]))
    assert "already drawn" in refused(approved_knack(after, ZEKE, 2), Draw(ZEKE, ()))
    # Standing pat is a Draw of nothing.
    stood = step(state, Draw(ZEKE, ())).state
    assert stood.participant(ZEKE).drew
    assert "already drawn" in refused(approved_knack(stood, ZEKE, 1), Draw(ZEKE, hand[:1]))


def test_it_lets_a_player_discard_only_their_own_cards_r13() -> None:
    """R13: a player discards from their own hand, never another's or the deck's."""
    state = _draw_table()
    assert state.deck is not None
    jack_card = state.participant(JACK).hand[0]
    stock_card = state.deck.stock[0]
    assert "own hand" in refused(approved_knack(state, ZEKE, 2), Draw(ZEKE, (jack_card,)))
    assert "own hand" in refused(approved_knack(state, ZEKE, 2), Draw(ZEKE, (stock_card,)))


def test_it_counts_a_repeated_discard_once_r13() -> None:
    """R13: naming a card twice discards it once (and counts once against the limit)."""
    state = _draw_table()
    card = state.participant(ZEKE).hand[0]
    after = step(approved_knack(state, ZEKE, 1), Draw(ZEKE, (card, card))).state
    assert after.participant(ZEKE).discarded == (card,)


def test_it_adds_the_devil_rating_to_the_draw_on_the_road_to_hell_r13_r17() -> None:
    """R13/R17: a character on their last stand may redraw extra cards equal to the Devil."""
    broken = zeke(currents={"hand": 5, "eye": 3, "guts": 0, "heart": 2})
    state = dealt([broken, stud(5)], {ZEKE: (("guts", "hand"), False, 0)})
    hand = state.participant(ZEKE).hand
    assert len(hand) == 7
    assert "at most 3" in refused(approved_knack(state, ZEKE, 1), Draw(ZEKE, hand[:4]))
    step(approved_knack(state, ZEKE, 1), Draw(ZEKE, hand[:3]))
    with_chip = step(approved_knack(state, ZEKE, 1), Draw(ZEKE, hand[:4], extra_chip=True))
    assert with_chip.chips == (ChipMove(ZEKE, -1, "extra_draw"),)
    # Not on the Road to Hell in a conflict that does not use the zero attribute.
    fine = dealt([broken, stud(5)], {ZEKE: (("hand", "eye"), False, 0)})
    fhand = fine.participant(ZEKE).hand
    assert "at most 1" in refused(approved_knack(fine, ZEKE, 1), Draw(ZEKE, fhand[:2]))


def test_it_refuses_a_draw_to_a_stud_hand_r12_r13() -> None:
    """R12: a stud hand does not draw."""
    state = _draw_table()
    card = state.participant(POSSE).hand[0]
    assert "stud hand" in refused(state, Draw(POSSE, (card,)))


def test_it_redraws_a_dealer_card_for_a_chip_to_every_player_r12_r15() -> None:
    """R12/R15: the Dealer may award one chip to every player to discard and redraw one card in
    a Dealer hand, stud hands included; never in a player's hand."""
    state = dealt([zeke(), black_jack(), mccreedy(), stud(5)], seed=9)
    state = step(state, Fold(BANG)).state
    assert state.deck is not None
    old = state.participant(POSSE).hand
    top = state.deck.stock[0]
    outcome = step(state, AwardRedraw(POSSE, old[2]))
    assert outcome.chips == (ChipMove(ZEKE, 1, "dealer_award"), ChipMove(JACK, 1, "dealer_award"))
    assert outcome.state.participant(POSSE).hand == (*old[:2], *old[3:], top)
    assert outcome.state.participant(POSSE).discarded == (old[2],)
    assert "not in that hand" in refused(outcome.state, AwardRedraw(POSSE, old[2]))
    assert "Dealer's own hands" in refused(
        state, AwardRedraw(ZEKE, state.participant(ZEKE).hand[0])
    )


def test_it_draws_an_important_npc_like_a_player_but_without_chips_r12() -> None:
    """R12: an important NPC is dealt and drawn like a player; only players spend chips."""
    state = dealt([luke(), rival()])
    hand = state.participant(RIVAL).hand
    after = step(approved_knack(state, RIVAL, 2), Draw(RIVAL, hand[:2]))
    assert after.chips == ()
    assert "Only players" in refused(
        approved_knack(state, RIVAL, 2), Draw(RIVAL, hand[:3], extra_chip=True)
    )


# =============================================================================================
# Folds (R19, R15)


def test_it_charges_a_chip_for_a_fold_before_the_call_r19() -> None:
    """R19: a player folds by spending a chip, before the Call, in the sizing or the Draw."""
    state = new_conflict([black_jack(), luke(), stud(5)])
    outcome = step(state, Fold(LUKE))
    assert outcome.chips == (ChipMove(LUKE, -1, "fold"),)
    assert outcome.state.phase == Phase.SIZING
    drawn = dealt([black_jack(), luke(), stud(5)])
    outcome = step(drawn, Fold(LUKE))
    assert outcome.chips == (ChipMove(LUKE, -1, "fold"),)
    assert outcome.state.participant(LUKE).folded
    assert "already folded" in refused(outcome.state, Fold(LUKE))
    called = step(drawn, Call(now=True)).state
    assert "called" in refused(called, Fold(LUKE))


def test_it_lets_only_players_fold_a_hand_r15_r19() -> None:
    """R15/R19: the Dealer folds the whole conflict, never one hand."""
    state = dealt([luke(), rival(), stud(3, pid="hazard", name="Rattlers")])
    refused(state, Fold(RIVAL))
    refused(state, Fold("hazard"))


def test_it_leaves_the_conflict_unresolved_when_every_player_folds_r15_r19() -> None:
    """R15/R19: all player characters fold: the conflict stays unresolved."""
    state = dealt([black_jack(), luke(), rival()])
    state = step(state, Fold(JACK)).state
    assert state.phase == Phase.DRAW
    outcome = step(state, Fold(LUKE))
    assert outcome.state.phase == Phase.FOLDED
    assert outcome.state.winner is None
    assert outcome.state.owed == ()
    assert "folded" in refused(outcome.state, Call(now=True))
    assert "folded" in refused(outcome.state, Finish())
    assert recovery_won(outcome.state) is False
    assert attribute_losses(outcome.state) == {}
    with pytest.raises(IllegalMove):
        winner_bonus_pids(outcome.state, house_rule=True)  # no dealing again (R20)


def test_it_awards_every_player_a_chip_when_the_dealer_folds_r15() -> None:
    """R15: the Dealer folds by awarding each player in the conflict a chip; it ends unresolved:
    no Difficulty, no Stakes, for anyone (important NPCs included)."""
    state = dealt([black_jack(), luke(), mccreedy(), rival()], stakes=2)
    state = step(state, Fold(BANG)).state
    outcome = step(state, DealerFold())
    assert outcome.chips == (ChipMove(JACK, 1, "dealer_award"), ChipMove(LUKE, 1, "dealer_award"))
    assert outcome.state.phase == Phase.FOLDED
    assert outcome.state.owed == ()
    assert outcome.state.winner is None
    for move in (Call(now=True), Reveal(), Finish(), CloseBids(held=PURSES)):
        refused(outcome.state, move)
    # Also before the Deal.
    early = step(new_conflict([black_jack(), stud(5)]), DealerFold())
    assert early.state.phase == Phase.FOLDED
    assert early.chips == (ChipMove(JACK, 1, "dealer_award"),)


def test_it_refuses_the_dealer_fold_after_the_call_r15_r19() -> None:
    """R19/R15: folds come before the Call."""
    state = step(dealt([black_jack(), stud(5)]), Call(now=True)).state
    refused(state, DealerFold())


def test_it_spares_a_folded_hand_difficulty_and_stakes_r19() -> None:
    """R19: a folded character takes no Difficulty and earns no Stakes, even on the winning
    side; the bank job's Stakes of two go to the others."""
    state = dealt([black_jack(), luke(), mccreedy(), stud(7)], stakes=2)
    state = set_hands(state, {
        JACK: "AS AH AD KC KD", LUKE: "2C 3D 5H 7S 9C", BANG: "QS QD 4C 6H 8S",
        POSSE: "JS JH 2D 4D 6D 8D 10C",
    })  # fmt: skip
    state = step(state, Fold(LUKE)).state
    resolved = revealed(state).state
    assert resolved.winner == JACK
    assert LUKE not in {o.pid for o in resolved.owed}
    with pytest.raises(IllegalMove):
        step(resolved, OverrideDifficulty(LUKE, POSSE, "the narrator says the teller shot him"))
    _, chips = settle(resolved)
    assert chips == (ChipMove(JACK, 2, "stakes"), ChipMove(BANG, 2, "stakes"))


def test_it_refuses_a_folded_hand_every_later_choice_r19() -> None:
    """R19: a folded hand is out: no Draw, no lay, no bid."""
    state = dealt([black_jack(), luke(), stud(5)])
    state = step(state, Fold(LUKE)).state
    card = state.participant(LUKE).hand[:1] if state.participant(LUKE).hand else ()
    assert "folded" in refused(approved_knack(state, LUKE, 1), Draw(LUKE, card))
    called = step(state, Call(now=True)).state
    assert called.participant(LUKE).lay is None
    refused(called, ChooseLay(LUKE, state.participant(LUKE).hand[:5]))
    shown = step(called, Reveal()).state
    assert "Only players in the conflict" in refused(shown, PlaceBid(LUKE, 1, held=9))


def test_it_charges_no_chip_for_an_extra_card_after_a_fold_r15_r19() -> None:
    """R15/R19: a player who folded is out of the conflict: an extra card for a chip makes no
    sense any more (the chip would buy nothing)."""
    state = new_conflict([black_jack(), luke(), stud(5)])
    state = step(state, Fold(LUKE)).state
    refused(state, SpendExtraCard(LUKE))


def test_it_deals_no_cards_to_a_hand_folded_before_the_deal_r19() -> None:
    """R19: a fold removes the character from the conflict; a hand folded at the sizing step
    is not dealt (the cards stay in the deck for the others)."""
    state = approved(new_conflict([black_jack(), luke(), stud(5)]), {
        JACK: (("hand", "eye"), False, 0), LUKE: (("hand", "eye"), False, 0),
    })  # fmt: skip
    state = step(state, Fold(LUKE)).state
    state = step(state, Deal("s")).state
    assert state.participant(LUKE).hand == ()
    assert len(state.participant(JACK).hand) == 8


# =============================================================================================
# The Call and the lays (R4)


def test_it_lays_the_best_hand_by_default_at_the_call_r4() -> None:
    """R4: the app proposes the best poker lay."""
    state = dealt([black_jack(), luke(), stud(7)], seed=21)
    called = step(state, Call(now=True)).state
    assert called.phase == Phase.LAYING
    for p in called.participants:
        assert p.lay == evaluate(p.hand).laid
        assert len(p.lay) == min(5, len(p.hand))


def test_it_lets_black_jack_lay_two_pair_keeping_the_king_of_spades_r4_r8() -> None:
    """R4/R8, the seed: Black Jack may lay his full house, or two pair keeping the K♠ for a good
    shot at high card. With the full house the posse's Q♠ narrates; with two pair he does, and
    he still wins."""
    state = dealt([black_jack(), luke(), stud(5)])
    state = set_hands(state, {
        JACK: "3H 3C 3D 7D 7C KS", LUKE: "4H 6C 8D 10S JH", POSSE: "QS QH 2C 5D 9C",
    })  # fmt: skip
    full = revealed(state).state
    assert full.participant(JACK).lay == cards("3H 3D 3C 7D 7C")
    assert (full.winner, full.narrator) == (JACK, POSSE)
    two_pair = revealed(state, {JACK: "7D 7C 3H 3C KS"}).state
    assert set(two_pair.participant(JACK).lay or ()) == set(cards("7D 7C 3H 3C KS"))
    assert (two_pair.winner, two_pair.narrator) == (JACK, JACK)


def test_it_makes_a_lay_exactly_five_own_cards_or_the_whole_short_hand_r4() -> None:
    """R4: at most five; with fewer than five, all of them; only from your own hand."""
    state = dealt([black_jack(), luke(), stud(3)])
    state = set_hands(state, {
        JACK: "3H 3C 3D 7D 7C KS", LUKE: "4H 6C 8D", POSSE: "QS QH 2C",
    })  # fmt: skip
    called = step(state, Call(now=True)).state
    assert "exactly 5" in refused(called, ChooseLay(JACK, cards("3H 3C 3D 7D")))
    assert "exactly 5" in refused(called, ChooseLay(JACK, cards("3H 3C 3D 7D 7C KS")))
    assert "exactly 5" in refused(called, ChooseLay(JACK, (*cards("3H 3C 3D 7D"), cards("7D")[0])))
    assert "own hand" in refused(called, ChooseLay(JACK, cards("3H 3C 3D 7D QS")))
    assert "exactly 3" in refused(called, ChooseLay(LUKE, cards("4H 6C")))
    step(called, ChooseLay(LUKE, cards("8D 6C 4H")))
    # A lay may be changed until the reveal.
    once = step(called, ChooseLay(JACK, cards("7D 7C 3H 3C KS"))).state
    twice = step(once, ChooseLay(JACK, cards("3H 3C 3D 7D 7C"))).state
    assert set(twice.participant(JACK).lay or ()) == set(cards("3H 3C 3D 7D 7C"))


def test_it_keeps_the_lays_secret_until_the_reveal_r4() -> None:
    """R4: the lays are chosen after the Call and shown together at the reveal."""
    state = step(dealt([black_jack(), stud(5)]), Call(now=True)).state
    assert state.winner is None
    assert state.narrator is None
    assert "not" in refused(state, PlaceBid(JACK, 1, held=9)).lower()


# =============================================================================================
# Resolution: winner, Difficulty, narration (R14, R9, R8)


def _luke_shot_at(rival_hand: str) -> ConflictState:
    state = dealt([luke(), rival()])
    state = set_hands(state, {LUKE: "KH QC 8D 4S 3S", RIVAL: rival_hand})
    return revealed(state).state


def test_it_gives_luke_three_points_on_heart_guts_or_eye_from_three_fives_r9_r14() -> None:
    """R9/R14, the seed: the rival gunslinger lays 5♥ 5♣ 5♦: Luke loses three points from his
    Heart, Guts and/or Eye."""
    state = _luke_shot_at("5H 5C 5D 2S 9C")
    assert state.winner == RIVAL
    (owed,) = state.owed
    assert (owed.pid, owed.points, owed.source) == (LUKE, 3, RIVAL)
    assert set(owed.attributes) == {"heart", "guts", "eye"}
    # Three from one attribute, or one from each: both are legal.
    step(state, Allocate(LUKE, {"heart": 3}))
    step(state, Allocate(LUKE, {"heart": 1, "guts": 1, "eye": 1}))
    assert "Heart, Eye, Guts" in refused(state, Allocate(LUKE, {"hand": 1, "heart": 2}))


def test_it_takes_no_suit_from_a_joker_in_the_beating_combination_r5_r9() -> None:
    """R5/R9, the seed: with a joker instead of the 5♦, Luke loses the three points from Heart
    and/or Guts only."""
    state = _luke_shot_at("5H 5C RJ 2S 9C")
    (owed,) = state.owed
    assert owed.points == 3
    assert set(owed.attributes) == {"heart", "guts"}
    assert "only go to" in refused(state, Allocate(LUKE, {"eye": 1, "heart": 2}))


def test_it_lets_any_attribute_take_a_combination_of_jokers_only_r9() -> None:
    """R9: a combination with no natural card: any attribute may take the points."""
    state = _luke_shot_at("RJ BJ")
    (owed,) = state.owed
    assert owed.points == 2
    assert set(owed.attributes) == set(ATTRIBUTES)


def test_it_lets_the_narration_go_to_a_losing_hand_r8() -> None:
    """R8, the seed: even the lowest ranking hand can yield the high card. Luke's K♥ beats the
    rival's 9♣ for narration while the three fives win."""
    state = _luke_shot_at("5H 5C 5D 2S 9C")
    assert (state.winner, state.narrator) == (RIVAL, LUKE)


def test_it_makes_a_beaten_important_npc_take_difficulty_r9_r14() -> None:
    """R9/R14: a beaten NPC character takes Difficulty too (the Dealer splits it)."""
    state = dealt([luke(), rival()])
    state = set_hands(state, {LUKE: "5H 5C 5D 2S 9C", RIVAL: "KH QC 8D 4S 3S"})
    state = revealed(state).state
    (owed,) = state.owed
    assert (owed.pid, owed.points, owed.source) == (RIVAL, 3, LUKE)


def _ambush(lays: dict[str, str] | None = None) -> ConflictState:
    """The posse ambush: Black Jack and Luke against a 5-card stud."""
    state = dealt([black_jack(), luke(), stud(5)])
    state = set_hands(state, {
        JACK: "3H 3C 3D 7D 7C", LUKE: "AS 2C 4D 6H 8D", POSSE: "9S 9H 4C 5D JC",
    })  # fmt: skip
    return revealed(state, lays).state


def test_it_lets_a_stud_hand_take_no_difficulty_r14() -> None:
    """R14: stud hands take no Difficulty. Black Jack's full house beats the posse's nines,
    and the posse owes nothing."""
    state = _ambush()
    assert state.winner == JACK
    assert POSSE not in {o.pid for o in state.owed}
    assert JACK not in {o.pid for o in state.owed}


def test_it_hurts_a_character_on_the_winning_side_beaten_by_a_better_opponent_r14() -> None:
    """R14 (literal reading): the winner is the single best lay; a participant is beaten when
    some opponent's lay is better. Luke's side wins through Black Jack, but the posse's pair of
    nines beats Luke's ace high: Luke takes 2 (♠ ♥: Hand or Heart)."""
    state = _ambush()
    (owed,) = state.owed
    assert (owed.pid, owed.points, owed.source) == (LUKE, 2, POSSE)
    assert set(owed.attributes) == {"hand", "heart"}


def test_it_gives_the_narration_to_the_highest_laid_card_r8() -> None:
    """R8: Luke's A♠, in the losing hand, is the highest laid card: Luke narrates."""
    assert _ambush().narrator == LUKE


def test_it_ignores_unlaid_cards_for_narration_r8() -> None:
    """R8, the seed: only the cards laid at the Call count toward high card."""
    state = dealt([black_jack(), luke(), stud(5)])
    state = set_hands(state, {
        JACK: "3H 3C 3D 7D 7C AS", LUKE: "4H 6C 8D 10S KH", POSSE: "QS QH 2C 5D 9C",
    })  # fmt: skip
    full = revealed(state).state  # the A♠ stays in the hand, not in the full house
    assert full.narrator == LUKE
    with_ace = revealed(state, {JACK: "7D 7C 3H 3C AS"}).state
    assert with_ace.narrator == JACK


def test_it_counts_a_joker_as_the_rank_it_took_and_below_clubs_for_narration_r8() -> None:
    """R8/R5: a joker counts as the rank it took in its lay and as lower than ♣. Black Jack's
    joker is a king (a pair of kings): Luke's K♦ beats it and the K♣ beside it; against a
    queen, Black Jack's K♣ narrates, not the joker."""
    state = dealt([black_jack(), luke(), stud(5)])
    hands = {JACK: "RJ KC 2D 3S 7H", LUKE: "KD 4C 6H 8S 10C", POSSE: "QS QH 5C 9D JC"}
    shown = revealed(set_hands(state, hands)).state
    assert shown.narrator == LUKE
    hands[LUKE] = "QD 4C 6H 8S 10C"
    hands[POSSE] = "JS JH 5C 9D 2C"
    shown = revealed(set_hands(state, hands)).state
    assert shown.narrator == JACK
    assert evaluate(shown.participant(JACK).lay or ()).high_card == cards("KC")[0]


def test_it_ignores_a_folded_hand_for_narration_r8_r19() -> None:
    """R8: only the laid cards of participants who have not folded."""
    state = dealt([black_jack(), luke(), stud(5)])
    state = set_hands(state, {
        JACK: "3H 3C 3D 7D 7C", LUKE: "AS AH AD 6H 8D", POSSE: "9S 9H 4C 5D JC",
    })  # fmt: skip
    state = step(state, Fold(LUKE)).state
    shown = revealed(state).state
    assert shown.winner == JACK
    assert shown.narrator == POSSE


def test_it_resolves_a_gunfight_between_two_player_characters_on_sides_r14() -> None:
    """R14: the Dealer may put characters on other sides; the loser takes Difficulty from the
    winner's combination, and Stakes go to the winner's side only (R18)."""
    state = dealt([black_jack(side="jack"), luke(side="luke")], stakes=1)
    state = set_hands(state, {JACK: "QS QH QD 2C 5D", LUKE: "AS KS 10D 9C 4H"})
    shown = revealed(state).state
    assert shown.winner == JACK
    assert shown.narrator == LUKE
    (owed,) = shown.owed
    assert (owed.pid, owed.points, owed.source) == (LUKE, 3, JACK)
    assert set(owed.attributes) == {"hand", "heart", "eye"}
    _, chips = settle(shown)
    assert chips == (ChipMove(JACK, 1, "stakes"),)


def test_it_takes_difficulty_from_the_best_opposing_lay_only_r14() -> None:
    """R14: with two opposing hands better than yours, the best one deals the Difficulty."""
    state = dealt([luke(), rival(), stud(5)])
    state = set_hands(state, {
        LUKE: "2C 3D 5H 7S 9C", RIVAL: "KS KH 4C 6D 8H", POSSE: "JS JD JC 4H 6S",
    })  # fmt: skip
    shown = revealed(state).state
    (owed,) = shown.owed
    assert (owed.pid, owed.points, owed.source) == (LUKE, 3, POSSE)
    assert set(owed.attributes) == {"hand", "eye", "guts"}


# =============================================================================================
# Narration bids (R16, R17)


def _saloon() -> ConflictState:
    """The saloon: Black Jack, Luke and McCreedy against a 3-card stud that pairs them all.
    Luke's K♣ is the high card."""
    state = dealt([black_jack(), luke(), mccreedy(), stud(3)])
    state = set_hands(state, {
        JACK: "3C 5D 7H 9S JC", LUKE: "4H 6C 8D 10H KC", BANG: "3D 5C 7S 9D QS",
        POSSE: "2S 2H 8C",
    })  # fmt: skip
    state = revealed(state).state
    assert state.winner == POSSE
    assert state.narrator == LUKE
    return state


def test_it_keeps_the_narration_for_the_holder_who_matches_the_highest_bid_r16() -> None:
    """R16: the holder keeps narration by matching the highest bid; only the holder pays."""
    state, _ = play(
        _saloon(), [PlaceBid(JACK, 1, held=9), PlaceBid(BANG, 2, held=9), PlaceBid(LUKE, 2, held=9)]
    )
    outcome = step(state, CloseBids(held=PURSES))
    assert outcome.state.narrator == LUKE
    assert outcome.chips == (ChipMove(LUKE, -2, "narration_bid"),)
    assert outcome.state.narration_paid == 2


def test_it_gives_the_narration_to_the_highest_bid_and_only_the_winner_pays_r16() -> None:
    """R16: the highest bid wins, and only the winner pays."""
    state, _ = play(_saloon(), [PlaceBid(JACK, 1, held=9), PlaceBid(BANG, 3, held=9)])
    outcome = step(state, CloseBids(held=PURSES))
    assert outcome.state.narrator == BANG
    assert outcome.chips == (ChipMove(BANG, -3, "narration_bid"),)


def test_it_gives_equal_bids_to_the_earlier_bidder_r16() -> None:
    """R16: between equal bids, the earlier one."""
    state, _ = play(_saloon(), [PlaceBid(BANG, 2, held=9), PlaceBid(JACK, 2, held=9)])
    outcome = step(state, CloseBids(held=PURSES))
    assert outcome.state.narrator == BANG
    assert outcome.chips == (ChipMove(BANG, -2, "narration_bid"),)


def test_it_loses_the_holders_answer_when_outbid_afterwards_r16() -> None:
    """R16: the holder's answer must match the highest bid at the close."""
    state, _ = play(
        _saloon(), [PlaceBid(JACK, 1, held=9), PlaceBid(LUKE, 1, held=9), PlaceBid(BANG, 2, held=9)]
    )
    outcome = step(state, CloseBids(held=PURSES))
    assert outcome.state.narrator == BANG
    assert outcome.chips == (ChipMove(BANG, -2, "narration_bid"),)


def test_it_makes_the_holder_match_the_highest_bid_r16() -> None:
    """R16: answering below the highest bid, or with nothing to answer, is refused."""
    state = _saloon()
    assert "already hold" in refused(state, PlaceBid(LUKE, 1, held=9))
    state = step(state, PlaceBid(JACK, 2, held=9)).state
    assert "match the highest bid of 2" in refused(state, PlaceBid(LUKE, 1, held=9))
    assert "at least one" in refused(state, PlaceBid(BANG, 0, held=9))


def test_it_lets_the_dealer_not_bid_r16() -> None:
    """R16: the Dealer does not bid, for a stud hand or an important NPC."""
    state = _saloon()
    assert "Dealer does not" in refused(state, PlaceBid(POSSE, 1, held=9))
    npc = _luke_shot_at("5H 5C 5D 2S 9C")
    assert "Dealer does not" in refused(npc, PlaceBid(RIVAL, 1, held=9))


def test_it_lets_players_bid_the_narration_away_from_the_dealer_r16() -> None:
    """R16/R8: when a Dealer hand holds the high card, players may bid it away."""
    state = dealt([black_jack(), luke(), stud(5)])
    state = set_hands(state, {
        JACK: "3H 3C 3D 7D 7C", LUKE: "4H 6C 8D 10S JH", POSSE: "QS QH 2C 5D 9C",
    })  # fmt: skip
    state = revealed(state).state
    assert state.narrator == POSSE
    nobody = step(state, CloseBids(held=PURSES))
    assert nobody.chips == ()
    assert nobody.state.narrator == POSSE
    state = step(state, PlaceBid(LUKE, 1, held=9)).state
    outcome = step(state, CloseBids(held=PURSES))
    assert outcome.state.narrator == LUKE
    assert outcome.chips == (ChipMove(LUKE, -1, "narration_bid"),)
    assert "settled" in refused(outcome.state, PlaceBid(JACK, 2, held=9))
    assert "settled" in refused(outcome.state, CloseBids(held=PURSES))


def test_it_makes_finish_wait_for_open_bids_r16() -> None:
    """R16: the bidding is settled before the conflict ends."""
    state = step(_saloon(), PlaceBid(JACK, 1, held=9)).state
    moves = [Allocate(o.pid, default_allocation(o, state.participant(o.pid).currents))
             for o in state.owed]  # fmt: skip
    state, _ = play(state, moves)
    assert "bids first" in refused(state, Finish())
    state = step(state, CloseBids(held=PURSES)).state
    step(state, Finish())


def test_it_lets_the_paying_narrator_restore_one_point_once_r16() -> None:
    """R16: a player who wins narration with chips may restore one point of Difficulty their
    character took in this conflict, once."""
    state, _ = play(
        _saloon(), [PlaceBid(JACK, 1, held=9), CloseBids(held=PURSES), Allocate(JACK, {"heart": 2})]
    )
    outcome = step(state, Restore(JACK, "heart"))
    assert outcome.state.owed[0].allocation == {"heart": 1}
    assert attribute_losses(outcome.state)[JACK] == {"heart": 1}
    assert "One point per conflict" in refused(outcome.state, Restore(JACK, "heart"))


def test_it_lets_the_holder_who_paid_to_keep_narration_restore_a_point_r16() -> None:
    """R16: keeping the narration by matching a bid costs chips too: the holder may restore."""
    state, _ = play(_saloon(), [
        PlaceBid(JACK, 1, held=9), PlaceBid(LUKE, 1, held=9), CloseBids(held=PURSES),
        Allocate(LUKE, {"hand": 1, "heart": 1}),
    ])  # fmt: skip
    after = step(state, Restore(LUKE, "hand")).state
    assert attribute_losses(after)[LUKE] == {"heart": 1}


def test_it_refuses_a_restore_to_anyone_who_did_not_pay_for_narration_r16() -> None:
    """R16: the high-card narrator paid nothing and restores nothing; nor does a losing bidder."""
    state, _ = play(_saloon(), [Allocate(LUKE, {"heart": 2}), Allocate(JACK, {"hand": 2})])
    assert "paid chips" in refused(state, Restore(LUKE, "heart"))
    bid, _ = play(
        state, [PlaceBid(JACK, 1, held=9), PlaceBid(BANG, 2, held=9), CloseBids(held=PURSES)]
    )
    assert "paid chips" in refused(bid, Restore(JACK, "hand"))


def test_it_restores_only_a_point_taken_in_this_conflict_r16() -> None:
    """R16: restore a point of an attribute that took Difficulty here, after placing it."""
    state, _ = play(_saloon(), [PlaceBid(JACK, 1, held=9), CloseBids(held=PURSES)])
    assert "took Difficulty" in refused(state, Restore(JACK, "heart"))  # not placed yet
    state = step(state, Allocate(JACK, {"heart": 2})).state
    assert "took Difficulty" in refused(state, Restore(JACK, "hand"))
    assert "took Difficulty" in refused(state, Restore(JACK, "guts"))


def test_it_brings_zekes_guts_back_to_one_after_a_flush_of_clubs_r9_r16() -> None:
    """R9/R16, the seed: Zeke's Guts is 2; a flush of clubs deals five points to Guts, which
    stops at 0 (the rest is lost); one chip for the narration restores it to 1."""
    hurt = zeke(currents={"hand": 5, "eye": 3, "guts": 2, "heart": 2})
    state = dealt([hurt, rival()], {
        ZEKE: (("guts", "hand"), False, 0), RIVAL: (("hand", "eye"), False, 0),
    })  # fmt: skip
    state = set_hands(state, {ZEKE: "3H 4D 6S 9H 10D", RIVAL: "2C 5C 8C JC KC"})
    state = revealed(state).state
    (owed,) = state.owed
    assert (owed.points, owed.attributes) == (5, ("guts",))
    assert placeable(owed, hurt.currents) == 2
    assert "Place 2 points" in refused(state, Allocate(ZEKE, {"guts": 1}))
    assert "only 2" in refused(state, Allocate(ZEKE, {"guts": 5}))
    assert state.narrator == RIVAL
    state, outs = play(
        state, [Allocate(ZEKE, {"guts": 2}), PlaceBid(ZEKE, 1, held=9), CloseBids(held=PURSES)]
    )
    assert outs[-1].chips == (ChipMove(ZEKE, -1, "narration_bid"),)
    state = step(state, Restore(ZEKE, "guts")).state
    assert attribute_losses(state) == {ZEKE: {"guts": 1}}  # Guts 2 - 1 = 1


def test_it_keeps_a_restored_point_when_difficulty_is_placed_again_r16() -> None:
    """R16: the restore is once per conflict; placing the Difficulty again must not quietly
    undo the restored point (and leave the restore spent)."""
    state, _ = play(
        _saloon(), [PlaceBid(JACK, 1, held=9), CloseBids(held=PURSES), Allocate(JACK, {"heart": 2})]
    )
    state = step(state, Restore(JACK, "heart")).state
    assert "stands as placed" in refused(state, Allocate(JACK, {"heart": 2}))
    assert attribute_losses(state)[JACK] == {"heart": 1}
    # The others still place theirs.
    step(state, Allocate(LUKE, {"hand": 1, "heart": 1}))


def test_it_gives_the_last_stand_the_narration_automatically_r17() -> None:
    """R17: a character on their last stand narrates automatically; nobody else bids."""
    broken = zeke(currents={"hand": 5, "eye": 3, "guts": 0, "heart": 2})
    state = dealt([broken, black_jack(), stud(5)], {
        ZEKE: (("guts", "hand"), False, 0), JACK: (("hand", "eye"), False, 0),
    })  # fmt: skip
    state = set_hands(state, {
        ZEKE: "2C 3D 4H 6S 8C 9D 10H", JACK: "AS AH 5C 7D JC", POSSE: "KS KH 4C 6D QC",
    })  # fmt: skip
    shown = step(step(state, Call(now=True)).state, Reveal())
    assert shown.state.narrator == ZEKE
    assert any("last stand" in e for e in shown.events)
    assert "settled" in refused(shown.state, PlaceBid(JACK, 3, held=9))
    assert "settled" in refused(shown.state, CloseBids(held=PURSES))
    moves = [Allocate(o.pid, default_allocation(o, shown.state.participant(o.pid).currents))
             for o in shown.state.owed]  # fmt: skip
    _, outs = play(shown.state, [*moves, Finish()])
    assert any("writes the end" in e for e in outs[-1].events)


def test_it_lets_only_the_last_stands_bid_among_themselves_r17() -> None:
    """R17: two characters on their last stand bid for the narration among themselves only."""
    z = zeke(currents={"hand": 5, "eye": 3, "guts": 0, "heart": 2})
    lk = luke(currents={"hand": 3, "eye": 3, "guts": 3, "heart": 0})
    state = dealt([z, lk, black_jack(), stud(5)], {
        ZEKE: (("guts", "hand"), False, 0), LUKE: (("heart", "eye"), False, 0),
        JACK: (("hand", "eye"), False, 0),
    })  # fmt: skip
    state = set_hands(state, {
        ZEKE: "2C 3D 4H 6S 8C", LUKE: "2D 3H 5S 7C 9D", JACK: "AS AH 5C 7D KC",
        POSSE: "KS KH 4C 6D QC",
    })  # fmt: skip
    state = revealed(state).state
    assert state.narrator == LUKE  # the higher card of the two last stands (9♦ over 8♣)
    assert set(state.bidders) == {ZEKE, LUKE}
    assert "last stand" in refused(state, PlaceBid(JACK, 2, held=9))
    assert "Dealer does not" in refused(state, PlaceBid(POSSE, 2, held=9))
    state, outs = play(state, [PlaceBid(ZEKE, 1, held=9), CloseBids(held=PURSES)])
    assert state.narrator == ZEKE
    assert outs[-1].chips == (ChipMove(ZEKE, -1, "narration_bid"),)


def test_it_writes_no_end_for_a_last_stand_who_folded_r17_r19() -> None:
    """R17/R19, the seed: players may fold to skirt conflicts while on the Road to Hell, to
    reach a meaningful final conflict: a folded last stand is not their last conflict."""
    broken = zeke(currents={"hand": 5, "eye": 3, "guts": 0, "heart": 2})
    state = dealt([broken, black_jack(), stud(5)], {
        ZEKE: (("guts", "hand"), False, 0), JACK: (("hand", "eye"), False, 0),
    })  # fmt: skip
    state = step(state, Fold(ZEKE)).state
    shown = revealed(state).state
    assert shown.narrator != ZEKE
    assert not any("writes the end" in e for e in finished(shown).events)


# =============================================================================================
# Difficulty (R9, R14)


def test_it_refuses_attributes_below_zero_and_the_wrong_total_r9() -> None:
    """R9: no attribute below 0; the player places exactly the points that can be placed."""
    state = _luke_shot_at("5H 5C 5D 2S 9C")
    assert "only 4" in refused(state, Allocate(LUKE, {"heart": 5}))
    assert "Place 3 points" in refused(state, Allocate(LUKE, {"heart": 2}))
    assert "Place 3 points" in refused(state, Allocate(LUKE, {"heart": 2, "eye": 2}))
    assert "negative" in refused(state, Allocate(LUKE, {"heart": 4, "eye": -1}))
    assert "only go to" in refused(state, Allocate(LUKE, {"luck": 3}))
    assert "no Difficulty" in refused(state, Allocate(RIVAL, {"hand": 1}))


def test_it_loses_the_points_that_cannot_be_placed_r9() -> None:
    """R9: points beyond what the allowed attributes hold are lost; nothing to place is legal."""
    owed = Owed(LUKE, 5, ("heart", "guts"), RIVAL)
    assert placeable(owed, {"heart": 1, "guts": 2, "hand": 5}) == 3
    assert placeable(owed, {"heart": 0, "guts": 0, "hand": 5}) == 0
    assert default_allocation(owed, {"heart": 0, "guts": 0}) == {}
    assert default_allocation(owed, {"heart": 1, "guts": 2}) == {"heart": 1, "guts": 2}


@settings(max_examples=300, deadline=None)
@given(
    points=st.integers(0, 6),
    allowed=st.lists(st.sampled_from(ATTRIBUTES), min_size=1, max_size=4, unique=True),
    values=st.tuples(*[st.integers(0, 5)] * 4),
)
def test_it_makes_the_default_allocation_always_legal_r9(points, allowed, values) -> None:
    """R9: the default allocation uses only allowed attributes, never takes one below 0 and
    places exactly the placeable points."""
    currents = dict(zip(ATTRIBUTES, values, strict=True))
    owed = Owed(LUKE, points, tuple(allowed), RIVAL)
    alloc = default_allocation(owed, currents)
    assert set(alloc) <= set(allowed)
    assert all(0 < n <= currents[a] for a, n in alloc.items())
    assert sum(alloc.values()) == placeable(owed, currents)


def test_it_accepts_the_default_allocation_as_a_move_r9() -> None:
    """R9: the default allocation is always a legal Allocate."""
    state = _luke_shot_at("5H 5C 5D 2S 9C")
    (owed,) = state.owed
    alloc = default_allocation(owed, state.participant(LUKE).currents)
    after = step(state, Allocate(LUKE, alloc)).state
    assert attribute_losses(after) == {LUKE: alloc}


def test_it_waits_for_every_beaten_character_to_place_difficulty_r9() -> None:
    """R9: the conflict ends only once every beaten character's Difficulty is placed."""
    state = _saloon()
    assert "Waiting for" in refused(state, Finish())


def test_it_records_the_narrators_decree_with_a_reason_r14() -> None:
    """R14, the seed: the narrator may decree that even a losing hand hurts the winner; the
    Dealer records the override, with a reason, adding or removing Difficulty."""
    state = _ambush()
    assert "reason" in refused(state, OverrideDifficulty(JACK, LUKE, "  "))
    hurt = step(state, OverrideDifficulty(JACK, POSSE, "a posse bullet grazes Black Jack"))
    assert any("a posse bullet grazes Black Jack" in e for e in hurt.events)
    owed = {o.pid: o for o in hurt.state.owed}
    assert owed[JACK].source == POSSE
    assert owed[JACK].points == 2
    spared = step(hurt.state, OverrideDifficulty(LUKE, None, "Luke ducks behind his horse")).state
    assert {o.pid for o in spared.owed} == {JACK}
    assert "Only characters" in refused(state, OverrideDifficulty(POSSE, JACK, "the posse falls"))
    assert "not in this conflict" in refused(state, OverrideDifficulty(JACK, "nobody", "why"))


def test_it_refuses_a_decree_from_a_folded_hand_that_laid_nothing_r14_r19() -> None:
    """R14/R19: a folded hand laid no cards, so its lay cannot deal Difficulty."""
    state = dealt([black_jack(), luke(), mccreedy(), stud(5)])
    state = step(state, Fold(BANG)).state
    shown = revealed(state).state
    refused(shown, OverrideDifficulty(JACK, BANG, "McCreedy's dynamite"))


# =============================================================================================
# Stakes (R18)


def _bank_job(posse_wins: bool) -> ConflictState:
    """The bank job: Black Jack, Luke and McCreedy against a 7-card stud, Stakes of two."""
    state = dealt([black_jack(), luke(), mccreedy(), stud(7, name="The bank")], stakes=2)
    strong, weak = "AS AH AD KS KH 2C 3D", "2S 4D 6H 8C 10D QH 3C"
    state = set_hands(state, {
        JACK: "9S 9H 5C 6D JC", LUKE: "4S 7H 8D 10H JD", BANG: "5S 5H 7C JS QC",
        POSSE: strong if posse_wins else weak,
    })  # fmt: skip
    return revealed(state).state


def test_it_pays_the_stakes_to_every_player_on_the_winning_side_r18() -> None:
    """R18, the seed: two chips for the crazy bastards should they pull it off: every player
    character on the winner's side who did not fold earns them, winner or not."""
    state = _bank_job(posse_wins=False)
    assert state.winner == JACK
    done, chips = settle(state)
    assert chips == (
        ChipMove(JACK, 2, "stakes"), ChipMove(LUKE, 2, "stakes"), ChipMove(BANG, 2, "stakes"),
    )  # fmt: skip
    assert done.phase == Phase.DONE


def test_it_pays_no_stakes_when_the_dealers_side_wins_r18() -> None:
    """R18: nobody earns the Stakes if the Dealer's side wins."""
    state = _bank_job(posse_wins=True)
    assert state.winner == POSSE
    _, chips = settle(state)
    assert chips == ()


@pytest.mark.parametrize("stakes", [0, 1, 2, 3])
def test_it_accepts_stakes_of_zero_to_three_r18(stakes: int) -> None:
    """R18: Stakes of 1–3 chips, or none."""
    assert new_conflict([black_jack(), stud(7)], stakes=stakes).stakes == stakes


@pytest.mark.parametrize("stakes", [-1, 4, 10])
def test_it_refuses_other_stakes_r18(stakes: int) -> None:
    """R18: never more than three chips, never negative."""
    with pytest.raises(IllegalMove, match="0 to 3"):
        new_conflict([black_jack(), stud(7)], stakes=stakes)


# =============================================================================================
# Recovery (R22) and dealing again (R20)


@pytest.mark.parametrize(
    ("points", "size"), [(1, 3), (2, 3), (3, 5), (4, 5), (5, 7), (6, 7), (12, 7)]
)
def test_it_sizes_the_recovery_stud_by_the_points_r22(points: int, size: int) -> None:
    """R22: 1–2 points a 3-card stud, 3–4 a 5-card stud, 5+ a 7-card stud."""
    assert recovery_stud_size(points) == size


@pytest.mark.parametrize("points", [0, -1])
def test_it_refuses_a_recovery_of_nothing_r22(points: int) -> None:
    """R22: a recovery restores at least one point."""
    with pytest.raises(IllegalMove, match="at least one"):
        recovery_stud_size(points)


def _recovery(zeke_wins: bool) -> ConflictState:
    size = recovery_stud_size(3)
    state = dealt([zeke(), stud(size, name="Doc Samuelson's stitches")], recovery=(ZEKE, 3))
    strong, weak = "AS AH AD KS KH", "2C 4D 6H 8C 10D"
    state = set_hands(state, {
        ZEKE: strong if zeke_wins else weak, POSSE: weak if zeke_wins else strong,
    })  # fmt: skip
    return revealed(state).state


def test_it_restores_the_points_when_the_recovery_is_won_r22() -> None:
    """R22: winning the recovery conflict restores the points."""
    state = _recovery(zeke_wins=True)
    assert recovery_won(state) is False  # not before the end
    done, _ = settle(state)
    assert recovery_won(done) is True
    assert done.recovery == (ZEKE, 3)


def test_it_restores_nothing_when_the_recovery_is_lost_r22() -> None:
    """R22: losing it restores nothing."""
    done, _ = settle(_recovery(zeke_wins=False))
    assert recovery_won(done) is False


def test_it_refuses_a_recovery_for_someone_not_in_the_conflict_r22() -> None:
    """R22: the recovering character must take part (and recover at least one point);
    otherwise the conflict could never finish."""
    with pytest.raises(IllegalMove):
        new_conflict([black_jack(), stud(3)], recovery=(ZEKE, 2))
    with pytest.raises(IllegalMove):
        new_conflict([black_jack(), stud(3)], recovery=(POSSE, 2))
    with pytest.raises(IllegalMove):
        new_conflict([black_jack(), stud(3)], recovery=(JACK, 0))


def test_only_a_finished_conflict_is_dealt_again_r20() -> None:
    state = dealt([black_jack(), luke(), stud(5)])
    with pytest.raises(IllegalMove, match="finished"):
        winner_bonus_pids(state, house_rule=True)


def test_it_never_deals_a_player_their_own_discards_back_while_other_cards_are_left_R10_R13() -> (
    None
):
    """When the stock is empty the pile from before this draw is reshuffled; this draw's
    discards join the pile only after the replacements are dealt (as in draw poker)."""
    from cards.deck import Deck
    from tests.conflicts.engine.conflict_kit import check_conserved

    state = dealt([zeke(), stud(5)])
    assert state.deck is not None
    state = replace(state, deck=Deck(stock=(), discards=state.deck.stock))
    check_conserved(state)
    hand = state.participant(zeke().pid).hand
    outcome = step(approved_knack(state, zeke().pid, 3), Draw(zeke().pid, hand[:2]), seed=3)
    check_conserved(outcome.state)
    new_hand = outcome.state.participant(zeke().pid).hand
    assert len(new_hand) == len(hand)
    assert not set(hand[:2]) & set(new_hand)
    assert any("shuffled into a new deck" in e for e in outcome.events)
