"""Saloon Showdown's rules (seed 001), each test citing the ruling (SS1–SS18) it checks."""

from __future__ import annotations

import random

import pytest

from cards.errors import IllegalMove
from showdown.engine import game as g
from showdown.engine import moves as m
from showdown.engine.state import Options, Phase, state_from_data, state_to_data
from tests.showdown.kit import duel, play, table


def money(state, pid):  # type: ignore[no-untyped-def]
    p = state.player(pid)
    return (p.loot, p.bounty, p.wounds)


def test_it_sets_up_2_to_7_players_with_20_and_20_from_the_dealers_left() -> None:
    """SS1."""
    state = table(4, dealer="c")
    assert state.turn == "d"
    assert state.dealer == "c"
    assert all(money(state, p) == (20, 20, 0) for p in state.pids)
    for n in (1, 8):
        seats = [(f"p{i}", f"P{i}") for i in range(n)]
        with pytest.raises(IllegalMove, match="2 to 7"):
            g.new_game(seats, "p0", Options())


def test_it_makes_a_2_player_game_the_simple_game() -> None:
    """SS1: no Desperado, no standoff."""
    state = table(2)
    assert state.options.simple
    with pytest.raises(IllegalMove, match="simple game"):
        play(table(3, simple=True), m.Threaten("b", "c", "red", second="a"))


def test_a_public_draw_takes_the_dealer_token_and_the_holder_is_reminded() -> None:
    """SS2: the token moves; the one who played with it is told to replace the public cards."""
    state = play(table(3), m.Draw("b", public=True))
    assert state.dealer == "b"
    assert state.reminder == "b"
    assert state.turn == "c"
    state = play(state, m.Draw("c", public=False))
    assert state.dealer == "b"
    assert state.reminder == ""


def test_it_refuses_out_of_turn_in_plain_words() -> None:
    with pytest.raises(IllegalMove, match="It is Bo’s turn, not yours"):
        play(table(3), m.Draw("c", public=False))


def test_cash_loot_is_10_a_card() -> None:
    state = play(table(3), m.CashLoot("b", 3))
    assert money(state, "b") == (50, 20, 0)
    with pytest.raises(IllegalMove):
        play(table(3), m.CashLoot("b", 4))


def test_a_bounty_trio_takes_the_whole_bounty_and_it_returns_at_the_end_of_its_own_turn() -> None:
    """SS4, SS5."""
    state = play(table(3), m.CashBounty("b", "c"))
    assert money(state, "b") == (40, 20, 0)
    assert money(state, "c") == (20, 0, 0)
    state = play(state, m.Draw("c", public=False))
    assert money(state, "c") == (20, 20, 0)


def test_a_called_bluff_hides_the_first_count_and_the_higher_takes_20() -> None:
    """SS15, SS16."""
    state = play(table(3), m.Threaten("b", "c", "blue"), m.CallBluff("c"), m.Bullets("c", 5))
    assert state.phase == Phase.BLUFF
    view = g.visible_state(state, "b")
    assert view.mine is None
    assert view.counted == ("c",)
    assert "5" not in repr(view.state.bluff)
    assert g.visible_state(state, "c").mine == 5
    state = play(state, m.Bullets("b", 2))
    assert money(state, "c") == (40, 20, 0)
    assert money(state, "b") == (0, 20, 0)


def test_the_threatener_wins_a_tied_bluff_and_steals_no_more_than_the_loot() -> None:
    """SS16: never from the Bank."""
    state = table(3)
    state = state.with_player("c", loot=5)
    state = play(state, m.Threaten("b", "c", "red"), m.CallBluff("c"), m.Bullets("b", 3),
                 m.Bullets("c", 3))  # fmt: skip
    assert money(state, "b") == (25, 20, 0)
    assert money(state, "c") == (0, 20, 0)


@pytest.mark.parametrize(("seed", "outcome"), [(0, None), (1, None), (2, None), (3, None)])
def test_russian_roulette_a_die_equal_to_the_bullets_is_a_live_round(
    seed: int, outcome: None
) -> None:
    """SS7: the threatener alone counts; die > bullets: they pay 20$; else they take 20$."""
    rng = random.Random(seed)
    die = random.Random(seed).randint(1, 6)
    state = play(table(3, roulette=True), m.Threaten("b", "c", "red"), m.CallBluff("c"))
    with pytest.raises(IllegalMove, match="Only the threatener"):
        play(state, m.Bullets("c", 1))
    state = g.apply(state, m.Bullets("b", die), rng).state  # equal: a live round
    assert money(state, "b")[0] == 40
    assert money(state, "c")[0] == 0


def test_e_tu_starts_a_duel_won_by_the_first_claim_after_via() -> None:
    """SS6: Via! three seconds after the last Ready; the first claim by the server's clock."""
    state = play(table(3), m.Threaten("b", "c", "red"), m.AndYou("c"))
    state = play(state, m.Ready("b", 1000), m.Ready("c", 2000))
    assert state.fight is not None
    assert state.fight.go_at == 5000
    with pytest.raises(IllegalMove, match="Too soon"):
        play(state, m.Fire("b", 4999, pistol="red", zone="head", noise="Blam"))
    state = play(state, m.Fire("c", 5300, pistol="red", zone="arm", noise="Bang"))
    later = play(state, m.Fire("b", 5100, pistol="blue", zone="head", noise="Blam"))
    assert later.fight is not None
    assert later.fight.claim is not None
    assert later.fight.claim.shooter == "b"  # reached the server first by its clock
    with pytest.raises(IllegalMove, match="You fired already"):
        play(later, m.Fire("c", 5200, pistol="red", zone="arm", noise="Bang"))


def test_the_duels_loser_takes_a_wound_and_the_winner_the_bounty_and_10_more() -> None:
    """Seed: "Esito del Duello"; SS4, SS11."""
    state = play(table(3), m.Threaten("b", "c", "red"), m.AndYou("c"))
    state = duel(state, "b", "c")
    with pytest.raises(IllegalMove, match="Cy, who was shot"):
        play(state, m.Confirm("b"))
    state = play(state, m.Confirm("c"))
    assert money(state, "b") == (40, 30, 0)
    assert money(state, "c") == (20, 0, 1)
    assert state.turn == "c"


def test_the_law_wins_a_duel_twice_over() -> None:
    """SS9."""
    state = play(table(3), m.Threaten("b", "c", "red"), m.AndYou("c"))
    state = play(duel(state, "c", "b", law=True), m.Confirm("b"))
    assert money(state, "c") == (60, 30, 0)


def test_a_disputed_shot_is_settled_by_the_dealer_token_holder() -> None:
    """SS6."""
    state = play(table(3), m.Threaten("b", "c", "red"), m.AndYou("c"))
    state = play(duel(state, "b", "c"), m.Dispute("c"))
    with pytest.raises(IllegalMove, match="Ada, who holds the dealer token"):
        play(state, m.Settle("b", upheld=True))
    again = play(state, m.Settle("a", upheld=False))
    assert again.fight is not None
    assert again.fight.claim is None
    assert again.fight.ready == ()
    stands = play(state, m.Settle("a", upheld=True))
    assert money(stands, "c") == (20, 0, 1)


def test_the_law_trio_jails_the_threatener() -> None:
    """SS9: the Bank pays their bounty's value; their turn ends."""
    state = play(table(3), m.Threaten("b", "c", "red"), m.Law("c"))
    assert money(state, "c") == (40, 20, 0)
    assert money(state, "b") == (20, 20, 0)
    assert state.turn == "c"
    assert state.phase == Phase.PLAY


def test_the_horse_escape_moves_the_threat_and_a_second_escape_forces_the_first() -> None:
    """SS8."""
    state = play(table(4), m.Threaten("b", "c", "red"), m.Horse("c", "d"))
    assert state.threat is not None
    assert state.threat.target == "d"
    state = play(state, m.Horse("d"))
    assert state.threat is not None
    assert state.threat.target == "c"
    assert state.threat.forced
    with pytest.raises(IllegalMove, match="no way out"):
        play(state, m.Law("c"))
    assert play(state, m.AndYou("c")).phase == Phase.FIGHT


def test_in_a_two_player_game_the_horse_ends_the_threat() -> None:
    """Seed: "In una partita a 2 giocatori, chi usa Fuga a cavallo annulla il Duello"; SS8."""
    state = play(table(2), m.Threaten("b", "a", "red"), m.Horse("a"))
    assert state.phase == Phase.PLAY
    assert state.turn == "a"


def test_the_bottle_interrupts_a_threat_for_20() -> None:
    """SS17."""
    state = play(table(3), m.Threaten("b", "c", "red"), m.AndYou("c"), m.Bottle("a"))
    assert money(state, "a") == (40, 20, 0)
    assert state.phase == Phase.PLAY
    with pytest.raises(IllegalMove, match="someone else"):
        play(table(3), m.Threaten("b", "c", "red"), m.Bottle("b"))


def test_a_desperado_triello_cannot_be_interrupted_and_pays_both_bounties() -> None:
    """SS18."""
    state = play(table(4), m.Threaten("b", "c", "red", second="d"))
    assert state.fight is not None
    assert state.fight.desperado == "b"
    with pytest.raises(IllegalMove):
        play(state, m.Bottle("a"))
    state = play(state, m.Ready("b", 0), m.Ready("c", 0), m.Ready("d", 0))
    with pytest.raises(IllegalMove, match="shoot the Desperado"):
        play(state, m.Fire("c", 5000, "d", "red", "head", "Bang"))
    won = play(state, m.Fire("b", 5000, "c", "red", "head", "Bang"), m.Confirm("c"))
    assert money(won, "b") == (60, 20, 0)
    assert money(won, "c")[1:] == (0, 1)
    assert money(won, "d")[1:] == (0, 1)
    lost = play(state, m.Fire("d", 5000, "b", "red", "head", "Bang"), m.Confirm("b"))
    assert money(lost, "b") == (20, 20 - 10, 1)
    assert money(lost, "c")[0] == 25


def test_a_standoff_chain_is_refereed_by_the_first_threatened() -> None:
    """SS10: then only the Bottle; the winner takes the bounty hit and 10$ from the others."""
    state = play(table(5), m.Threaten("b", "c", "red"), m.Standoff("d"), m.Standoff("e"))
    with pytest.raises(IllegalMove, match="only the Bottle"):
        play(state, m.CallBluff("c"))
    state = play(state, m.CloseStandoff("c"))
    assert state.fight is not None
    assert state.fight.members == ("b", "d", "e")
    state = play(state, m.Ready("b", 0), m.Ready("d", 0), m.Ready("e", 0))
    state = play(state, m.Fire("e", 4000, "b", "red", "arm", "Boom"), m.Confirm("b"))
    # b's bounty was taken, and comes back to 20$ at the end of b's own turn (SS5).
    assert money(state, "e") == (50, 30, 0)
    assert money(state, "b") == (20, 20, 1)
    assert money(state, "d") == (20, 10, 0)
    assert money(state, "c") == (20, 20, 0)


def test_the_end_comes_after_the_turn_of_the_player_on_the_right() -> None:
    """SS13, SS14."""
    state = table(3).with_player("c", loot=120)
    state = play(state, m.CashLoot("b", 1))  # b's turn: nobody at 130 yet
    state = play(state, m.CashLoot("c", 1))  # c reaches 130: the end is after b's turn
    assert state.trigger == "c"
    assert state.end_after == "b"
    assert not state.over
    state = play(state, m.Draw("a", public=False), m.Draw("b", public=False))
    assert state.over
    assert state.winner == "c"
    assert state.phase == Phase.OVER
    with pytest.raises(IllegalMove, match="over"):
        play(state, m.Draw("c", public=False))


def test_a_tie_goes_to_the_bounty_then_to_a_tiebreak_fight() -> None:
    """SS14."""
    state = table(2).with_player("a", loot=110, wounds=0).with_player("b", loot=110)
    state = play(state, m.CashLoot("b", 2))  # b at 130: ends after a's turn
    state = play(state, m.CashLoot("a", 2))  # a at 130 too: a tie, bounty and all
    assert state.phase == Phase.FIGHT
    assert state.fight is not None
    state = duel(state, "a", "b")
    state = play(state, m.Confirm("b"))
    assert state.over
    assert state.winner == "a"


def test_events_hold_play_until_the_host_resolves_them() -> None:
    """SS12."""
    state = play(table(3, events=True), m.RevealEvent("", "rain", "b"))
    with pytest.raises(IllegalMove, match="Play is held"):
        play(state, m.Draw("b", public=False))
    state = play(state, m.EventCount("a", 2), m.EventCount("b", 4))
    assert g.visible_state(state, "a").mine == 2
    assert g.visible_state(state, "c").mine is None
    state = play(state, m.EventCount("c", 4))
    assert state.event is None
    assert [money(state, p)[0] for p in "abc"] == [20, 40, 40]
    with pytest.raises(IllegalMove, match="out of the game"):
        play(state, m.RevealEvent("", "rain", "b"))


def test_the_noon_showdown_pays_like_a_duel_and_ends_no_turn() -> None:
    """SS12."""
    state = table(3, events=True).with_player("c", bounty=40)
    state = play(state, m.RevealEvent("", "noon", "b"))
    assert set(g.noon_fighters(state)) == {"a", "b", "c"}  # c alone on top: the next join
    state = play(state, m.Noon("", "c", "a"))
    assert state.turn == "b"
    assert state.event is None
    assert money(state, "c")[0] == 20 + 20 + 10  # a's bounty, 10$ from b's


def test_the_state_survives_json() -> None:
    state = play(table(4, events=True), m.Threaten("b", "c", "red"), m.CallBluff("c"),
                 m.Bullets("b", 2))  # fmt: skip
    assert state_from_data(state_to_data(state)) == state


def test_an_event_drawn_mid_duel_stops_the_race_until_it_is_resolved() -> None:
    """SS12."""
    state = play(table(3, events=True), m.Threaten("b", "c", "red"), m.AndYou("c"))
    state = play(state, m.Ready("b", 1000), m.Ready("c", 1000))
    state = play(state, m.RevealEvent("", "other", "a"))
    with pytest.raises(IllegalMove, match="Play is held"):
        play(state, m.Fire("b", 9000, pistol="red", zone="head", noise="Bang"))
    state = play(state, m.EventDone(""))
    assert state.fight is not None
    assert state.fight.go_at is None
    assert state.fight.ready == ()


def test_a_bottle_on_the_first_gunman_of_a_standoff_leaves_the_others_in_it() -> None:
    """SS10, SS17: "il gioco continua con i giocatori rimasti ancora nello Stallo": the
    threatener knocked out of the chain, the two who said "Non credo proprio!" stay in it."""
    state = play(table(5), m.Threaten("b", "c", "red"), m.Standoff("d"), m.Standoff("e"))
    state = play(state, m.Bottle("a", "b"))
    assert money(state, "a")[0] == 40
    assert state.phase == Phase.THREAT
    state = play(state, m.CloseStandoff("c"))
    assert state.fight is not None
    assert state.fight.members == ("d", "e")
    assert state.fight.referee == "c"
    state = play(state, m.Ready("d", 0), m.Ready("e", 0))
    state = play(state, m.Fire("d", 4000, "e", "red", "arm", "Boom"), m.Confirm("e"))
    assert money(state, "d") == (40, 30, 0)
    assert state.turn == "c"  # b's turn is over


def test_a_bottle_that_leaves_one_gunman_ends_the_standoff() -> None:
    """SS10: one gunman left standing is no standoff."""
    state = play(table(4), m.Threaten("b", "c", "red"), m.Standoff("d"))
    state = play(state, m.Bottle("a", "d"))
    assert state.phase == Phase.PLAY
    assert state.turn == "c"


def test_a_mistyped_count_is_taken_back_before_the_other_is_in() -> None:
    """SS20 (and SS15: the line says a count was taken back, not what it was)."""
    state = play(table(3), m.Threaten("b", "c", "red"), m.CallBluff("c"), m.Bullets("b", 7))
    outcome = g.apply(state, m.TakeBackCount("b"), random.Random(1))
    assert outcome.state.bluff is not None
    assert outcome.state.bluff.counts == ()
    assert all("7" not in e.text for e in outcome.entries)
    with pytest.raises(IllegalMove, match="no count in"):
        play(outcome.state, m.TakeBackCount("c"))
    state = play(outcome.state, m.Bullets("b", 1), m.Bullets("c", 2))
    assert money(state, "c")[0] == 40
    with pytest.raises(IllegalMove, match="No count"):
        play(state, m.TakeBackCount("b"))


def test_an_events_count_is_taken_back_too() -> None:
    """SS20 with SS12."""
    state = play(table(3, events=True), m.RevealEvent("", "rain", "b"), m.EventCount("a", 9))
    state = play(state, m.TakeBackCount("a"))
    assert state.event is not None
    assert state.event.counts == ()


def test_the_host_puts_money_right_and_an_end_set_by_mistake_is_undone() -> None:
    """SS21: Cy cashed three Malloppo instead of one and reached 130$: the host sets the loot
    back; the end it set is undone. The timeline says from what to what."""
    state = table(3).with_player("c", loot=100)
    state = play(state, m.CashLoot("b", 1), m.CashLoot("c", 3))
    assert state.trigger == "c"
    outcome = g.apply(state, m.Correct("", "c", 110, 20, 0), random.Random(1))
    assert money(outcome.state, "c") == (110, 20, 0)
    assert (outcome.state.trigger, outcome.state.end_after) == ("", "")
    assert "loot 130$ → 110$" in outcome.entries[0].text
    for odd in (m.Correct("", "z", 1, 1, 0), m.Correct("", "c", -1, 1, 0),
                m.Correct("", "c", 1, 1, 4), m.Correct("", "c", 110, 20, 0)):  # fmt: skip
        with pytest.raises(IllegalMove):
            play(outcome.state, odd)


def test_a_duel_won_against_no_bounty_cashes_nothing_and_still_raises_the_bounty() -> None:
    """SS22: "chi ha vinto non incassa niente"; the 10$ raise is the Bank's."""
    state = table(3).with_player("c", bounty=0)
    state = play(state, m.Threaten("b", "c", "red"), m.AndYou("c"))
    state = play(duel(state, "b", "c"), m.Confirm("c"))
    assert money(state, "b") == (20, 30, 0)
    assert money(state, "c") == (20, 0, 1)


def test_an_event_revealed_by_mistake_is_taken_back_before_anyone_counts() -> None:
    """SS20 with SS12: the wrong card picked goes back, still to come."""
    state = play(table(3, events=True), m.RevealEvent("", "rain", "b"))
    state = play(state, m.TakeBackEvent(""))
    assert state.event is None
    assert state.events_seen == ()
    state = play(state, m.RevealEvent("", "rain", "b"), m.EventCount("a", 1))
    with pytest.raises(IllegalMove, match="Counts are in"):
        play(state, m.TakeBackEvent(""))
