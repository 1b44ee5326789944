"""Issue 15's rule gaps, read as docs/rulings.md now says: a narration bid can never freeze a
conflict (R16), the Call waits for settled hands (R13), and a recovery stud's size follows the
points (R22). Each test fails on the engine before the fix."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conflicts.engine.conflict import (
    ATTRIBUTES,
    Allocate,
    Approve,
    ApproveKnack,
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
    Move,
    NameKnack,
    Phase,
    PlaceBid,
    Reveal,
    WithdrawBid,
    apply,
    default_allocation,
    new_conflict,
    unsettled,
)
from tests.conflicts.engine.conflict_kit import (
    BANG,
    JACK,
    LUKE,
    POSSE,
    black_jack,
    dealt,
    luke,
    mccreedy,
    play,
    refused,
    revealed,
    set_hands,
    step,
    stud,
    zeke,
)
from tests.conftest import depth


def saloon() -> ConflictState:
    """Black Jack, Luke and McCreedy against a 3-card stud that beats them all; Luke's K♣ is the
    high card, so Luke holds the narration and the others may bid for it (R8, R16)."""
    state = dealt([black_jack(), luke(), mccreedy(), stud(3)])
    state = set_hands(state, {
        JACK: "3C 5D 7H 9S JC", LUKE: "4H 6C 8D 10H KC", BANG: "3D 5C 7S 9D QS",
        POSSE: "2S 2H 8C",
    })  # fmt: skip
    state = revealed(state).state
    assert state.narrator == LUKE
    return state


# --- R16: a bid the bidder cannot pay never freezes the conflict -------------------------


def test_it_refuses_a_bid_above_the_chips_held_r16() -> None:
    """The freeze: a player with 3 chips bid 50, and the conflict could never end. Now the bid
    is refused when made, in plain words, and nothing changes."""
    message = refused(saloon(), PlaceBid(JACK, 50, held=3))
    assert message == '"Black" Jack Kerrigan holds 3 chips: a bid of 50 cannot be paid.'


def test_it_refuses_a_holders_answer_above_the_chips_held_r16() -> None:
    state = step(saloon(), PlaceBid(JACK, 2, held=5)).state
    assert "holds 1 chip: a bid of 2" in refused(state, PlaceBid(LUKE, 2, held=1))


def test_it_accepts_a_bid_of_exactly_the_chips_held_r16() -> None:
    state = step(saloon(), PlaceBid(JACK, 3, held=3)).state
    assert [(b.pid, b.amount) for b in state.bids] == [(JACK, 3)]


def test_it_lets_a_bid_be_withdrawn_until_the_bidding_closes_r16() -> None:
    state, outcomes = play(saloon(), [PlaceBid(JACK, 2, held=5), WithdrawBid(JACK)])
    assert state.bids == ()
    assert outcomes[-1].events == ('"Black" Jack Kerrigan withdraws their bid.',)
    closed = step(state, CloseBids(held={})).state
    assert closed.narrator == LUKE  # nobody bids: the high card narrates
    assert "no bid to withdraw" in refused(state, WithdrawBid(BANG))
    after = step(step(state, PlaceBid(BANG, 1, held=1)).state, CloseBids(held={BANG: 1}))
    assert "can no longer be withdrawn" in refused(after.state, WithdrawBid(BANG))


def test_it_lets_the_holder_withdraw_an_answer_r16() -> None:
    state, _ = play(saloon(), [PlaceBid(JACK, 2, held=5), PlaceBid(LUKE, 2, held=2)])
    assert state.answer == 2
    state = step(state, WithdrawBid(LUKE)).state
    outcome = step(state, CloseBids(held={JACK: 5, LUKE: 2}))
    assert outcome.state.narrator == JACK
    assert outcome.chips == (ChipMove(JACK, -2, "narration_bid"),)


def test_it_passes_over_a_bid_its_bidder_can_no_longer_pay_r16() -> None:
    """A bid made with 3 chips, then the chips spent elsewhere: the Dealer can still close the
    bidding; the lapsed bid is said in the log and the next payable one wins."""
    state, _ = play(saloon(), [PlaceBid(JACK, 3, held=3), PlaceBid(BANG, 2, held=2)])
    outcome = step(state, CloseBids(held={JACK: 0, BANG: 2}))
    assert outcome.state.narrator == BANG
    assert outcome.chips == (ChipMove(BANG, -2, "narration_bid"),)
    assert outcome.events[0] == (
        '"Black" Jack Kerrigan can no longer pay 3 chip(s): that bid lapses.'
    )


def test_it_lets_the_high_card_narrate_when_no_bid_can_be_paid_r16() -> None:
    state = step(saloon(), PlaceBid(JACK, 3, held=3)).state
    outcome = step(state, CloseBids(held={}))
    assert outcome.state.narrator == LUKE
    assert outcome.chips == ()
    assert outcome.events[-1] == "No bid stands: the high card narrates."
    finished = step(finish_difficulty(outcome.state), Finish())
    assert finished.state.phase == Phase.DONE


def finish_difficulty(state: ConflictState) -> ConflictState:
    """Every beaten character places its Difficulty the default way (R9)."""
    for owed in state.owed:
        if owed.allocation is None:
            currents = state.participant(owed.pid).currents
            state = step(state, Allocate(owed.pid, default_allocation(owed, currents))).state
    return state


# --- R13: the Call waits for settled hands -----------------------------------------------


def test_it_refuses_a_call_while_hands_have_not_drawn_r13() -> None:
    state = dealt([zeke(), black_jack(), stud(5)])
    state = step(state, Draw(JACK, ())).state  # Black Jack stands: settled
    message = refused(state, Call())
    assert message == (
        "Not every hand is settled: Zeke Munroe has not drawn yet. Wait, or call now and "
        "they stand pat (R13)."
    )


def test_it_calls_when_every_hand_is_settled_r13() -> None:
    state = dealt([zeke(), black_jack(), stud(5)])
    state, _ = play(state, [Draw("zeke", ()), Draw(JACK, ())])
    assert unsettled(state) == ()
    outcome = step(state, Call())
    assert outcome.state.phase == Phase.LAYING
    assert outcome.events == ("The Dealer calls. Choose your lays.",)


def test_it_calls_now_and_says_who_stands_pat_r13() -> None:
    state = dealt([zeke(), black_jack(), stud(5)])
    hand = state.participant("zeke").hand
    outcome = step(state, Call(now=True))
    assert outcome.state.phase == Phase.LAYING
    assert outcome.events == (
        "The Dealer calls now. Choose your lays.",
        "Zeke Munroe had not drawn: stands pat (R13).",
        '"Black" Jack Kerrigan had not drawn: stands pat (R13).',
    )
    assert outcome.state.participant("zeke").hand == hand  # pat: the hand as dealt


def test_it_does_not_wait_for_folded_hands_or_studs_r13() -> None:
    state = dealt([zeke(), black_jack(), stud(5)])
    state, _ = play(state, [Fold(JACK), Draw("zeke", ())])
    assert step(state, Call()).state.phase == Phase.LAYING


# --- R22: the recovery stud's size follows the points ------------------------------------


@pytest.mark.parametrize(
    ("points", "size"), [(1, 3), (2, 3), (3, 5), (4, 5), (5, 7), (6, 7), (9, 7)]
)
def test_it_sets_up_a_recovery_against_the_stud_its_points_call_for_r22(
    points: int, size: int
) -> None:
    state = new_conflict([zeke(), stud(size)], recovery=("zeke", points))
    assert state.recovery == ("zeke", points)


@pytest.mark.parametrize(("points", "wrong"), [(1, 5), (2, 7), (3, 3), (4, 7), (5, 3), (6, 5)])
def test_it_refuses_a_recovery_against_another_stud_r22(points: int, wrong: int) -> None:
    with pytest.raises(IllegalMove, match=r"R22: 1–2 points 3 cards, 3–4 points 5, 5 or more 7"):
        new_conflict([zeke(), stud(wrong)], recovery=("zeke", points))


def test_it_refuses_a_recovery_of_no_points_r22() -> None:
    with pytest.raises(IllegalMove, match="at least one point"):
        new_conflict([zeke(), stud(3)], recovery=("zeke", 0))


# --- No reachable state leaves the conflict without a way to finish (R16, R13, R19) -----


def dealer_finishes(state: ConflictState, held: dict[str, int], seed: int) -> ConflictState:
    """The Dealer's way out from any state, with only legal moves: approve what waits, deal,
    call now, reveal, close the bids with the chips held now, place the Difficulty, finish."""
    rng = random.Random(seed)
    for _ in range(40):
        if state.phase in (Phase.DONE, Phase.FOLDED):
            return state
        if state.phase == Phase.SIZING:
            waiting = [p for p in state.in_play if p.has_own_hand and p.attributes is None]
            move: Move = Approve(waiting[0].pid, ("hand", "eye")) if waiting else Deal("salt")
        elif state.phase == Phase.DRAW:
            move = Call(now=True)
        elif state.phase == Phase.LAYING:
            move = Reveal()
        elif not state.bids_closed:
            move = CloseBids(held=dict(held))
        elif any(o.allocation is None for o in state.owed):
            owed = next(o for o in state.owed if o.allocation is None)
            move = Allocate(
                owed.pid, default_allocation(owed, state.participant(owed.pid).currents)
            )
        else:
            move = Finish()
        outcome = apply(state, move, rng)
        for chip in outcome.chips:  # the ledger refuses an overdraft: it must never be asked to
            assert held.get(chip.pid, 0) + chip.amount >= 0, (move, chip, held)
            held[chip.pid] = held.get(chip.pid, 0) + chip.amount
        state = outcome.state
    raise AssertionError(f"no way to finish from {state.phase}")


def random_move(state: ConflictState, data: st.DataObject, held: dict[str, int]) -> Move:
    pcs = [p.pid for p in state.pcs]
    everyone = [p.pid for p in state.participants]
    pid = data.draw(st.sampled_from(everyone))
    amount = data.draw(st.integers(-1, 12))
    kinds: list[Move] = [
        Approve(pid, tuple(data.draw(st.permutations(ATTRIBUTES))[:2]), devil=0),  # type: ignore[arg-type]
        Deal("salt"),
        Draw(pid, ()),
        NameKnack(pid, "Shootin'", data.draw(st.integers(0, 5))),
        ApproveKnack(pid, "Ridin'", data.draw(st.integers(0, 5))),
        Fold(data.draw(st.sampled_from(pcs))),
        Call(now=data.draw(st.booleans())),
        Reveal(),
        PlaceBid(data.draw(st.sampled_from(pcs)), amount, held=held.get(pid, 0)),
        PlaceBid(pid, amount, held=data.draw(st.integers(0, 12))),
        WithdrawBid(pid),
        CloseBids(held=dict(held)),
        Finish(),
        DealerFold(),
    ]
    if state.phase == Phase.LAYING:
        p = state.participant(pid)
        kinds.append(
            ChooseLay(pid, tuple(data.draw(st.permutations(p.hand))[: min(5, len(p.hand))]))
        )
    return data.draw(st.sampled_from(kinds))


@settings(max_examples=depth(150), deadline=None)
@given(st.data())
def test_every_reachable_state_has_a_way_to_finish_r16(data: st.DataObject) -> None:
    """From every state the table can reach — random legal moves, chips spent and earned
    elsewhere between them — the Dealer can still end the conflict with legal moves, and the
    ledger is never asked for chips a player does not hold."""
    cast = [zeke(), black_jack(), luke(), stud(data.draw(st.sampled_from((3, 5, 7))))]
    state = new_conflict(cast, stakes=data.draw(st.integers(0, 3)))
    held = {p.pid: data.draw(st.integers(0, 6)) for p in cast}
    rng = random.Random(data.draw(st.integers(0, 2**16)))
    for _ in range(data.draw(st.integers(0, 30))):
        # Chips move elsewhere between the moves (a sheet's spend, a grant).
        who = data.draw(st.sampled_from(sorted(held)))
        held[who] = max(0, held[who] + data.draw(st.integers(-3, 3)))
        move = random_move(state, data, held)
        try:
            outcome = apply(state, move, rng)
        except IllegalMove:
            continue
        if any(held.get(c.pid, 0) + c.amount < 0 for c in outcome.chips):
            continue  # the ledger refuses it: the service refuses the whole move
        for chip in outcome.chips:
            held[chip.pid] = held.get(chip.pid, 0) + chip.amount
        state = outcome.state
        if state.phase in (Phase.DONE, Phase.FOLDED):
            return
        # From here, with the chips as they are now, the Dealer can always end it.
        assert dealer_finishes(state, dict(held), seed=1).phase in (Phase.DONE, Phase.FOLDED)


def test_the_frozen_conflict_of_the_issue_now_finishes_r16() -> None:
    """The report's own case: 3 chips, a bid of 50. Refused; then a bid of 3 and the chips
    spent elsewhere before the close: the conflict still ends."""
    state = saloon()
    assert "cannot be paid" in refused(state, PlaceBid(JACK, 50, held=3))
    state = step(state, PlaceBid(JACK, 3, held=3)).state
    done = dealer_finishes(state, {JACK: 0, LUKE: 0, BANG: 0}, seed=0)
    assert done.phase == Phase.DONE
    assert done.narrator == LUKE


def test_a_stud_hand_is_never_waited_for_r13() -> None:
    state = dealt([zeke(), stud(7)])
    state = step(state, Draw("zeke", ())).state
    assert unsettled(state) == ()
    assert step(state, Call()).state.phase == Phase.LAYING


def test_it_refuses_a_recovery_without_its_stud_r22() -> None:
    """A recovery is a conflict against the stud (R22): an NPC alone is not one."""
    from tests.conflicts.engine.conflict_kit import rival

    with pytest.raises(IllegalMove, match="against a 3-card stud"):
        new_conflict([zeke(), rival()], recovery=("zeke", 2))


# --- R19a: current values at the Deal, and no silent loss -------------------------------


def test_the_deal_sizes_hands_from_the_values_as_they_are_now_r19a() -> None:
    """Set up with Zeke's Hand 5 + Eye 3 (8 cards); by the Deal he took 2 Hand in another
    conflict and his session Devil is 3: he is dealt 3 + 3 = 6, and the log says why."""
    from conflicts.engine.conflict import Current

    state = new_conflict([zeke(), stud(5)])
    state = step(state, Approve("zeke", ("hand", "eye"))).state
    now = Current({"hand": 3, "eye": 3, "guts": 3, "heart": 2}, devil_rating=3)
    outcome = step(state, Deal("salt", current={"zeke": now}))
    zeke_now = outcome.state.participant("zeke")
    assert len(zeke_now.hand) == 6
    assert zeke_now.devil_rating == 3
    assert (
        outcome.events[0]
        == "Zeke Munroe is dealt as they are now: Hand 3 (was 5), Devil 3 (was 2) (R19a)."
    )


def test_approving_shows_the_deal_from_the_values_now_r19a() -> None:
    from conflicts.engine.conflict import Current

    state = new_conflict([zeke(), stud(5)])
    now = Current({"hand": 0, "eye": 3, "guts": 3, "heart": 2}, devil_rating=2)
    outcome = step(state, Approve("zeke", ("hand", "eye"), current=now))
    assert outcome.events == (
        "The Dealer sets Zeke Munroe's Deal at 5 cards.",
    )  # Devil 2 for Hand 0
    assert outcome.state.participant("zeke").last_stand  # R17: Hand is 0 now


def test_a_point_that_cannot_be_placed_is_said_in_the_log_r9_r19a() -> None:
    """Zeke, Guts 1 and Heart 0, beaten by a straight of clubs and hearts for 5 points: 1 can be
    placed, 4 cannot, and the log says so instead of dropping them."""
    z = zeke(currents={"hand": 5, "eye": 3, "guts": 1, "heart": 0})
    state = dealt([z, stud(5)], {"zeke": (("hand", "eye"), False, 0)})
    state = set_hands(state, {"zeke": "2C 3D 4D 5S 7H 9S JD QH", POSSE: "9C 10H JC QC KH"})
    state = revealed(state).state
    owed = state.owed[0]
    assert owed.points == 5
    outcome = step(state, Allocate("zeke", {"guts": 1}))
    assert outcome.events[-1] == (
        "4 points of Difficulty could not be placed: nothing below 0 (Heart 0, Guts 1) (R9)."
    )


# --- R13: the knack must be relevant, and the Dealer decides ------------------------------


def test_a_named_knack_grants_nothing_until_the_dealer_approves_it_r13() -> None:
    state = dealt([zeke(), stud(5)])
    hand = state.participant("zeke").hand
    named = step(state, NameKnack("zeke", "Trackin'", 3))
    assert named.events == (
        "Zeke Munroe names Trackin' (3) for the Draw: the Dealer decides (R13).",
    )
    message = refused(named.state, Draw("zeke", hand[:2]))
    assert message == (
        "You may discard at most 0 cards (knack 0; Trackin' waits for the Dealer's approval)."
    )
    approved = step(named.state, ApproveKnack("zeke", "Trackin'", 3))
    assert approved.events == ("The Dealer approves Trackin' (3) for Zeke Munroe's Draw (R13).",)
    assert step(approved.state, Draw("zeke", hand[:3])).state.participant("zeke").drew
    assert "at most 3" in refused(approved.state, Draw("zeke", hand[:4]))


def test_the_dealer_may_change_the_knack_named_r13() -> None:
    state = dealt([zeke(), stud(5)])
    state = step(state, NameKnack("zeke", "Shootin'", 2)).state
    changed = step(state, ApproveKnack("zeke", "Drinkin'", 1))
    assert changed.events == ("The Dealer changes Zeke Munroe's knack to Drinkin' (1) (R13).",)
    hand = changed.state.participant("zeke").hand
    assert "at most 1" in refused(changed.state, Draw("zeke", hand[:2]))


def test_the_dealer_may_approve_a_knack_in_advance_r13() -> None:
    """Approved at the sizing, before the player names one: the Draw has its limit at once,
    and naming that same knack keeps the approval."""
    state = new_conflict([zeke(), stud(5)])
    state = step(state, ApproveKnack("zeke", "Shootin'", 2)).state
    state = step(state, Approve("zeke", ("hand", "eye"))).state
    state = step(state, Deal("salt")).state
    assert step(state, NameKnack("zeke", "Shootin'", 2)).state.participant("zeke").knack_approved
    renamed = step(state, NameKnack("zeke", "Drinkin'", 3)).state
    assert not renamed.participant("zeke").knack_approved  # another knack: the Dealer decides
    hand = state.participant("zeke").hand
    assert step(state, Draw("zeke", hand[:2])).state.participant("zeke").drew


def test_a_knack_cannot_be_named_or_approved_after_drawing_r13() -> None:
    state = dealt([zeke(), stud(5)])
    state = step(state, Draw("zeke", ())).state
    assert "already drawn" in refused(state, NameKnack("zeke", "Shootin'", 2))
    assert "already drawn" in refused(state, ApproveKnack("zeke", "Shootin'", 2))
