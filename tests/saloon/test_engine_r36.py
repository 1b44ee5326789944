"""R36, the saloon settled: one extra question a turn, offered in the order the characters were
brought up (a pass hands it on; once one asks, no one else is offered it); the host lowers the
Unwanted card seated or not; "***" brings up that character only; the answer to a follow-up
brings no one up; nobody brings up their own character or the drawer's."""

from __future__ import annotations

from saloon.engine import game as g
from saloon.engine.serial import state_from_data, state_to_data
from tests.saloon.test_engine import five, go, position, refused


def brought_up_two() -> g.SaloonState:
    """Benedetta draws the 7♠ (a pair) and asks Alessio, the Doomed, with Vanessa's Sheriff in
    the "***"; Alessio's answer brings up Greta's character. Nobody asks in the round."""
    state = five()
    state = go(
        state,
        g.Draw("b", position(state, "7♠")),
        g.Prompt("b", subject_pid="v"),
        g.Answer("a", "Greta saw it.", brought_up="gr"),
        g.Pass("d"),
        g.Pass("gr"),
        g.Pass("v"),
    )
    assert state.turn is not None
    assert state.turn.brought_up == ("gr",)
    return state


def test_r36_one_extra_question_a_turn_once_one_asks_no_one_else_is_offered() -> None:
    """R36: offered first to Vanessa (brought up first, by the "***"); she asks it: Greta,
    brought up too, is not offered another, and the turn passes."""
    state = brought_up_two()
    assert state.turn is not None
    assert (state.turn.offer, state.turn.extra) == ("v", True)
    state = go(state, g.FollowUp("v", "Why the Sheriff?"), g.Answer("a"))
    assert state.turn is not None
    assert state.turn.step == g.Step.DRAW
    assert state.turn.drawer == "d"


def test_r36_a_pass_hands_the_extra_question_to_the_next_brought_up() -> None:
    """R36: Vanessa passes the extra question: it goes to Greta, who asks it; then the turn
    passes."""
    state = go(brought_up_two(), g.Pass("v"))
    assert state.turn is not None
    assert (state.turn.offer, state.turn.extra) == ("gr", True)
    state = go(state, g.FollowUp("gr"), g.Answer("a"))
    assert state.turn is not None
    assert state.turn.step == g.Step.DRAW


def test_r36_who_asked_the_extra_question_survives_json() -> None:
    state = go(brought_up_two(), g.FollowUp("v"))
    back = state_from_data(state_to_data(state))
    assert back == state
    assert back.turn is not None
    assert back.turn.extra_by == "v"


def test_r36_what_brings_a_character_up() -> None:
    """R36: a question with "***" brings up that character only; the answer to a follow-up
    brings no one up; nobody brings up their own character or the drawer's."""
    state = five()
    state = go(state, g.Draw("b", position(state, "7♠")))
    refused(state, g.Prompt("b", subject_pid="v", brought_up="gr"), "The “\\*\\*\\*” names")
    refused(state, g.Prompt("b", subject_pid="b"), "another character than your own")
    state = go(state, g.Prompt("b", subject_pid="v"))
    refused(state, g.Answer("a", brought_up="a"), "another player")  # the Doomed's own
    refused(state, g.Answer("a", brought_up="b"), "another player")  # the drawer's
    state = go(state, g.Answer("a"), g.FollowUp("d"))
    refused(state, g.Answer("a", brought_up="gr"), "Only the answer to the initial question")


def test_r36_the_host_lowers_the_unwanted_card_without_a_seat() -> None:
    """R36: the host may lower the Unwanted card whether or not they hold a seat; a move with
    no seat and no host is still refused."""
    state = go(five(), g.RaiseUnwanted("v"))
    refused(state, g.LowerUnwanted(""), "not at this table")
    outcome = g.apply(state, g.LowerUnwanted("", host="Hank"), None)
    assert outcome.state.unwanted == ""
    assert outcome.entries[0].text.startswith("Hank, the host, lowers the Unwanted card")
