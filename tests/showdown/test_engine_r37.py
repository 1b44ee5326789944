"""R37, Saloon Showdown settled: the Law jails (the threatener skips their next turn too), the
Bottle knocks a gunman out of a standoff for good, and of two end triggers in one move the
first in turn order from the player whose turn it is sets the end."""

from __future__ import annotations

import pytest

from cards.errors import IllegalMove
from showdown.engine import game as g
from showdown.engine import moves as m
from showdown.engine.state import Phase, state_from_data, state_to_data
from tests.showdown.kit import RNG, play, table


def test_r37_the_law_jails_the_threatener_who_skips_their_next_turn() -> None:
    """R37: "sbattilo in gattabuia! Quel giocatore perde il turno": the threat ends with
    nothing done and Bo skips his next turn: play passes over him once, and the timeline
    says so."""
    state = play(table(3), m.Threaten("b", "c", "red"), m.Law("c"))
    assert state.turn == "c"
    assert state.jailed == ("b",)
    assert state.phase == Phase.PLAY
    state = play(state, m.Draw("c", public=False))
    out = g.apply(state, m.Draw("a", public=False), RNG)
    state = out.state
    assert state.turn == "c"  # Bo's turn is skipped
    assert state.jailed == ()
    texts = [e.text for e in out.entries]
    assert "Bo is in jail: skips this turn." in texts
    assert texts[-1] == "Cy’s turn."
    # Once only: the round after, Bo plays.
    state = play(state, m.Draw("c", public=False), m.Draw("a", public=False))
    assert state.turn == "b"


def test_r37_a_jailed_players_skipped_turn_can_be_the_last_one() -> None:
    """R37 with SS13: Cy reaches 130$, so the game ends after the turn of Bo, on his right;
    Bo is in jail, so it ends as play passes over him."""
    state = table(3).with_player("c", loot=100)
    state = play(state, m.Threaten("b", "c", "red"), m.Law("c"))  # Cy takes 20$: 120$
    state = play(state, m.CashLoot("c", 1))  # 130$
    assert (state.trigger, state.end_after) == ("c", "b")
    out = g.apply(state, m.Draw("a", public=False), RNG)
    assert out.state.over
    assert out.state.winner == "c"
    assert "Bo is in jail: skips this turn." in [e.text for e in out.entries]


def test_r37_the_jail_survives_json() -> None:
    state = play(table(3), m.Threaten("b", "c", "red"), m.Law("c"))
    back = state_from_data(state_to_data(state))
    assert back == state
    assert back.jailed == ("b",)


def test_r37_knocked_out_of_a_standoff_by_the_bottle_one_cannot_join_it_again() -> None:
    """R37: "elimina dallo Stallo il giocatore che colpisce": Di, knocked out, says "Non credo
    proprio!" again and is refused; so is Bo, the first threatener, knocked out too."""
    state = play(table(7), m.Threaten("b", "c", "red"), m.Standoff("d"), m.Standoff("e"))
    state = play(state, m.Standoff("f"), m.Bottle("a", "d"))
    assert state.threat is not None
    assert state.threat.knocked == ("d",)
    with pytest.raises(IllegalMove, match="knocked you out of this standoff"):
        play(state, m.Standoff("d"))
    state = play(state, m.Bottle("g", "b"))  # the first threatener
    assert state.threat is not None
    assert (state.threat.threatener, state.threat.standoff) == ("e", ("f",))
    for pid in ("b", "d"):
        with pytest.raises(IllegalMove, match="knocked you out of this standoff"):
            play(state, m.Standoff(pid))


def test_r37_two_triggers_in_one_move_the_first_in_turn_order_from_the_mover_counts() -> None:
    """R37: a standoff won by Ed gives Ed 130$ and Bo (hit) a third wound in one move. It is
    Di's turn: counting from Di, Ed comes before Bo, so the game ends after the turn of the
    player on Ed's right (Di), not on Bo's right (Ada)."""
    state = table(5).with_player("e", loot=110).with_player("b", wounds=2)
    state = play(state, m.Draw("b", public=False), m.Draw("c", public=False))
    assert state.turn == "d"
    state = play(state, m.Threaten("d", "c", "red"), m.Standoff("e"), m.Standoff("b"))
    state = play(state, m.CloseStandoff("c"))
    state = play(state, m.Ready("d", 0), m.Ready("e", 0), m.Ready("b", 0))
    out = g.apply(state, m.Fire("e", 4000, "b", "red", "arm", "Boom"), RNG)
    state = play(out.state, m.Confirm("b"))
    assert state.player("e").loot >= 130
    assert state.player("b").wounds == 3
    assert state.trigger == "e"
    assert state.end_after == "d"
    assert state.over  # Di's turn ended with the standoff
