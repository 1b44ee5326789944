"""The saloon's rules, one test per rule of seed 000 ("Death Enters the Saloon"), and its
examples (Greta's eight cards, Daniele the first Doomed by the 3♣, the black joker round the
table, the three duels). S-rulings are the engine's readings where the seed is silent
(saloon/engine/game.py)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from cards.deck import BLACK_JOKER, RED_JOKER
from saloon.engine import game as g
from saloon.engine import tables
from tests.saloon.kit import card, cards, playing, seated, table

RNG = random.Random(7)


def go(state: g.SaloonState, *moves: g.Move) -> g.SaloonState:
    for move in moves:
        state = g.apply(state, move, RNG).state
        assert g.conserved(state)
    return state


def refused(state: g.SaloonState, move: g.Move, words: str) -> None:
    with pytest.raises(g.IllegalMove, match=words):
        g.apply(state, move, RNG)


def discarding(hands: dict[str, str], done: tuple[str, ...] = ()) -> g.SaloonState:
    """The set-up, cards dealt as given (the rest on the discard pile)."""
    state = seated(hands, g.Phase.DISCARD)
    return replace(state, players=tuple(replace(p, discarded=p.pid in done) for p in state.players))


# --- Set-up ------------------------------------------------------------------------------


def test_it_gives_each_player_a_face_card_archetype_and_deals_out_the_numbered_cards() -> None:
    state = table(3)
    faces = [p.archetype for p in state.players]
    assert len(set(faces)) == 3
    assert all(f in g.FACE_CARDS for f in faces)
    assert state.phase == g.Phase.DISCARD
    assert sorted(len(p.hand) for p in state.players) == [13, 13, 14]  # someone has an extra
    assert all(c in g.NUMBERED for p in state.players for c in p.hand)
    assert {BLACK_JOKER, RED_JOKER} <= set(state.aside)  # no jokers in the deal
    assert g.conserved(state)


@pytest.mark.parametrize("players", [2, 6])
def test_it_is_for_three_to_five_players(players: int) -> None:
    seats = [(f"p{i}", f"P{i}") for i in range(players)]
    with pytest.raises(g.IllegalMove, match="3 to 5 players"):
        g.new_game(seats, RNG)


def test_it_follows_table_1() -> None:
    assert tables.TABLE_1[card("K♥")] == "Doctor"
    assert tables.TABLE_1[card("J♠")] == "Undertaker"
    assert len(tables.TABLE_1) == 12
    assert "CC BY-SA 4.0" in tables.CREDIT
    assert "Greta Bellagamba and Daniele Di Rubbo" in tables.CREDIT


def test_it_lets_each_player_pick_an_archetype_by_the_alternative_rule() -> None:
    state = table(3, pick=True)
    assert state.phase == g.Phase.ARCHETYPES
    state = go(state, g.PickArchetype("a", card("J♠")))
    refused(state, g.PickArchetype("b", card("J♠")), "Undertaker is taken")
    refused(state, g.PickArchetype("b", card("7♠")), "face card")
    refused(state, g.PickArchetype("a", card("K♥")), "already have")
    state = go(state, g.PickArchetype("b", card("J♣")), g.PickArchetype("d", card("Q♠")))
    assert state.phase == g.Phase.DISCARD
    assert state.player("b").role == "the Sheriff"


def test_it_lets_characters_be_named() -> None:
    state = go(table(3), g.NameCharacter("a", "  Ada   Grim "))
    assert state.player("a").character == "Ada Grim"
    assert state.player("a").role == "Ada Grim"


def test_greta_discards_her_pairs_and_keeps_the_seven_of_hearts() -> None:
    """Example 1: 8♦ 7♥ 7♦ 7♠ 4♠ 3♦ 2♥ 2♦ → the 2s go, of the 7s the 7♥ stays (the highest
    suit: hearts > diamonds > clubs > spades)."""
    hand = cards("8♦ 7♥ 7♦ 7♠ 4♠ 3♦ 2♥ 2♦")
    assert g.proposed_keep(hand) == (card("7♥"),)
    assert set(g.after_discard(hand)) == set(cards("8♦ 7♥ 4♠ 3♦"))
    assert set(g.after_discard(hand, (card("7♠"),))) == set(cards("8♦ 7♠ 4♠ 3♦"))
    with pytest.raises(g.IllegalMove, match="not part of a three of a kind"):
        g.after_discard(hand, (card("8♦"),))
    assert g.after_discard(cards("5♥ 5♦ 5♣ 5♠ 9♣")) == (card("9♣"),)  # four: two pairs


def test_it_discards_on_the_uncovered_pile_and_waits_for_everyone() -> None:
    state = discarding({"a": "8♦ 7♥ 7♦ 7♠ 4♠ 3♦ 2♥ 2♦", "b": "9♥ 9♦ 5♠", "d": "A♥ 10♠ 6♦"})
    state = go(state, g.Discard("a", (card("7♦"),)))
    assert set(state.player("a").hand) == set(cards("8♦ 7♦ 4♠ 3♦"))
    assert {card("7♥"), card("7♠"), card("2♥"), card("2♦")} <= set(state.discards)
    refused(state, g.Discard("a"), "already discarded")
    assert state.phase == g.Phase.DISCARD


def test_the_most_cards_gets_the_gaze_of_death() -> None:
    state = discarding({"a": "8♦ 4♠ 3♦", "b": "9♥ 5♠ 6♣ 2♠", "d": "A♥ 10♠"}, done=("a", "d"))
    state = go(state, g.Discard("b"))
    assert state.phase == g.Phase.PLAY
    assert state.doomed == "b"
    assert state.red_joker == "b"  # in front of them
    assert BLACK_JOKER in state.player("b").hand  # in their hand
    assert state.turn is not None
    assert state.turn.drawer == "d"  # the player to the Doomed's left


def test_daniele_is_the_first_doomed_by_the_three_of_clubs() -> None:
    """Example 2: Greta and Daniele both keep six cards; Greta's lowest is the 3♦, Daniele's the
    3♣; clubs is lower than diamonds, so Daniele is the first Doomed. The lowest cards are
    shown to everyone."""
    state = discarding(
        {"gr": "3♦ 5♥ 6♥ 8♠ 10♦ A♣", "d": "3♣ 4♥ 7♠ 9♦ 10♥ A♠", "a": "2♠ 4♣"},
        done=("gr", "a"),
    )
    state = go(state, g.Discard("d"))
    assert state.doomed == "d"
    assert {card("3♦"), card("3♣")} <= g.public_cards(state)
    assert g.lowest_card(cards("A♠ 2♣ 2♥")) == card("2♣")  # A is the highest value


def test_a_player_who_discards_everything_causes_a_new_deal_and_starts_as_the_doomed() -> None:
    state = discarding({"a": "8♦ 8♠ 4♠ 4♦", "b": "9♥ 5♠ 6♣ 2♠", "d": "A♥ 10♠"})
    state = go(state, g.Discard("a"))
    assert state.phase == g.Phase.DISCARD
    assert state.appointed == "a"
    assert sum(len(p.hand) for p in state.players) == 40  # all withdrawn, dealt again
    assert not state.discards
    for p in state.players:
        state = go(state, g.Discard(p.pid))
        if state.phase != g.Phase.DISCARD:
            break
    if state.phase == g.Phase.SWAP:  # several tied on the most: the appointed one chooses
        top = max(len(p.hand) for p in state.players)
        other = next(p.pid for p in state.players if len(p.hand) == top)
        refused(state, g.SwapWith("b", other), "chooses whose hand")
        state = go(state, g.SwapWith("a", other))
    if state.phase == g.Phase.PLAY:
        assert state.doomed == "a"
        numbered = [c for c in state.player("a").hand if c != BLACK_JOKER]
        assert len(numbered) == max(
            len([c for c in p.hand if c != BLACK_JOKER]) for p in state.players
        )


def test_the_appointed_doomed_exchanges_hands_with_the_one_with_most_cards() -> None:
    state = replace(
        discarding({"a": "8♦ 4♠", "b": "9♥ 5♠ 6♣ 2♠", "d": "A♥ 10♠ 7♣"}, done=("b", "d")),
        appointed="a",
    )
    state = go(state, g.Discard("a"))
    assert state.doomed == "a"
    assert set(state.player("a").hand) == set(cards("9♥ 5♠ 6♣ 2♠ BJ"))
    assert set(state.player("b").hand) == set(cards("8♦ 4♠"))


def test_the_appointed_doomed_chooses_among_tied_hands() -> None:
    state = replace(
        discarding({"a": "8♦ 4♠", "b": "9♥ 5♠ 6♣", "d": "A♥ 10♠ 7♣"}, done=("b", "d")),
        appointed="a",
    )
    state = go(state, g.Discard("a"))
    assert state.phase == g.Phase.SWAP
    refused(state, g.SwapWith("a", "a"), "most cards")
    state = go(state, g.SwapWith("a", "d"))
    assert state.doomed == "a"
    assert set(state.player("d").hand) == set(cards("8♦ 4♠"))


# --- A turn ------------------------------------------------------------------------------


def five() -> g.SaloonState:
    """Examples 3.1/3.2: Alessio is the Doomed; Benedetta (on his left) draws next."""
    return playing(
        {"a": "7♠ 9♣ 4♦ BJ", "b": "7♣ 2♥", "d": "8♣ 3♠", "gr": "5♦ 6♠", "v": "10♦ 9♥"}, "a"
    )


def position(state: g.SaloonState, text: str) -> int:
    return state.player(state.doomed).hand.index(card(text))


def test_a_pair_is_discarded_and_the_doomed_gets_the_table_2_question() -> None:
    state = five()
    state = go(state, g.Draw("b", position(state, "7♠")))
    assert {card("7♠"), card("7♣")} <= set(state.discards)
    assert state.player("b").hand == cards("2♥")
    assert state.turn is not None
    assert state.turn.step == g.Step.ASK
    assert state.turn.table == 2
    refused(state, g.Prompt("b"), "Fill the")  # the *** needs a character
    refused(state, g.Prompt("b", subject_pid="a"), "for the Doomed")
    refused(state, g.Prompt("b", subject_pid="b"), "another character")
    outcome = g.apply(state, g.Prompt("b", subject_pid="v", text="Tell us."), RNG)
    assert outcome.entries[0].text.endswith("“You hurt the Undertaker’s feelings. How?”") or (
        "’s feelings. How?”" in outcome.entries[0].text
    )
    assert outcome.entries[0].said == "Tell us."
    state = outcome.state
    assert state.turn is not None
    assert state.turn.step == g.Step.ANSWER
    assert state.turn.answerer == "a"


def test_two_follow_ups_clockwise_then_the_extra_question_for_the_brought_up_player() -> None:
    """Example 3.1: Daniele and Greta follow up; Vanessa's Sheriff was brought up, so she asks
    a third question."""
    state = five()
    state = go(
        state,
        g.Draw("b", position(state, "7♠")),
        g.Prompt("b", subject_pid="v"),
        g.Answer("a", "For some time we had a love affair."),
    )
    assert state.turn is not None
    assert state.turn.offer == "d"  # from Benedetta's left
    state = go(state, g.FollowUp("d", "So did you just take advantage of her?"))
    refused(state, g.FollowUp("gr"), "Waiting for Alessio to answer")
    state = go(state, g.Answer("a"))
    assert state.turn is not None
    assert state.turn.offer == "gr"
    state = go(state, g.FollowUp("gr", "Do you regret this decision?"), g.Answer("a"))
    assert state.turn is not None
    assert state.turn.offer == "v"
    assert state.turn.extra
    state = go(state, g.FollowUp("v", "Your highlight memory?"), g.Answer("a"))
    assert state.turn is not None
    assert state.turn.step == g.Step.DRAW
    assert state.turn.drawer == "d"  # the turn passes


def test_no_extra_question_for_one_who_already_asked() -> None:
    """Example 3.2: the Fortune Teller (Daniele) was brought up, but Daniele asked the first
    follow-up: no further questions."""
    state = five()
    state = go(
        state,
        g.Draw("b", position(state, "7♠")),
        g.Prompt("b", subject_pid="d"),
        g.Answer("a"),
        g.FollowUp("d"),
        g.Answer("a"),
    )
    refused(state, g.FollowUp("d"), "already asked your follow-up")
    state = go(state, g.FollowUp("gr"), g.Answer("a"))
    assert state.turn is not None
    assert state.turn.step == g.Step.DRAW
    assert state.turn.drawer == "d"


def test_passing_moves_the_follow_up_on_and_nobody_answers_their_own() -> None:
    state = five()
    state = go(state, g.Draw("b", position(state, "7♠")), g.Prompt("b", subject="the blacksmith"))
    state = go(state, g.Answer("a"), g.Pass("d"), g.Pass("gr"), g.Pass("v"))
    assert state.turn is not None
    assert state.turn.step == g.Step.DRAW  # the Doomed and the asker are never offered one


def test_no_pair_keeps_the_card_and_clears_the_name_with_table_3() -> None:
    state = five()
    state = go(state, g.Draw("b", position(state, "9♣")))
    assert card("9♣") in state.player("b").hand
    assert state.turn is not None
    assert state.turn.step == g.Step.CLEAR
    outcome = g.apply(state, g.Prompt("b", subject_pid="a"), RNG)  # the Doomed may be named
    assert "I am a good person because I testified in favour of the " in outcome.entries[0].text
    state = outcome.state
    assert state.turn is not None
    assert state.turn.answerer == "b"  # the drawer answers the follow-ups
    assert state.turn.offer == "d"
    state = go(state, g.Pass("d"), g.Pass("gr"), g.Pass("v"))
    assert state.turn is not None
    assert state.turn.offer == "a"  # the Doomed may ask here
    state = go(state, g.FollowUp("a"), g.Answer("b"))
    assert state.turn is not None
    assert state.turn.step == g.Step.DRAW


def test_cues_without_a_gap_need_no_character() -> None:
    state = playing({"a": "6♠ 9♣ BJ", "b": "7♣ 2♥", "d": "8♣ 3♠"}, "a")
    state = go(state, g.Draw("b", position(state, "6♠")), g.Prompt("b"))
    assert state.turn is not None
    assert state.turn.step == g.Step.FOLLOW_UP


def test_the_black_joker_makes_the_drawer_the_new_doomed() -> None:
    state = five()
    state = go(state, g.Draw("b", position(state, "BJ")))
    assert state.doomed == "b"
    assert state.red_joker == "b"
    assert BLACK_JOKER in state.player("b").hand
    assert BLACK_JOKER not in state.player("a").hand
    assert state.turn is not None
    assert state.turn.drawer == "d"  # the player to the new Doomed's left


def test_the_black_joker_round_the_table_and_death_leaves() -> None:
    """Example 4: Benedetta is the Doomed; Daniele, Greta, then Benedetta draw the black
    joker: Death leaves the saloon without taking anyone."""
    state = playing({"b": "4♦ BJ", "d": "8♣ 3♠", "gr": "5♦ 6♠"}, "b")
    state = go(state, g.Draw("d", position(state, "BJ")))
    state = go(state, g.Draw("gr", position(state, "BJ")))
    assert state.phase == g.Phase.PLAY
    state = go(state, g.Draw("b", position(state, "BJ")))
    assert state.phase == g.Phase.OVER
    assert state.ending == g.Ending.DEATH_LEAVES
    assert not state.dead


def test_a_joker_bounced_straight_back_has_not_gone_round_the_table() -> None:
    """Benedetta is the Doomed; Greta (second in the round) draws the black joker; Benedetta,
    on Greta's left, draws it back: Daniele never held it, so Death stays. Once it has passed
    through Daniele too and comes back to Benedetta, Death leaves."""
    state = playing({"b": "4♦ 9♣ BJ", "d": "8♣ 3♠", "gr": "5♦ 6♠"}, "b", drawer="gr")
    state = go(state, g.Draw("gr", position(state, "BJ")))
    assert state.turn is not None
    assert state.turn.drawer == "b"
    state = go(state, g.Draw("b", position(state, "BJ")))
    assert state.phase == g.Phase.PLAY
    state = go(state, g.Draw("d", position(state, "BJ")))
    state = go(state, g.Draw("gr", position(state, "BJ")))
    assert state.phase == g.Phase.PLAY
    state = go(state, g.Draw("b", position(state, "BJ")))
    assert state.ending == g.Ending.DEATH_LEAVES


def test_a_safe_player_is_not_waited_for_round_the_table() -> None:
    """S6: a safe player draws no more, so the black joker goes round the players still
    holding cards: Greta is safe; Daniele draws it from Benedetta, Benedetta draws it back."""
    state = playing({"b": "4♦ 9♣ BJ", "d": "8♣ 3♠", "gr": ""}, "b")
    state = go(state, g.Draw("d", position(state, "BJ")))
    assert state.turn is not None
    assert state.turn.drawer == "b"  # Greta, on Daniele's left, is safe: skipped
    state = go(state, g.Draw("b", position(state, "BJ")))
    assert state.ending == g.Ending.DEATH_LEAVES


def test_an_interruption_starts_the_joker_round_again() -> None:
    state = playing({"b": "4♦ BJ", "d": "8♣ 3♠", "gr": "5♦ 6♠ 4♣"}, "b")
    state = go(state, g.Draw("d", position(state, "BJ")))
    state = go(state, g.Draw("gr", position(state, "8♣")), g.Prompt("gr", subject="a cook"))
    state = go(state, g.Pass("b"), g.Pass("d"))
    state = go(state, g.Draw("b", position(state, "BJ")))
    assert state.phase == g.Phase.PLAY  # the run began again at Greta's draw


def test_the_doomed_with_only_the_black_joker_dies_after_the_last_interaction() -> None:
    state = playing({"a": "7♠ BJ", "b": "7♣ 2♥", "d": "8♣ 3♠ 2♦"}, "a")
    state = go(state, g.Draw("b", position(state, "7♠")))
    assert state.turn is not None
    assert state.turn.final
    assert state.phase == g.Phase.PLAY  # the last interaction is played normally
    state = go(state, g.Prompt("b", subject_pid="d"), g.Answer("a"), g.Pass("d"))
    # R34: Daniele's character was brought up and passing is not asking: the extra is his.
    assert state.phase == g.Phase.PLAY
    assert state.turn is not None
    assert state.turn.extra
    state = go(state, g.Pass("d"))
    assert state.phase == g.Phase.OVER
    assert state.ending == g.Ending.TAKEN
    assert state.dead == "a"


def test_a_player_with_no_cards_is_safe_and_may_still_follow_up() -> None:
    state = playing({"a": "7♠ 9♣ 4♦ BJ", "b": "7♣", "d": "8♣ 2♠", "gr": "4♥ 8♥"}, "a")
    state = go(state, g.Draw("b", position(state, "7♠")))
    assert state.is_safe("b")
    state = go(state, g.Prompt("b", subject="the cook"), g.Answer("a"), g.Pass("d"), g.Pass("gr"))
    assert state.turn is not None
    assert state.turn.drawer == "d"
    state = go(state, g.Draw("d", position(state, "9♣")), g.Prompt("d", subject="the cook"))
    assert state.turn is not None
    assert state.turn.offer == "gr"
    state = go(state, g.Pass("gr"))
    assert state.turn is not None
    assert state.turn.offer == "a"
    state = go(state, g.Pass("a"))
    assert state.turn is not None
    assert state.turn.offer == "b"  # safe, still asks
    state = go(state, g.Pass("b"))
    assert state.turn is not None
    assert state.turn.drawer == "gr"  # never b again: safe players do not draw
    refused(state, g.Leave("d"), "Only a safe character")
    state = go(state, g.Leave("b"))
    assert state.player("b").left


# --- The duel ----------------------------------------------------------------------------


def test_two_players_with_three_cards_between_them_duel() -> None:
    """The third ending: Greta draws the 7♣ and pairs it; Alessio has nothing left; Daniele
    (A♥ and the black joker) and Greta (A♠) are the last two with three cards."""
    state = playing({"d": "A♥ BJ 7♣", "gr": "A♠ 7♦", "a": ""}, "d", drawer="gr")
    state = go(state, g.Draw("gr", position(state, "7♣")), g.Prompt("gr", subject="the cook"))
    state = go(state, g.Answer("d"), g.Pass("a"))
    assert state.phase == g.Phase.DUEL
    assert state.duel == g.Duel(target="d", shooter="gr")


def dueling() -> g.SaloonState:
    """Examples 5.x: Daniele (the Doomed) has the A♥ and the black joker; Greta the A♠."""
    state = playing({"d": "A♥ BJ", "gr": "A♠", "a": ""}, "d", drawer="gr")
    return g._start_turn(state, "gr").state


def test_example_5_1_both_miss_and_death_vanishes() -> None:
    state = dueling()
    assert state.duel == g.Duel(target="d", shooter="gr")
    refused(state, g.Shoot("d", 0), "Greta’s shot")
    refused(state, g.Shoot("gr", 2), "two cards")
    state = go(state, g.Shoot("gr", position(state, "BJ")))
    assert state.phase == g.Phase.DUEL
    assert state.duel == g.Duel(target="gr", shooter="d", shots=1)  # the roles switch
    assert set(state.player("gr").hand) == set(cards("A♠ BJ"))
    state = go(state, g.Shoot("d", position(state, "BJ")))
    assert state.ending == g.Ending.VANISHED
    assert not state.dead


def test_example_5_2_the_first_shot_hits() -> None:
    state = dueling()
    state = go(state, g.Shoot("gr", position(state, "A♥")))
    assert state.ending == g.Ending.SHOT
    assert state.dead == "d"
    assert {card("A♥"), card("A♠")} <= set(state.discards)


def test_example_5_3_a_miss_then_a_hit() -> None:
    state = dueling()
    state = go(state, g.Shoot("gr", position(state, "BJ")))
    state = go(state, g.Shoot("d", position(state, "A♠")))
    assert state.ending == g.Ending.SHOT
    assert state.dead == "gr"


def test_after_the_duel_only_the_duellists_speak() -> None:
    state = dueling()
    state = go(state, g.Shoot("gr", position(state, "A♥")))
    state = go(state, g.Tell("d", "Finally, the time has come."), g.Tell("gr", "Bang."))
    refused(state, g.Tell("a", "And then…"), "without anyone adding")


# --- The Unwanted card -------------------------------------------------------------------


def test_the_unwanted_card_pauses_play_until_its_raiser_lowers_it() -> None:
    state = go(five(), g.RaiseUnwanted("d"))
    assert state.unwanted == "d"
    refused(state, g.Draw("b", 0), "paused")
    refused(state, g.RaiseUnwanted("b"), "already up")
    refused(state, g.LowerUnwanted("b"), "Only Daniele")
    state = go(state, g.LowerUnwanted("d"))
    assert not state.unwanted
    state = go(state, g.Draw("b", 0))


def test_while_the_unwanted_card_is_up_what_was_said_can_be_struck() -> None:
    """S4, the seed: raise it, then "discuss together on how to change or delete what was
    said". Its raiser strikes any words, whoever said them strikes their own; nobody else, and
    not while the card is down."""
    state = five()
    refused(state, g.Strike("d", author="d"), "only while the Unwanted card is up")
    up = go(state, g.RaiseUnwanted("d"))
    struck = g.apply(up, g.Strike("d", author="b"))  # the raiser, someone else's words
    assert struck.state == up  # play stays paused: nothing else changes
    assert struck.entries[0].text == "Daniele strikes words from the story."
    assert g.apply(up, g.Strike("b", author="b")).state == up  # one's own words
    refused(up, g.Strike("b", author="a"), "Only Daniele, who raised the Unwanted card")
    refused(up, g.Draw("b", 0), "paused")


def test_a_struck_initial_question_is_asked_again_with_a_new_star_R34() -> None:
    """S4/R34: the "***" filled with someone may be what made it unwanted; struck, the drawer
    asks again with a new "***" (the answer that hung on it goes too)."""
    state = five()
    state = go(state, g.Draw("b", position(state, "7♠")), g.Prompt("b", subject_pid="v"))
    state = go(state, g.RaiseUnwanted("a"))
    assert state.turn is not None
    assert state.turn.subject_pid == "v"
    assert g.apply(state, g.Strike("a", author="b")).state == state  # an older line's words
    outcome = g.apply(state, g.Strike("a", author="b", prompt=True))
    struck = outcome.state
    assert struck.turn is not None
    assert (struck.turn.subject, struck.turn.subject_pid) == ("", "")
    assert struck.turn.step == g.Step.ASK
    assert struck.turn.card == card("7♠")
    assert outcome.entries[-1].text == "Benedetta asks again, with a new “***”."
    refused(struck, g.Prompt("b", subject="the widow"), "paused")  # the card is still up
    state = go(struck, g.LowerUnwanted("a"), g.Prompt("b", subject="the widow"))
    assert state.turn is not None
    assert (state.turn.subject, state.turn.step) == ("the widow", g.Step.ANSWER)


def test_a_pass_is_not_an_asked_question_the_extra_still_comes_R34() -> None:
    """The seed: the brought-up player "always has the right to ask the Doomed an extra question
    (up to a maximum of three), provided that they have not already asked one". Vanessa's
    Sheriff is brought up; she passes her follow-up in the round, and the extra is still hers."""
    state = five()
    state = go(
        state,
        g.Draw("b", position(state, "7♠")),
        g.Prompt("b", subject_pid="v"),
        g.Answer("a"),
        g.FollowUp("d"),
        g.Answer("a"),
        g.Pass("gr"),
        g.Pass("v"),  # her turn in the round: a pass
    )
    assert state.turn is not None
    assert (state.turn.offer, state.turn.extra) == ("v", True)
    state = go(state, g.FollowUp("v", "Why the Sheriff?"), g.Answer("a"))
    assert state.turn is not None
    assert state.turn.step == g.Step.DRAW


def test_the_answer_and_a_cue_without_a_star_bring_up_a_character_R34() -> None:
    """R34: a character is brought up by the initial question, by its answer, or by a table-3
    cue with or without "***" (rows 6, 4, 2): its player may take the extra question."""
    state = five()
    state = go(
        state,
        g.Draw("b", position(state, "7♠")),
        g.Prompt("b", subject="the widow"),
    )
    refused(state, g.Answer("a", brought_up="a"), "another player")
    state = go(state, g.Answer("a", "Greta’s gambler saw it all.", brought_up="gr"))
    state = go(state, g.FollowUp("d"), g.Answer("a"), g.Pass("gr"), g.Pass("v"))
    assert state.turn is not None
    assert (state.turn.offer, state.turn.extra) == ("gr", True)
    asked = go(state, g.FollowUp("gr"))
    refused(asked, g.Answer("a", brought_up="v"), "Only the answer to the initial question")
    # A table-3 cue without "***": row 6, "If I died, this community would be lost…".
    cue = playing({"a": "6♠ 9♣ BJ", "b": "7♣ 2♥", "d": "8♣ 3♠", "gr": "5♦ 4♠"}, "a")
    cue = go(cue, g.Draw("b", position(cue, "6♠")))
    assert cue.turn is not None
    assert (cue.turn.table, cue.turn.step) == (3, g.Step.CLEAR)
    assert not tables.needs_subject(3, 6)
    cue = go(cue, g.Prompt("b", text="The town needs its doctor.", brought_up="gr"))
    cue = go(cue, g.Pass("d"), g.Pass("gr"), g.Pass("a"))
    assert cue.turn is not None
    assert (cue.turn.offer, cue.turn.extra) == ("gr", True)
    cue = go(cue, g.Pass("gr"))
    assert cue.turn is not None
    assert cue.turn.step == g.Step.DRAW


def test_the_unwanted_card_is_there_in_every_phase() -> None:
    for state in (table(3, pick=True), table(3)):
        assert go(state, g.RaiseUnwanted("a")).unwanted == "a"


# --- Bad input: plain refusals -----------------------------------------------------------


def test_it_refuses_bad_input_in_plain_words() -> None:
    state = five()
    refused(state, g.Draw("d", 0), "Benedetta’s turn to draw")  # out of turn
    refused(state, g.Draw("b", 4), "no card there")  # a card index that is not there
    refused(state, g.Draw("b", -1), "no card there")
    refused(state, g.Draw("zz", 0), "not at this table")
    state = go(state, g.Draw("b", position(state, "9♣")))
    refused(state, g.Draw("b", 0), "clear their name")  # a second draw
    refused(state, g.Answer("a"), "clear their name")
    refused(state, g.Shoot("b", 0), "not part of a turn|duel|only")


# --- Continue after the ending -----------------------------------------------------------


def test_play_can_continue_a_year_and_a_day_later() -> None:
    state = dueling()
    state = go(state, g.Shoot("gr", position(state, "A♥")))
    dead_before = state.player("d").archetype
    refused(state, g.Continue("d", dead_before), "nobody plays")
    outcome = g.apply(state, g.Continue("gr"), RNG)
    assert outcome.entries[0].text == tables.YEAR_AND_A_DAY
    state = outcome.state
    assert state.phase == g.Phase.DISCARD
    assert state.player("d").archetype != dead_before
    assert state.year == 1
    assert g.conserved(state)
