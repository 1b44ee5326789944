"""Combat rounds on the action deck (fights/engine/action_deck.py): rulings R23–R27 and R31.

Every scene stacks the deck so the cards are known, and checks the 54 cards after every move
(``fight_kit.step``). The last section replays the failures of other tools listed in issue 17.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from cards.deck import BLACK_JOKER, FULL_DECK, RED_JOKER, Deck, parse_card
from cards.dice import Opposed
from fights.engine.action_deck import (
    DEALER,
    Abandon,
    Act,
    DealRound,
    EndFight,
    EndRound,
    Guts,
    Join,
    Leave,
    Pass,
    Phase,
    Quickness,
    RollQuickness,
    SetCap,
    Sleeve,
    Speed,
    action_rank,
    all_cards,
    apply,
    cards_for,
    in_action_order,
    new_fight,
    quickness_needed,
    rounds_fought,
    up,
)
from tests.fights.fight_kit import (
    BART,
    GANG,
    JIM,
    KATE,
    bart,
    cards,
    check_conserved,
    dealt,
    fight,
    gang,
    hand,
    jim,
    kate,
    refused,
    stacked,
    step,
    totals,
)

# Jim 13 → 3 cards, Kate 5 → 2, Bart 17 → 4 (R23); dealt in seat order from the top (R25).
TOTALS = {JIM: 13, KATE: 5, BART: 17}
TOP = "2♣ A♠ 9♦ K♥ 3♠ 10♣ 10♠ 10♥ 10♦"


# --- R23: cards per round ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("total", "expected"),
    [(0, 1), (4, 1), (5, 2), (9, 2), (10, 3), (13, 3), (14, 3), (15, 4), (17, 4), (19, 4),
     (20, 5), (24, 5), (40, 5)],
)  # fmt: skip
def test_r23_one_free_card_plus_successes_and_raises_at_tn_5(total: int, expected: int) -> None:
    """R23: 13 → 3 cards (free + success + raise), 17 → 4; never more than 5."""
    assert cards_for(total) == expected


def test_r23_the_cap_can_be_lifted() -> None:
    """R23: supernatural aid lifts the cap: 40 is a success and 7 raises, 9 cards."""
    assert cards_for(40, cap=7) == 7
    assert cards_for(40, cap=None) == 9
    assert cards_for(13, cap=2) == 2


def test_r23_a_bust_gets_no_cards() -> None:
    assert cards_for(17, bust=True) == 0


@pytest.mark.parametrize("cap", [0, -1, "5", True])
def test_r23_a_cap_that_is_not_a_whole_number_is_refused(cap: object) -> None:
    with pytest.raises(Exception, match="card cap"):
        cards_for(13, cap=cap)  # type: ignore[arg-type]


def test_r23_the_deal_follows_the_totals_and_a_lifted_cap() -> None:
    """R23 in a fight: Jim 13 → 3, Kate 5 → 2, Bart 17 → 4; Bart's cap lifted: 40 → 9."""
    out = dealt(fight(), TOTALS, TOP)
    assert [len(c.hand) for c in out.state.combatants] == [3, 2, 4]
    state = step(fight(), SetCap(BART, None)).state
    assert "lifts Black Bart's card cap" in step(fight(), SetCap(BART, None)).events[0]
    out = dealt(state, {JIM: 13, KATE: 5, BART: 40}, TOP)
    assert len(out.state.combatant(BART).hand) == 9
    assert out.state.combatant(JIM).cap == 5


def test_r23_a_typed_quickness_total_must_be_a_whole_number() -> None:
    state = fight()
    for bad in (-3, "13", 2.5, None):
        refused(state, Quickness(JIM, bad), "whole number")  # type: ignore[arg-type]


def test_r27_typed_dice_must_make_the_typed_total() -> None:
    state = fight()
    refused(state, Quickness(JIM, 12, dice=((6, 4), (2,))), "do not make that total")
    ok = step(state, Quickness(JIM, 10, dice=((6, 4), (2,), (1,)))).state
    assert ok.combatant(JIM).dice == ((6, 4), (2,), (1,))


def test_r27_the_app_rolls_the_combatants_own_dice() -> None:
    """R27: RollQuickness rolls the combatant's dice (Jim 3d6) and keeps every face."""
    out = step(fight(), RollQuickness(JIM), random.Random(11))
    jim_now = out.state.combatant(JIM)
    assert len(jim_now.dice) == 3
    assert jim_now.total == max(sum(d) for d in jim_now.dice)
    assert out.events[0].startswith("Jim rolls 3d6: ")


# --- R24: the order ----------------------------------------------------------------------------


def test_r24_jokers_then_aces_down_to_deuces_ties_by_spades_hearts_diamonds_clubs() -> None:
    """R24: equal ranks by ♠, ♥, ♦, ♣; the red joker before the black (R6/R8's reading)."""
    order = in_action_order(cards("2♣ A♦ BJ A♣ K♠ A♠ RJ A♥ 2♠"))
    assert [c.text for c in order] == ["RJ", "BJ", "A♠", "A♥", "A♦", "A♣", "K♠", "2♠", "2♣"]


def test_r24_the_whole_deck_has_one_strict_order() -> None:
    ranks = [action_rank(c) for c in FULL_DECK]
    assert len(set(ranks)) == 54
    assert in_action_order(FULL_DECK)[0] is RED_JOKER
    assert in_action_order(FULL_DECK)[1] is BLACK_JOKER
    assert in_action_order(FULL_DECK)[-1] is parse_card("2♣")


# --- R25: the deal -------------------------------------------------------------------------------


def test_r25_each_combatant_in_seat_order_takes_all_its_cards_from_the_top() -> None:
    out = dealt(fight(), TOTALS, TOP)
    state = out.state
    assert state.phase == Phase.COUNTDOWN
    assert hand(state, JIM) == "A♠ 9♦ 2♣"  # the top three, in R24 order
    assert hand(state, KATE) == "K♥ 3♠"
    assert hand(state, BART) == "10♠ 10♥ 10♦ 10♣"
    assert out.events[0] == "Round 1 dealt: Jim 3, Kate 2, Black Bart 4."
    assert {s.cids for s in out.secrets} == {(JIM,), (KATE,), (BART,)}


def test_r25_the_deal_waits_for_every_quickness_total() -> None:
    state = totals(fight(), {JIM: 13})
    assert [c.cid for c in quickness_needed(state)] == [KATE, BART]
    refused(state, DealRound(), "Kate, Black Bart")


def test_r25_reshuffle_mid_deal_when_the_deck_is_short() -> None:
    """R25: the deck holds 2 cards and Kate needs 2, Bart 4: deck and discards are shuffled
    together before Bart's cards — never "not enough cards"."""
    state = totals(fight(), TOTALS)
    top = cards("A♠ K♠ Q♠ J♠ 10♠ 9♠ 8♠")
    rest = tuple(c for c in FULL_DECK if c not in top)
    state = replace(state, deck=Deck(top, rest))
    out = step(state, DealRound())
    assert hand(out.state, JIM) == "A♠ K♠ Q♠"
    assert hand(out.state, KATE) == "J♠ 10♠"
    assert len(out.state.combatant(BART).hand) == 4
    assert any("shuffled together" in e and "Black Bart needs 4" in e for e in out.events)
    assert out.state.deck.discards == ()
    assert len(out.state.deck.stock) == 54 - 9


def test_r25_when_every_card_is_held_the_deal_goes_short_and_says_so() -> None:
    """R25 with lifted caps: 3 × 15 cards wanted, 54 in the deck: the last gets what is left."""
    state = fight()
    for cid in (JIM, KATE, BART):
        state = step(state, SetCap(cid, None)).state
    no_black = " ".join(c.text for c in (*FULL_DECK[:52], RED_JOKER))  # BJ at the bottom
    out = step(stacked(totals(state, {JIM: 70, KATE: 70, BART: 70}), no_black), DealRound())
    assert [len(c.hand) for c in out.state.combatants] == [15, 15, 15]
    state = totals(state, {JIM: 100, KATE: 100, BART: 100})
    out = step(stacked(state, no_black), DealRound())
    # Bart's 12 are the last cards, the black joker among them (discarded, R25).
    assert [len(c.hand) for c in out.state.combatants] == [21, 21, 11]
    assert any("Black Bart gets 12 of 21" in e for e in out.events)


def test_r25_black_joker_discarded_with_the_sleeve_dealer_draws_reshuffle_at_end() -> None:
    """R25: Jim holds 7♣ up his sleeve and draws the black joker: both go to the discards at
    once, the joker is not replaced, the Dealer draws from the Fate pot, and at the end of the
    round the whole deck (all but sleeves) is reshuffled."""
    state = fight()
    state = replace(
        state.with_combatant(replace(state.combatant(KATE), sleeve=parse_card("5♦"))),
        deck=Deck(tuple(c for c in state.deck.stock if c is not parse_card("5♦"))),
    )
    state = state.with_combatant(replace(state.combatant(JIM), sleeve=parse_card("7♣")))
    state = replace(state, deck=Deck(tuple(c for c in state.deck.stock if c.text != "7♣")))
    check_conserved(state)
    out = dealt(state, TOTALS, "2♣ BJ 9♦ K♥ 3♠ 10♣ 10♠ 10♥ 10♦")
    state = out.state
    assert hand(state, JIM) == "9♦ 2♣"
    assert state.combatant(JIM).sleeve is None
    assert state.deck.discards == cards("BJ 7♣")
    assert state.reshuffle_at_end
    assert [(d.who, d.cause) for d in state.fate_draws] == [(DEALER, BLACK_JOKER)]
    assert any("black joker" in e and "7♣" in e for e in out.events)
    # The round ends: everything but Kate's sleeve back in one shuffled deck.
    state = step(state, EndRound()).state
    assert state.deck.discards == ()
    assert len(state.deck.stock) == 53
    assert state.combatant(KATE).sleeve == parse_card("5♦")
    assert not state.reshuffle_at_end
    assert state.round == 2
    assert state.phase == Phase.QUICKNESS


def test_r25_red_joker_holder_draws_from_the_fate_pot_and_may_act_at_once() -> None:
    out = dealt(fight(), TOTALS, "2♣ A♠ 9♦ RJ 3♠ 10♣ 10♠ 10♥ 10♦")
    state = out.state
    assert hand(state, KATE) == "RJ 3♠"
    (draw,) = state.fate_draws
    assert (draw.who, draw.cause, draw.revealed, draw.round) == (KATE, RED_JOKER, False, 1)
    assert draw.chip in {"white", "red", "blue"}
    assert sum(n for _, n in state.fate_pot) == 17
    # The red joker never comes up (it acts any time, R25): the countdown starts at the A♠,
    # and Kate may play the joker before it.
    assert up(state) == (state.combatant(JIM), parse_card("A♠"))
    first = step(state, Act(KATE, "draws first", card=RED_JOKER)).state
    assert first.table[0].card is RED_JOKER
    assert up(first) == (first.combatant(JIM), parse_card("A♠"))
    # The draw is a secret for Kate and the Dealer: it would tell who holds the red joker.
    assert not any("red joker" in e or "Fate" in e for e in out.events)
    assert any(s.cids == (KATE,) and "red joker" in s.text for s in out.secrets)


def test_r25_both_jokers_are_not_alike() -> None:
    """R25: in one deal the red joker stays in Kate's hand and earns Kate a draw; the black one
    is discarded from Jim's and earns the Dealer a draw, and a reshuffle at the end."""
    state = dealt(fight(), TOTALS, "2♣ BJ 9♦ RJ 3♠ 10♣ 10♠ 10♥ 10♦").state
    assert RED_JOKER in state.combatant(KATE).hand
    assert BLACK_JOKER not in state.combatant(JIM).hand
    assert BLACK_JOKER in state.deck.discards
    assert [d.who for d in state.fate_draws] == [DEALER, KATE]
    assert state.reshuffle_at_end


def test_r27_an_empty_fate_pot_records_a_draw_of_nothing() -> None:
    state = fight(fate_pot=(("white", 0),))
    out = dealt(state, TOTALS, "2♣ BJ 9♦ K♥ 3♠ 10♣ 10♠ 10♥ 10♦")
    assert out.state.fate_draws[0].chip is None
    assert any("Fate pot is empty" in e for e in out.events)


def test_r27_fate_draws_are_random_with_the_injected_rng_and_take_the_chip() -> None:
    state = fight(fate_pot=(("white", 1), ("red", 1)))
    state = stacked(totals(state, TOTALS), "2♣ BJ 9♦ RJ 3♠ 10♣ 10♠ 10♥ 10♦")
    a = apply(state, DealRound(), random.Random(1)).state
    b = apply(state, DealRound(), random.Random(1)).state
    assert a.fate_draws == b.fate_draws
    assert sorted(d.chip or "" for d in a.fate_draws) == ["red", "white"]
    assert a.fate_pot == (("white", 0), ("red", 0))


# --- R31: the countdown --------------------------------------------------------------------------


def test_r31_the_countdown_runs_down_the_order_act_sleeve_pass() -> None:
    state = dealt(fight(), TOTALS, TOP).state
    assert up(state) == (state.combatant(JIM), parse_card("A♠"))
    refused(state, Act(KATE, "shoots"), "not Kate's turn: the card up is Jim's")
    state = step(state, Act(JIM, "fans the hammer")).state
    assert up(state) == (state.combatant(KATE), parse_card("K♥"))
    out = step(state, Sleeve(KATE))
    state = out.state
    assert out.events == ("Kate puts a card up the sleeve.",)  # not which card (R30)
    assert state.combatant(KATE).sleeve == parse_card("K♥")
    assert up(state)[1] == parse_card("10♠")  # type: ignore[index]
    out = step(state, Pass(BART))
    state = out.state
    assert parse_card("10♠") in state.deck.discards
    for _ in range(3):
        state = step(state, Act(BART, "shoots", speed=Speed.SIMPLE)).state
    state = step(state, Act(JIM, "reloads")).state
    refused(state, Sleeve(KATE), "already has a card up the sleeve")
    state = step(state, Pass(KATE)).state
    state = step(state, Act(JIM, "ducks")).state
    assert up(state) is None
    refused(state, Act(JIM), "no card is up")
    out = step(state, EndRound())
    state = out.state
    assert state.combatant(KATE).sleeve == parse_card("K♥")  # R31: the sleeve stays
    assert len(state.deck.discards) == 8
    assert state.table == ()
    assert state.round == 2


def test_r31_ending_a_round_early_discards_the_unplayed_cards() -> None:
    state = dealt(fight(), TOTALS, TOP).state
    out = step(state, EndRound())
    assert len(out.state.deck.discards) == 9
    assert all(c.hand == () for c in out.state.combatants)
    assert "Not played by Jim, to the discards: A♠ 9♦ 2♣." in out.events


def test_r25_r31_the_red_joker_cannot_go_up_the_sleeve_and_plays_any_time() -> None:
    state = dealt(fight(), TOTALS, "2♣ A♠ 9♦ RJ 3♠ 10♣ 10♠ 10♥ 10♦").state
    refused(state, Sleeve(KATE, card=RED_JOKER), "red joker cannot go up the sleeve")
    refused(state, Sleeve(JIM, card=parse_card("9♦")), "Only the card up")
    assert up(state)[1] == parse_card("A♠")  # type: ignore[index]
    state = step(state, Act(JIM, "aims")).state
    # Kate plays the red joker out of turn, before Bart's 10♠ acts.
    out = step(state, Act(KATE, "dives for cover", card=RED_JOKER))
    state = out.state
    assert state.table[-1].out_of_turn
    assert "it drew" in out.events[-1]  # now the Fate draw is no secret
    assert state.fate_draws[0].revealed
    assert up(state)[1] == parse_card("10♠")  # type: ignore[index]


def test_r26_a_sleeved_card_goes_before_the_current_card_without_a_roll() -> None:
    state = dealt(fight(), TOTALS, TOP).state
    state = step(state, Act(JIM, "shoots")).state
    state = step(state, Sleeve(KATE)).state
    # Bart's 10♠ is up; Kate uses her K♥ first: no roll is needed to go before an action.
    out = step(state, Act(KATE, "shoots Bart", card=parse_card("K♥")))
    state = out.state
    assert state.combatant(KATE).sleeve is None
    assert state.table[-1].card == parse_card("K♥")
    assert "card up the sleeve, K♥ out of turn" in out.events[-1]
    assert up(state)[1] == parse_card("10♠")  # type: ignore[index]
    refused(state, Act(JIM, card=parse_card("2♣")), "only the card up the sleeve or the red")


def test_r26_an_interrupt_needs_the_opposed_roll() -> None:
    """R26: an interrupt with a sleeved card needs the opposed Quickness roll: a failure is
    refused, a success makes both act at once, a raise puts the interrupter first."""
    state = dealt(fight(), TOTALS, TOP).state
    state = step(state, Act(JIM, "shoots")).state
    state = step(state, Sleeve(KATE)).state
    state = step(state, Act(BART, "draws on Jim")).state
    k = parse_card("K♥")
    refused(state, Act(KATE, card=k, interrupt=True), "needs the opposed Quickness roll")
    refused(state, Act(KATE, card=k, interrupt=True, opposed=Opposed.FAILURE), "failed")
    refused(state, Act(BART, interrupt=True, opposed=Opposed.RAISE), "out of turn")
    both = step(state, Act(KATE, card=k, interrupt=True, opposed=Opposed.SUCCESS))
    assert "both act at once" in both.events[0]
    first = step(state, Act(KATE, "fires first", card=k, interrupt=True, opposed=Opposed.RAISE))
    assert "goes first" in first.events[0]
    assert first.state.table[-1].interrupted == BART
    assert first.state.table[-1].opposed == Opposed.RAISE


def test_r26_r33_nothing_to_interrupt_but_the_card_up_of_someone_else() -> None:
    """R33: the action under way is the card that is up. Sleeving or passing does not stop an
    interrupt (the next card is up); one's own card up, or no card up, leaves nothing."""
    state = dealt(fight(), TOTALS, TOP).state
    state = step(state, Sleeve(JIM)).state  # A♠ up Jim's sleeve; Kate's K♥ is up
    refused(state, Act(KATE, card=parse_card("K♥"), interrupt=True), "out of turn")
    state = step(state, Act(KATE, "ducks")).state
    for _ in range(4):  # Bart's four 10s pass; Jim's 9♦ is up
        state = step(state, Pass(BART)).state
    assert up(state)[1] == parse_card("9♦")  # type: ignore[index]
    refused(
        state,
        Act(JIM, card=parse_card("A♠"), interrupt=True, opposed=Opposed.RAISE),
        "own: act with it",
    )
    for cid in (JIM, KATE, JIM):  # 9♦, 3♠, 2♣
        state = step(state, Pass(cid)).state
    assert up(state) is None
    refused(
        state,
        Act(JIM, card=parse_card("A♠"), interrupt=True, opposed=Opposed.RAISE),
        "no card is up",
    )


def test_r25_r33_the_red_joker_interrupts_the_card_up_without_a_roll() -> None:
    """R33: with Bart's 10♠ up, Kate's red joker interrupts Bart, not Jim, whose A♠ was the
    action recorded before (the game night's Zeke, logged against his own partner)."""
    state = dealt(fight(), TOTALS, "2♣ A♠ 9♦ RJ 3♠ 10♣ 10♠ 10♥ 10♦").state
    state = step(state, Act(JIM, "shoots Bart")).state
    assert up(state)[0].cid == BART  # type: ignore[index]
    out = step(state, Act(KATE, "shoots Bart first", card=RED_JOKER, interrupt=True))
    assert "interrupts" in out.events[0]
    assert "no roll needed" in out.events[0]
    assert out.state.table[-1].interrupted == BART
    assert up(out.state)[1] == parse_card("10♠")  # type: ignore[index]  # Bart still acts


def test_r26_an_interrupted_consecutive_extended_action_falls_back_to_zero() -> None:
    """R26: Bart starts a 3-card consecutive extended action (pays 1 with his 10♠); Kate
    interrupts it with the card up her sleeve and a raise: Bart is back to 0 of 3."""
    state = dealt(fight(), TOTALS, TOP).state
    state = step(state, Act(JIM, "shoots")).state
    state = step(state, Sleeve(KATE)).state
    with pytest.raises(Exception, match="2 cards or more"):
        apply(state, Act(BART, "x", speed=Speed.EXTENDED, cost=1))
    state = step(
        state,
        Act(BART, "works the Gatling", speed=Speed.EXTENDED, cost=3, consecutive=True),
    ).state
    assert state.combatant(BART).extended.paid == 1  # type: ignore[union-attr]
    out = step(
        state,
        Act(KATE, "shoots the crank", card=parse_card("K♥"), interrupt=True, opposed=Opposed.RAISE),
    )
    assert state.combatant(BART).extended is not None
    assert out.state.combatant(BART).extended.paid == 0  # type: ignore[union-attr]
    assert "falls back to 0 of 3" in out.events[1]


def test_r26_extended_actions_are_paid_round_by_round_and_can_take_breaks() -> None:
    """R26: a non-consecutive extended action keeps its progress across other actions and
    rounds; a consecutive one is lost when its holder does something else."""
    state = dealt(fight(), TOTALS, TOP).state
    state = step(state, Act(JIM, "patches Kate", speed=Speed.EXTENDED, cost=3)).state
    state = step(state, Pass(KATE)).state
    for _ in range(4):
        state = step(state, Pass(BART)).state
    state = step(state, Act(JIM, "shoots", speed=Speed.SHORT)).state
    assert state.combatant(JIM).extended.paid == 1  # type: ignore[union-attr]
    state = step(state, Pass(KATE)).state
    state = step(state, Act(JIM, speed=Speed.EXTENDED)).state
    state = step(state, EndRound()).state
    assert state.combatant(JIM).extended.paid == 2  # type: ignore[union-attr]
    state = dealt(state, TOTALS, TOP).state
    out = step(state, Act(JIM, speed=Speed.EXTENDED))
    assert out.state.combatant(JIM).extended is None
    assert "completes patches Kate (3 cards)" in out.events[-1]
    refused(state, Act(JIM, "hotwires", speed=Speed.EXTENDED, cost=4), "abandon it first")
    # Consecutive: broken by any other action.
    state = dealt(fight(), TOTALS, TOP).state
    state = step(state, Act(JIM, "x", speed=Speed.EXTENDED, cost=2, consecutive=True)).state
    state = step(state, Pass(KATE)).state
    for _ in range(4):
        state = step(state, Pass(BART)).state
    out = step(state, Act(JIM, "shoots"))
    assert out.state.combatant(JIM).extended.paid == 0  # type: ignore[union-attr]
    out = step(out.state, Abandon(JIM))
    assert out.state.combatant(JIM).extended is None


# --- R26: surprise -------------------------------------------------------------------------------


def test_r26_surprised_no_cards_in_round_1_then_only_after_passing_guts() -> None:
    state = fight(jim(), kate(surprised=True), bart())
    refused(state, Quickness(KATE, 12), "surprised: no cards in the first round")
    refused(state, Guts(KATE, 9), "Guts is rolled from round 2")
    refused(state, Guts(JIM, 9), "not surprised")
    out = dealt(state, {JIM: 13, BART: 17}, TOP)
    assert out.state.combatant(KATE).hand == ()
    assert "Kate none (surprised)" in out.events[0]
    state = step(out.state, EndRound()).state
    # Round 2: the deal waits for Kate's Guts check; she fails it: no cards this round.
    state = totals(state, {JIM: 13, BART: 17})
    refused(state, DealRound(), "Kate")
    refused(state, Quickness(KATE, 12), "pass a TN 5 Guts check first")
    state = step(state, Guts(KATE, 4)).state
    refused(state, Quickness(KATE, 12), "failed the Guts check")
    out = step(state, DealRound())
    assert out.state.combatant(KATE).hand == ()
    assert "Kate none (failed Guts)" in out.events[0]
    state = step(out.state, EndRound()).state
    # Round 3: she passes, and gets cards this round.
    state = step(state, Guts(KATE, 5)).state
    assert not state.combatant(KATE).surprised
    out = dealt(state, {JIM: 13, KATE: 13, BART: 17}, TOP)
    assert len(out.state.combatant(KATE).hand) == 3


def test_r26_a_guts_bust_fails() -> None:
    state = fight(jim(), kate(surprised=True))
    state = step(totals(state, {JIM: 5}), DealRound()).state
    state = step(state, EndRound()).state
    out = step(state, Guts(KATE, 12, bust=True))
    assert out.state.combatant(KATE).guts_failed


def test_r26_r27_the_app_rolls_a_guts_check_with_the_guts_dice() -> None:
    """Guts can be rolled by the app, as Quickness is: the combatant's Guts dice (a line of
    extras without them: its Quickness dice), TN 5, aces and busts as R27 rolls them."""
    import random

    from cards.dice import DiceSpec, check_tn, roll
    from fights.engine.action_deck import RollGuts

    state = fight(jim(), kate(surprised=True, guts=DiceSpec(3, 6)))
    refused(state, RollGuts(KATE), "Guts is rolled from round 2")
    state = step(totals(state, {JIM: 5}), DealRound()).state
    state = step(state, EndRound()).state
    refused(state, RollGuts(JIM), "not surprised")
    out = apply(state, RollGuts(KATE), random.Random(4))
    expected = roll(DiceSpec(3, 6), random.Random(4))
    passed = check_tn(expected.total, 5, bust=expected.bust).success
    assert out.events[0].startswith(f"Kate rolls {expected} for Guts and ")
    assert out.state.combatant(KATE).surprised is not passed
    assert out.state.combatant(KATE).guts_failed is not passed
    refused(out.state, RollGuts(KATE), "not surprised" if passed else "failed the Guts check")


# --- Starting and ending -------------------------------------------------------------------------


def test_a_new_fight_is_a_fresh_shuffled_deck_at_round_1() -> None:
    state = new_fight([jim(), gang()], random.Random(3))
    assert state.phase == Phase.QUICKNESS
    assert state.round == 1
    assert len(state.deck.stock) == 54
    assert state.deck.stock != FULL_DECK
    with pytest.raises(Exception, match="only once"):
        new_fight([jim(), jim()], random.Random(3))
    with pytest.raises(Exception, match="at least one combatant"):
        new_fight([], random.Random(3))
    with pytest.raises(Exception, match="names white twice"):
        new_fight([jim()], random.Random(3), fate_pot=(("white", 1), ("white", 2)))


def test_the_fight_ends_and_every_card_goes_to_the_discards() -> None:
    state = dealt(fight(jim(), kate(), bart(), gang()), {**TOTALS, GANG: 9}, TOP).state
    state = step(state, Act(JIM, "shoots")).state
    state = step(state, Sleeve(KATE)).state
    out = step(state, EndFight())
    assert out.state.phase == Phase.OVER
    assert len(out.state.deck.discards) + len(out.state.deck.stock) == 54
    refused(out.state, DealRound(), "over")
    refused(out.state, EndFight(), "already over")


def test_moves_in_the_wrong_phase_are_refused_in_plain_words() -> None:
    state = fight()
    refused(state, Act(JIM), "not been dealt")
    refused(state, EndRound(), "not been dealt")
    state = dealt(state, TOTALS, TOP).state
    refused(state, Quickness(JIM, 5), "next one")
    refused(state, DealRound(), "next one")
    refused(state, Act("nobody"), "not in this fight")


# --- The failures of other tools (issue 17) --------------------------------------------------


def test_known_failure_a_sleeved_card_is_not_lost_at_the_next_round() -> None:
    """R26/R31: Kate's sleeved K♥ stays through the end of round 1 and the deal of round 2,
    and she can play it in round 2."""
    state = dealt(fight(), TOTALS, TOP).state
    state = step(state, Act(JIM, "shoots")).state
    state = step(state, Sleeve(KATE)).state
    state = step(state, EndRound()).state
    assert state.combatant(KATE).sleeve == parse_card("K♥")
    state = dealt(state, TOTALS, "4♣ 4♦ 4♥ 4♠ 5♣ 5♦ 5♥ 5♠ 6♣").state
    assert state.combatant(KATE).sleeve == parse_card("K♥")
    out = step(state, Act(KATE, "shoots", card=parse_card("K♥")))
    assert out.state.table[-1].card == parse_card("K♥")


def test_known_failure_a_bust_keeps_its_sleeve() -> None:
    """R23: a bust gets no cards but keeps the card up the sleeve."""
    state = dealt(fight(), TOTALS, TOP).state
    state = step(state, Act(JIM, "shoots")).state
    state = step(state, Sleeve(KATE)).state
    state = step(state, EndRound()).state
    out = dealt(state, TOTALS, "4♣ 4♦ 4♥ 4♠ 5♣ 5♦ 5♥", busts=[KATE])
    assert out.state.combatant(KATE).hand == ()
    assert out.state.combatant(KATE).sleeve == parse_card("K♥")
    assert "Kate none (bust)" in out.events[0]


def test_known_failure_a_success_without_a_raise_deals_two_cards_not_one() -> None:
    """R23: a total of 5–9 is a success: the free card + 1 = 2 cards."""
    for total in (5, 7, 9):
        state = dealt(fight(), {JIM: total, KATE: 1, BART: 1}, TOP).state
        assert len(state.combatant(JIM).hand) == 2


def test_known_failure_never_not_enough_cards_the_deck_reshuffles_mid_deal() -> None:
    """R25: with 1 card in the deck and 12 combatants to deal, the deal reshuffles and
    everyone gets their cards."""
    crowd = [jim(cid=f"c{i}", name=f"Hand {i}") for i in range(12)]
    state = fight(*crowd)
    state = totals(state, {f"c{i}": 13 for i in range(12)})
    stock = (FULL_DECK[0],)
    state = replace(state, deck=Deck(stock, FULL_DECK[1:]))
    out = step(state, DealRound())
    black = 1 if any(d.who == DEALER for d in out.state.fate_draws) else 0
    assert sum(len(c.hand) for c in out.state.combatants) == 36 - black  # R25: not replaced
    assert all(len(c.hand) >= 2 for c in out.state.combatants)
    assert sum("shuffled together" in e for e in out.events) >= 1


def test_known_failure_both_jokers_treated_alike_red_in_hand_black_gone() -> None:
    """R25: see test_r25_both_jokers_are_not_alike; here the order puts the red one first."""
    assert in_action_order([BLACK_JOKER, RED_JOKER]) == [RED_JOKER, BLACK_JOKER]
    state = dealt(fight(), TOTALS, "RJ BJ 9♦ K♥ 3♠ 10♣ 10♠ 10♥ 10♦").state
    assert hand(state, JIM) == "RJ 9♦"
    assert [d.who for d in state.fate_draws] == [JIM, DEALER]


def test_all_cards_counts_the_table_the_sleeves_and_the_hands() -> None:
    state = dealt(fight(), TOTALS, TOP).state
    state = step(state, Act(JIM, "shoots")).state
    state = step(state, Sleeve(KATE)).state
    assert sorted(c.index for c in all_cards(state)) == list(range(54))
    assert len(state.table) == 1


def test_a_combatant_can_join_and_leave_a_fight_under_way() -> None:
    """A newcomer gets cards from the next deal; a fallen combatant's cards (sleeve included)
    go to the discards, and it makes no more moves and is dealt no more cards."""
    state = dealt(fight(), TOTALS, TOP).state
    state = step(state, Act(JIM, "shoots")).state
    state = step(state, Sleeve(KATE)).state
    out = step(state, Join(gang()))
    assert out.events == ("3 Pinkertons join the fight: cards from the next round.",)
    state = out.state
    refused(state, Join(gang()), "already in this fight")
    out = step(state, Leave(KATE))
    state = out.state
    assert "Kate leaves the fight: 3♠ K♥ go to the discards." in out.events
    assert state.combatant(KATE).sleeve is None
    assert state.combatant(KATE).out
    refused(state, SetCap(KATE, 3), "has left the fight")
    refused(state, Leave(KATE), "has left the fight")
    state = step(state, EndRound()).state
    assert [c.cid for c in quickness_needed(state)] == [JIM, BART, GANG]
    out = dealt(state, {JIM: 13, BART: 17, GANG: 9}, "4♣ 4♦ 4♥ 4♠ 5♣ 5♦ 5♥ 5♠ 6♣")
    assert out.events[0] == "Round 2 dealt: Jim 3, Black Bart 4, 3 Pinkertons 2."
    assert out.state.combatant(KATE).hand == ()


def test_one_who_left_can_come_back_holding_nothing_and_a_surprised_joiner_rolls_guts_R26() -> None:
    """The Dealer brings Kate back after she fled: as new (no card, no sleeve), cards from the
    next deal; a surprised newcomer after round 1 must pass Guts before any card (R26)."""
    state = dealt(fight(), TOTALS, TOP).state
    state = step(state, Leave(KATE)).state
    out = step(state, Join(kate()))
    assert out.events == ("Kate is back in the fight: cards from the next round.",)
    state = out.state
    assert not state.combatant(KATE).out
    assert state.combatant(KATE).hand == ()
    assert state.combatant(KATE).sleeve is None
    check_conserved(state)
    refused(state, Join(kate()), "already in this fight")
    out = step(state, Join(gang(surprised=True)))
    assert out.events == (
        "3 Pinkertons join the fight: cards from the next round. Surprised (R26).",
    )
    state = step(out.state, EndRound()).state
    assert GANG in [c.cid for c in quickness_needed(state)]
    refused(state, Quickness(GANG, 9), "Guts")


def test_typed_dice_faces_that_are_not_numbers_are_refused() -> None:
    refused(fight(), Quickness(JIM, 6, dice=(("six",),)), "whole number")  # type: ignore[arg-type]
    refused(fight(), Quickness(JIM, 6, dice=(6,)), "list of each die")  # type: ignore[arg-type]


def test_an_action_speed_or_roll_outside_the_rules_is_refused_in_plain_words() -> None:
    state = dealt(fight(), TOTALS, TOP).state
    refused(state, Act(JIM, "x", speed="quick"), "simple, short or extended")  # type: ignore[arg-type]
    refused(state, Act(JIM, 12), "in words")  # type: ignore[arg-type]
    state = step(state, Act(JIM, "shoots")).state
    state = step(state, Sleeve(KATE)).state
    state = step(state, Act(BART, "draws")).state
    refused(
        state,
        Act(KATE, card=parse_card("K♥"), interrupt=True, opposed="great"),  # type: ignore[arg-type]
        "fails, succeeds or makes a raise",
    )
    out = step(state, Act(KATE, card=parse_card("K♥"), interrupt=True, opposed="raise"))  # type: ignore[arg-type]
    assert out.state.table[-1].opposed == Opposed.RAISE


def test_r25_an_unplayed_red_joker_is_discarded_at_the_end_of_the_round() -> None:
    state = dealt(fight(), TOTALS, "2♣ A♠ 9♦ RJ 3♠ 10♣ 10♠ 10♥ 10♦").state
    out = step(state, EndRound())
    assert RED_JOKER in out.state.deck.discards
    assert "Not played by Kate, to the discards: RJ 3♠ (it drew a" in " ".join(out.events)
    assert out.state.fate_draws[0].revealed  # the joker is public now: so is its draw


def test_it_counts_the_rounds_dealt_when_the_fight_ends_between_rounds() -> None:
    """R31: after round 3 ends the next round is open but not dealt; the fight lasted 3."""
    state = fight()
    for _ in range(3):
        state = dealt(state, TOTALS, TOP).state
        state = step(state, EndRound()).state
    assert state.round == 4
    out = step(state, EndFight())
    assert "The fight ends after 3 rounds." in out.events
    assert out.state.round == 3  # the session page's "over after round 3"
    assert rounds_fought(out.state) == 3


def test_it_counts_the_round_under_way_when_the_fight_ends_mid_countdown() -> None:
    """R31: ending during round 1's countdown: one round fought, in the singular."""
    state = dealt(fight(), TOTALS, TOP).state
    out = step(state, EndFight())
    assert "The fight ends after 1 round." in out.events
    assert rounds_fought(out.state) == 1


def test_it_says_no_round_was_dealt_when_the_fight_ends_before_the_first_deal() -> None:
    out = step(fight(), EndFight())
    assert "The fight ends before a card is dealt." in out.events


def test_a_line_of_several_extras_is_spoken_of_in_the_plural() -> None:
    """Plural: "2 Deputies' card is up", "2 Deputies roll", never "Deputies's" or "joins"."""
    deputies = gang(cid="dep", name="2 Deputies", size=2)
    state = fight(jim(), deputies)
    assert deputies.whose == "2 Deputies'"
    assert jim().whose == "Jim's"
    assert gang(cid="one", name="1 Deputy", size=1).does("joins", "join") == "1 Deputy joins"
    out = step(state, Quickness("dep", 8))
    assert out.events == ("2 Deputies roll 8 for Quickness: 2 cards.",)
    out = step(state, Join(gang(cid="more", name="3 Pinkertons", size=3)))
    assert out.events[0].startswith("3 Pinkertons join the fight")
