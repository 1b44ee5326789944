"""The Gunfighter's engine (seed 003), rule by rule, with the readings GF1–GF12 cited."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from cards.errors import IllegalMove
from gunfighter.engine import game as g
from gunfighter.engine import state as s
from gunfighter.engine.serial import state_from_data, state_to_data
from tests.gunfighter.kit import AFTER, SEATS, T0, run, table, to_showdown


def mat(
    pid: str, *hits: tuple[str, int], left: int = 0, last: str = "", now: int = AFTER
) -> s.EnterMat:
    return s.EnterMat(pid, now_ms=now, hits=hits, left=left, last=last)


def test_it_deals_every_gunfighter_a_different_deck_three_lives_and_five_covert_cards() -> None:
    """GF1: one per character deck; three lives; five covert cards; six drawn."""
    state = table(6)
    assert sorted(f.deck for f in state.gunfighters) == sorted(s.DECKS)
    assert all(f.lives == 3 and f.covert == 5 for f in state.gunfighters)
    assert all((f.stock, f.bandolier) == (24, 6) for f in state.gunfighters)
    assert state.phase == s.Phase.PREPARE
    assert state.showdown == 1
    assert state.covert_stock == 42 - 30
    assert g.conserved(state)


@pytest.mark.parametrize("n", [0, 1, 7])
def test_it_seats_two_to_six(n: int) -> None:
    """GF1: a duel needs two; six decks, so six at most."""
    with pytest.raises(IllegalMove, match="2 to 6"):
        g.new_game((SEATS * 2)[:n], western="a", rng=random.Random(1))


def test_choosing_decks_if_all_agree_or_at_random_at_one_tap() -> None:
    """GF2: each picks a free deck; a taken deck is refused; a tap against it deals at random."""
    state = table(3, choose=True)
    assert state.phase == s.Phase.CHOOSE
    assert g.whose_move(state) == ("a", "b", "c")
    state = run(state, s.ChooseDeck("a", "Lawman"))
    with pytest.raises(IllegalMove, match="Annie plays the Lawman"):
        run(state, s.ChooseDeck("b", "Lawman"))
    with pytest.raises(IllegalMove, match="already"):
        run(state, s.ChooseDeck("a", "Drunk"))
    with pytest.raises(IllegalMove, match="needs a character deck"):
        run(state, s.BandolierSet("a"))
    done = run(state, s.ChooseDeck("b", "Drunk"), s.ChooseDeck("c", "Reverend"))
    assert [f.deck for f in done.gunfighters] == ["Lawman", "Drunk", "Reverend"]
    assert done.phase == s.Phase.PREPARE
    dealt = run(state, s.DrawAtRandom("c"))
    assert dealt.phase == s.Phase.PREPARE
    assert len({f.deck for f in dealt.gunfighters}) == 3


def test_the_clock_waits_for_every_bandolier_and_starts_once() -> None:
    """GF4: 'Once all gunfighter's bandoliers are set'; one start; the instant is the server's."""
    state = run(table(3), s.BandolierSet("a"))
    with pytest.raises(IllegalMove, match="waiting for Bill and Calamity"):
        run(state, s.StartClock("a", T0))
    state = to_showdown(table(3))
    assert state.phase == s.Phase.SHOWDOWN
    assert state.clock_at == T0
    assert state.clock_end == T0 + 10_000
    with pytest.raises(IllegalMove, match="running already"):
        run(state, s.StartClock("b", T0 + 5))


def test_late_moves_are_refused_in_plain_words() -> None:
    """GF4/GF8: covert cards and 'bandolier set' before the clock, mats after it hits zero."""
    state = to_showdown(table(3))
    with pytest.raises(IllegalMove, match="Too late: covert cards"):
        run(state, s.PlayCovert("b"))
    with pytest.raises(IllegalMove, match="Too late: the clock has started"):
        run(state, s.BandolierSet("b"))
    with pytest.raises(IllegalMove, match="still on"):
        run(state, mat("a", now=AFTER - 1))


def set_all(state: s.GunfightState) -> s.GunfightState:
    """Every standing gunfighter's bandolier set (R38: covert cards come after)."""
    return run(state, *(s.BandolierSet(f.pid) for f in state.standing if not f.ready))


def test_one_covert_card_per_showdown() -> None:
    """GF8: one covert card before each showdown, to the shared covert discard pile."""
    state = run(set_all(table(2)), s.PlayCovert("a"))
    assert state.gunfighter("a").covert == 4
    assert state.covert_discard == 1
    with pytest.raises(IllegalMove, match="already"):
        run(state, s.PlayCovert("a"))


def test_mats_are_reviewed_in_turn_from_whoever_saw_a_western_last() -> None:
    """GF3: clockwise from the western's watcher; out of turn is refused."""
    state = to_showdown(table(3, western="b"))
    assert g.review_order(state) == ("b", "c", "a")
    with pytest.raises(IllegalMove, match="Not your mat yet: Bill's"):
        run(state, mat("a"))
    state = run(state, mat("b", ("a", 1)))
    assert g.reviewing(state) == "c"
    assert state.gunfighter("b").lives == 2


def test_damage_is_kept_and_the_killer_takes_the_covert_cards() -> None:
    """GF5: the last point's dealer claims the fallen one's covert cards; the app moves them."""
    state = to_showdown(table(3))
    with pytest.raises(IllegalMove, match="who dealt the last point"):
        run(state, mat("a", ("b", 2), ("c", 1)))
    state = run(state, mat("a", ("b", 2), ("c", 1), last="c"))
    assert g.review_order(state) == ("a", "b", "c")
    state = run(state, mat("b"), mat("c", ("b", 1)))
    annie = state.gunfighter("a")
    assert (annie.lives, annie.out, annie.killed_by, annie.covert) == (0, 1, "c", 0)
    assert state.gunfighter("c").covert == 10
    assert state.phase == s.Phase.PREPARE
    assert state.showdown == 2
    assert state.gunfighter("c").lives == 2  # damage is kept (seed: "retained")
    assert state.history[0].fallen == (("a", "c"),)
    with pytest.raises(IllegalMove, match="eliminated"):
        run(state, s.BandolierSet("a"))


def test_a_gunfighter_killed_by_their_own_card_gives_no_one_their_covert_cards() -> None:
    """GF5: by their own card, the covert cards go to the covert discard pile."""
    state = run(to_showdown(table(2)), mat("a", ("a", 3)), mat("b"))
    assert state.phase == s.Phase.OVER
    assert state.winner == "b"
    assert state.covert_discard == 5
    assert state.gunfighter("b").covert == 5


def test_the_last_gunfighter_standing_wins_or_nobody_does() -> None:
    """GF10: the last one standing; if the last ones fall together, nobody."""
    state = run(to_showdown(table(2)), mat("a", ("b", 3)), mat("b", ("a", 1)))
    assert (state.phase, state.winner) == (s.Phase.OVER, "b")
    both = run(to_showdown(table(2)), mat("a", ("b", 3)), mat("b", ("a", 5)))
    assert (both.phase, both.winner) == (s.Phase.OVER, "")
    with pytest.raises(IllegalMove, match="over"):
        run(both, s.PlayCovert("a"))


def test_damage_per_gunfighter_is_bounded_and_only_from_those_in_the_showdown() -> None:
    """GF6: a whole number from 0 to 30 per gunfighter who was in the showdown."""
    state = to_showdown(table(3))
    with pytest.raises(IllegalMove, match="0 to 30"):
        run(state, mat("a", ("b", 31)))
    with pytest.raises(IllegalMove, match="in this showdown"):
        run(state, mat("a", ("zz", 1)))
    with pytest.raises(IllegalMove, match="bandolier"):
        run(state, mat("a", left=7))


def test_the_pocket_keeps_six_and_the_rest_is_discarded() -> None:
    """GF9: cards left in the bandolier are pocketed up to six; the rest discarded."""
    state = to_showdown(table(2))
    state = run(state, mat("a", left=4), mat("b", left=0))
    a, b = state.gunfighter("a"), state.gunfighter("b")
    assert (a.pocket, a.discard, a.stock, a.bandolier) == (4, 2, 18, 6)
    assert (b.pocket, b.discard) == (0, 6)
    state = run(
        to_showdown(state, T0 + 60_000),
        mat("a", left=5, now=T0 + 70_000),
        mat("b", now=T0 + 70_000),
    )
    a = state.gunfighter("a")
    assert (a.pocket, a.discard) == (6, 2 + 1 + 3)
    assert g.conserved(state)


def test_the_app_says_when_the_decks_must_be_rebuilt() -> None:
    """GF7: anyone short of six: every deck is rebuilt, counts back to 30, six drawn."""
    state = table(2)
    state = replace(
        state,
        gunfighters=tuple(
            replace(f, stock=5 if f.pid == "a" else 20, discard=19 if f.pid == "a" else 4, pocket=0)
            for f in state.gunfighters
        ),
    )
    state = to_showdown(state)
    state, events = g.apply(state, mat("a"), random.Random(0))
    state, events = g.apply(state, mat("b"), random.Random(0))
    assert any("rebuild the decks" in e.text for e in events)
    assert state.rebuilt == 2
    assert g.visible(state, "a")["rebuild_now"]
    assert all(
        (f.stock, f.pocket, f.discard, f.bandolier) == (24, 0, 0, 6) for f in state.gunfighters
    )


def test_visible_is_the_same_public_view_for_everyone_plus_ones_own_moves() -> None:
    """GF10: nothing the app keeps is private; only the moves open differ."""
    state = run(table(3), s.BandolierSet("a"))
    views = {who: g.visible(state, who) for who in ("a", "b", None)}
    assert views["a"]["can"] == {"clock"}  # R38: covert cards once every bandolier is set
    assert views["b"]["can"] == {"ready"}
    state = run(state, s.BandolierSet("b"), s.BandolierSet("c"))
    views = {who: g.visible(state, who) for who in ("a", "b", None)}
    public = {k: v for k, v in views["a"].items() if k not in ("mine", "can")}
    assert all(
        {k: v for k, v in view.items() if k not in ("mine", "can")} == public
        for view in views.values()
    )
    assert views["a"]["can"] == {"covert", "nocovert", "clock"}
    assert views["b"]["can"] == {"covert", "nocovert"}  # R39: Annie's clock
    assert views[None]["can"] == frozenset()
    assert views[None]["mine"] is None


def test_the_state_round_trips_and_a_broken_one_is_refused() -> None:
    state = run(to_showdown(table(4)), mat("a", ("b", 1)))
    assert state_from_data(state_to_data(state)) == state
    data = state_to_data(state)
    data["gunfighters"][0]["lives"] = -1
    with pytest.raises(ValueError, match="below 0"):
        state_from_data(data)


def test_a_mistyped_mat_is_taken_back_with_the_mats_after_it() -> None:
    """GF11: a mat entered wrong is reviewed again (and every mat entered after it), until the
    table's next move; the counts are as before it."""
    start = to_showdown(table(3))
    state = run(start, mat("a", ("b", 1), left=2), mat("b", ("c", 2)))
    assert g.taken_back(state) == ("b", "a")
    assert "takeback" in g.visible(state, "a")["can"]
    assert "takeback" not in g.visible(state, "c")["can"]
    state, events = g.apply(state, s.TakeBack("a"))
    assert state == start
    assert "Annie takes back their mat" in events[0].text
    assert "Bill's after it" in events[0].text
    with pytest.raises(IllegalMove, match="Nothing of Calamity's to take back"):
        run(run(start, mat("a")), s.TakeBack("c"))


def test_a_mat_that_ended_the_game_or_killed_its_owner_can_be_taken_back() -> None:
    """GF11: the one it eliminated (or the game it ended) is not a dead end."""
    start = to_showdown(table(2))
    state = run(start, mat("a", ("b", 3)))  # meant 1
    assert state.gunfighter("a").lives == 0
    state = run(state, s.TakeBack("a"))
    assert state.gunfighter("a").standing
    over = run(state, mat("a", ("b", 1)), mat("b", ("a", 5)))
    assert over.phase == s.Phase.OVER
    back = run(over, s.TakeBack("b"))
    assert back.phase == s.Phase.SHOWDOWN
    assert g.reviewing(back) == "b"
    assert back.history == ()
    assert back.gunfighter("a").lives == 2


def test_the_next_move_after_a_review_forgets_the_mats() -> None:
    """GF11: once the next showdown's first tap is made, the last review stands."""
    state = run(to_showdown(table(2)), mat("a"), mat("b"))
    assert g.taken_back(state) == ("b", "a")
    state = run(state, s.BandolierSet("a"))
    assert state.before is None
    with pytest.raises(IllegalMove, match="to take back"):
        run(state, s.TakeBack("b"))
    kept = run(to_showdown(table(3)), mat("a", ("b", 1)))
    assert state_from_data(state_to_data(kept)) == kept


def test_a_covert_card_tapped_by_mistake_goes_back_before_the_clock() -> None:
    """GF11: the count is put right before the clock starts; after it, the card was played."""
    state = run(set_all(table(2)), s.PlayCovert("a"))
    assert "uncovert" in g.visible(state, "a")["can"]
    state = run(state, s.TakeBackCovert("a"))
    assert (state.gunfighter("a").covert, state.covert_discard) == (5, 0)
    assert g.conserved(state)
    with pytest.raises(IllegalMove, match="no covert card"):
        run(state, s.TakeBackCovert("a"))
    played = to_showdown(run(state, s.PlayCovert("a")))
    with pytest.raises(IllegalMove, match="Too late"):
        run(played, s.TakeBackCovert("a"))
