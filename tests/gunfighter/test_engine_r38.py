"""The team's settled readings of The Gunfighter: R38 (covert cards after the bandoliers, the
clock waits for every covert card or "no covert card", the host may start it anyway, a kill
eliminates after the reviews) and R39 (who starts the clock and reviews first never changes)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from cards.errors import IllegalMove
from gunfighter.engine import game as g
from gunfighter.engine import state as s
from tests.gunfighter.kit import AFTER, T0, run, table, to_showdown


def mat(pid: str, *hits: tuple[str, int], last: str = "") -> s.EnterMat:
    return s.EnterMat(pid, now_ms=AFTER, hits=hits, last=last)


def all_set(state: s.GunfightState) -> s.GunfightState:
    return run(state, *(s.BandolierSet(f.pid) for f in state.standing if not f.ready))


def test_r38_a_covert_card_is_refused_until_every_bandolier_is_set() -> None:
    """R38: "Once each gunfighter's bandolier is laid out, each gunfighter is now free to play
    one covert card": refused in plain words before, even for one whose own is set."""
    state = run(table(3), s.BandolierSet("a"))
    for move in (s.PlayCovert("a"), s.PlayCovert("b"), s.NoCovert("a")):
        with pytest.raises(IllegalMove, match="once every bandolier is set; waiting for Bill"):
            run(state, move)
    assert "covert" not in g.visible(state, "a")["can"]
    state = all_set(state)
    state = run(state, s.PlayCovert("b"))
    assert state.gunfighter("b").covert == 4
    assert "covert" in g.visible(state, "a")["can"]


def test_r38_the_clock_waits_for_every_covert_card_or_no_covert_card() -> None:
    """R38: the clock starts once every living gunfighter has played their covert card or said
    "no covert card"; one with no covert card left has said so."""
    state = all_set(table(3))
    assert g.whose_move(state) == ("a", "b", "c")
    with pytest.raises(IllegalMove, match="waiting for Annie, Bill and Calamity to play a covert"):
        run(state, s.StartClock("a", T0))
    state = run(state, s.PlayCovert("a"))
    state, events = g.apply(state, s.NoCovert("b"))
    assert events[0].text == "Bill plays no covert card this showdown."
    with pytest.raises(IllegalMove, match="said “no covert card” already"):
        run(state, s.NoCovert("b"))
    with pytest.raises(IllegalMove, match="take it back first"):
        run(state, s.NoCovert("a"))
    with pytest.raises(IllegalMove, match="waiting for Calamity to play a covert card"):
        run(state, s.StartClock("a", T0))
    empty = _with(state, "c", covert=0)  # no covert card left: said so
    assert g.covert_waiting(empty) == ()
    assert g.whose_move(empty) == ("a",)
    assert run(empty, s.StartClock("a", T0)).phase == s.Phase.SHOWDOWN
    # A change of mind before the clock: "no covert card", then one after all.
    state = run(state, s.PlayCovert("b"), s.NoCovert("c"))
    assert state.gunfighter("b").covert == 4
    assert run(state, s.StartClock("a", T0)).clock_at == T0
    # The next showdown asks again.
    again = run(run(state, s.StartClock("a", T0)), mat("a"), mat("b"), mat("c"))
    assert again.showdown == 2
    assert not any(f.no_covert or f.covert_played for f in again.gunfighters)


def test_r38_the_host_may_start_the_clock_anyway_for_a_quiet_phone() -> None:
    """R38: the host starts it without waiting (the service lets only the host send it); the
    timeline says whose covert card it did not wait for."""
    state = run(all_set(table(3)), s.NoCovert("a"), s.NoCovert("b"))
    assert g.visible(state, None)["covert_waiting"] == ("c",)
    started, events = g.apply(state, s.StartClock("", T0, anyway=True))  # a host with no seat
    assert started.phase == s.Phase.SHOWDOWN
    assert (
        events[0].text
        == "The host starts the clock without waiting for Calamity's covert card: showdown 1!"
    )
    with pytest.raises(IllegalMove, match="waiting for Bill to set their bandolier"):
        run(
            run(table(3), s.BandolierSet("a")),
            s.BandolierSet("c"),
            s.StartClock("a", T0, anyway=True),
        )


def test_r38_a_kill_eliminates_only_after_every_mat_is_reviewed() -> None:
    """R38: "Once the showdown is over and each player has reviewed": the killed gunfighter is
    still in the showdown while the mats are read; then the dead are eliminated and the killer
    claims the covert cards."""
    state = to_showdown(table(3))
    state, events = g.apply(state, mat("a", ("c", 3)))
    annie = state.gunfighter("a")
    assert (annie.lives, annie.out, annie.covert, annie.killed_by) == (0, 0, 5, "c")
    assert state.gunfighter("c").covert == 5
    assert "eliminated once every mat is reviewed" in events[-1].text
    state = run(state, mat("b"))
    state, events = g.apply(state, mat("c", ("a", 1)))  # Annie's shot still lands
    annie = state.gunfighter("a")
    assert (annie.out, annie.covert) == (1, 0)
    assert state.gunfighter("c").covert == 10
    assert state.gunfighter("c").lives == 2
    texts = [e.text for e in events]
    assert texts[0].startswith("Calamity's mat")
    assert "Annie is shot down by Calamity and eliminated. Calamity takes Annie's 5" in texts[1]
    assert state.showdown == 2


def test_r38_two_who_kill_each_other_claim_each_others_covert_cards_at_once() -> None:
    """R38: the dead go together after the reviews: each killer claims the covert cards the
    other held (not cards claimed a moment earlier in the same review)."""
    state = to_showdown(table(3))
    state = _with(state, "b", covert=2)
    state = run(state, mat("a", ("b", 3)), mat("b", ("a", 3)), mat("c"))
    a, b = state.gunfighter("a"), state.gunfighter("b")
    assert (a.out, b.out) == (1, 1)
    assert (a.covert, b.covert) == (2, 5)
    assert state.phase == s.Phase.OVER
    assert state.winner == "c"
    assert g.conserved(state)


def test_r39_whoever_saw_a_western_last_starts_the_clock_and_reviews_first_every_showdown() -> None:
    """R39/GF3: named once at the start; the same one starts the clock and reviews first in
    every showdown; once they are out, the next one standing after them."""
    state = table(4, western="b")
    for showdown in (1, 2):
        state = all_set(state)
        state = run(state, *(s.NoCovert(p) for p in g.covert_waiting(state)))
        assert state.showdown == showdown
        assert g.starter(state) == "b"
        assert g.visible(state, "b")["can"] >= {"clock"}
        assert "clock" not in g.visible(state, "a")["can"]
        with pytest.raises(IllegalMove, match="Bill starts the clock: they saw a western last"):
            run(state, s.StartClock("a", T0))
        state = run(state, s.StartClock("b", T0))
        assert g.reviewing(state) == "b"
        state = run(state, mat("b"), mat("c"), mat("d"), mat("a"))
    # Bill falls in showdown 3: from showdown 4, Calamity (next after him) starts and reviews.
    state = to_showdown(state)
    state = run(state, mat("b", ("d", 3)), mat("c"), mat("d"), mat("a"))
    state = all_set(state)
    state = run(state, *(s.NoCovert(p) for p in g.covert_waiting(state)))
    assert g.starter(state) == "c"
    with pytest.raises(IllegalMove, match="Calamity starts the clock: they are the next one"):
        run(state, s.StartClock("a", T0))
    state = run(state, s.StartClock("c", T0))
    assert g.review_order(state) == ("c", "d", "a")


def _with(state: s.GunfightState, pid: str, **changes: object) -> s.GunfightState:
    f = replace(state.gunfighter(pid), **changes)  # type: ignore[arg-type]
    moved = f.covert - state.gunfighter(pid).covert
    return replace(
        state,
        gunfighters=tuple(f if x.pid == pid else x for x in state.gunfighters),
        covert_stock=state.covert_stock - moved,
    )
