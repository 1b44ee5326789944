"""Hidden information (R10): ``visible_cards`` is the one place that decides who sees which card.

Before the reveal a player sees only their own hand and their own discards: never another
player's hand, never the Dealer's, never the deck. The Dealer sees every hand. From the reveal
on, everyone also sees every lay of those who did not fold, but not the cards left out of a lay,
and never a folded hand.

The fixed scenes walk every phase of the seed's conflicts; the property test plays random move
sequences (legal and not) through several casts and checks, after every move, visibility, the 54
cards (R10), the chips each move writes (R15, R16, R18, R19) and that refusals change nothing.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards.deck import Card
from conflicts.engine.conflict import (
    Allocate,
    Approve,
    ApproveKnack,
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
    Move,
    OverrideDifficulty,
    Participant,
    Phase,
    PlaceBid,
    Propose,
    Restore,
    Reveal,
    SpendExtraCard,
    apply,
    default_allocation,
    new_conflict,
    visible_cards,
)
from tests.conflicts.engine.conflict_kit import (
    BANG,
    JACK,
    LUKE,
    POSSE,
    PURSES,
    RIVAL,
    ZEKE,
    black_jack,
    cards,
    check_conserved,
    dealt,
    luke,
    mccreedy,
    play,
    rival,
    set_hands,
    step,
    stud,
    zeke,
)
from tests.conftest import depth

REVEALED = (Phase.RESOLUTION, Phase.DONE)


def _cards_of(parts: Iterable[Participant], attr: str) -> set[Card]:
    out: set[Card] = set()
    for p in parts:
        out |= set(getattr(p, attr) or ())
    return out


def check_visibility(state: ConflictState) -> None:
    """R10: the visibility rules, for every player, the Dealer and an onlooker."""
    stock = set(state.deck.stock) if state.deck is not None else set()
    pile = set(state.deck.discards) if state.deck is not None else set()
    everyone = state.participants
    all_hands = _cards_of(everyone, "hand")
    all_discarded = _cards_of(everyone, "discarded")

    # The Dealer sees every hand (and the discards), never the stock as such.
    dealer_pids = [p.pid for p in everyone if p.kind != Kind.PC]
    dealer_view = visible_cards(state, dealer_pids, dealer=True)
    assert dealer_view == all_hands | all_discarded
    assert dealer_view & stock <= all_discarded  # only discards since reshuffled (R10)

    lays = {p.pid: set(p.lay or ()) for p in everyone if not p.folded}
    shown = set().union(*lays.values()) if state.phase in REVEALED else set()

    # An onlooker with no hand sees only the revealed lays.
    assert visible_cards(state, [], dealer=False) == shown

    for me in (p for p in everyone if p.kind == Kind.PC):
        view = visible_cards(state, [me.pid], dealer=False)
        mine = set(me.hand) | set(me.discarded)
        assert set(me.hand) <= view, "a player always sees their own hand"
        assert set(me.discarded) <= view
        # Whatever else they see is a revealed lay of someone who did not fold.
        others_shown = set().union(*(v for pid, v in lays.items() if pid != me.pid)) if (
            state.phase in REVEALED
        ) else set()  # fmt: skip
        assert view == mine | others_shown, (me.pid, state.phase)
        for other in everyone:
            if other.pid == me.pid:
                continue
            seen = view & set(other.hand)
            allowed = set(other.lay or ()) if (
                state.phase in REVEALED and not other.folded
            ) else set()  # fmt: skip
            # A card the viewer discarded and the deck later dealt to the other hand is
            # knowledge they had, not a look at the other hand (see the report, R10).
            assert seen <= allowed | set(me.discarded), (me.pid, other.pid, state.phase)
            if other.folded:
                assert not (view & set(other.hand)) - set(me.discarded)
        assert view & stock <= set(me.discarded)
        assert view & pile <= set(me.discarded) | shown


# =============================================================================================
# Fixed scenes through every phase


def _phases_of_the_ambush() -> list[ConflictState]:
    """The posse ambush, Black Jack keeping the K♠, McCreedy folding, each phase in turn."""
    sizing = new_conflict([black_jack(), luke(), mccreedy(), stud(5)], stakes=1)
    state = dealt([black_jack(), luke(), mccreedy(), stud(5)], stakes=1)
    state = set_hands(state, {
        JACK: "3H 3C 7D 7C 9D QD", LUKE: "AS 2C 4D 6H 8D 10C", BANG: "KH KD 2S 5S",
        POSSE: "9S 9H 4C 5D JC",
    })  # fmt: skip
    states = [sizing, state]
    state, outs = play(state, [
        ApproveKnack(JACK, "Gamblin'", 2), ApproveKnack(LUKE, "Ridin'", 1),
        Draw(JACK, cards("9D QD")), Draw(LUKE, cards("2C")),
        AwardRedraw(POSSE, cards("4C")[0]), Fold(BANG), Call(now=True),
    ])  # fmt: skip
    states += [o.state for o in outs]
    state, outs = play(state, [ChooseLay(LUKE, cards("AS 4D 6H 8D 10C")), Reveal()])
    states += [o.state for o in outs]
    moves: list[Move] = [PlaceBid(JACK, 1, held=9), CloseBids(held=PURSES)]
    moves += [Allocate(o.pid, default_allocation(o, state.participant(o.pid).currents))
              for o in outs[-1].state.owed]  # fmt: skip
    state, outs = play(outs[-1].state, [*moves, Finish()])
    states += [o.state for o in outs]
    return states


def test_it_shows_a_player_only_their_own_cards_before_the_reveal_r10() -> None:
    """R10: in the Draw and after the Call a player sees their own hand and discards only."""
    for state in _phases_of_the_ambush():
        check_visibility(state)
        if state.phase in (Phase.DRAW, Phase.LAYING):
            jack = state.participant(JACK)
            view = visible_cards(state, [JACK], dealer=False)
            assert view == set(jack.hand) | set(jack.discarded)
            for other in (LUKE, BANG, POSSE):
                assert not view & set(state.participant(other).hand)


def test_it_shows_the_dealer_every_hand_but_never_the_stock_r10() -> None:
    """R10: the Dealer sees every hand, the folded one too; the stock stays face down."""
    for state in _phases_of_the_ambush():
        if state.deck is None:
            continue
        view = visible_cards(state, [POSSE], dealer=True)
        for p in state.participants:
            assert set(p.hand) <= view
        assert not view & set(state.deck.stock)


def test_it_shows_every_lay_but_no_unlaid_card_after_the_reveal_r10() -> None:
    """R10/R4: from the reveal on, everyone sees every lay of those who did not fold; Luke's
    unlaid 3rd card, the posse's redrawn 4♣ and McCreedy's folded hand stay hidden."""
    states = [s for s in _phases_of_the_ambush() if s.phase in REVEALED]
    assert states
    for state in states:
        view = visible_cards(state, [JACK], dealer=False)
        luke_p = state.participant(LUKE)
        assert set(luke_p.lay or ()) <= view
        assert not (set(luke_p.hand) - set(luke_p.lay or ())) & view
        assert set(state.participant(POSSE).lay or ()) <= view
        assert cards("4C")[0] not in view  # the posse's discard
        assert not set(state.participant(BANG).hand) & view
        assert not set(state.participant(LUKE).discarded) & view
        # McCreedy, folded, sees the lays too but still not Black Jack's discards.
        bang_view = visible_cards(state, [BANG], dealer=False)
        assert set(state.participant(JACK).lay or ()) <= bang_view
        assert not set(state.participant(JACK).discarded) & bang_view


def test_it_hides_everything_when_the_conflict_folds_r10_r15() -> None:
    """R10/R15: a folded conflict reveals nothing: each player keeps seeing only their own."""
    state = dealt([black_jack(), luke(), rival()])
    folded = step(state, DealerFold()).state
    check_visibility(folded)
    assert visible_cards(folded, [JACK], dealer=False) == set(folded.participant(JACK).hand)
    assert visible_cards(folded, [], dealer=False) == set()


def test_it_hides_an_important_npcs_hand_like_any_other_r10_r12() -> None:
    """R10/R12: the rival's own hand is the Dealer's, hidden from Luke until the reveal."""
    state = dealt([luke(), rival()])
    assert not visible_cards(state, [LUKE], dealer=False) & set(state.participant(RIVAL).hand)
    assert set(state.participant(RIVAL).hand) <= visible_cards(state, [RIVAL], dealer=True)


def test_it_shows_nothing_before_the_deal_r10() -> None:
    """R10: no cards before the Deal (and no deck)."""
    state = new_conflict([zeke(), stud(3)])
    assert state.deck is None
    assert visible_cards(state, [ZEKE], dealer=False) == set()
    assert visible_cards(state, [POSSE], dealer=True) == set()


# =============================================================================================
# Random move sequences


def _cast(name: str) -> tuple[list[Participant], int]:
    if name == "ambush":
        return [black_jack(), luke(), mccreedy(), stud(5)], 1
    if name == "bank":
        return [black_jack(), luke(), mccreedy(), stud(7, name="The bank")], 2
    if name == "saloon":
        return [black_jack(), luke(), mccreedy(), stud(3)], 0
    if name == "rival":
        return [luke(), zeke(), rival(), stud(3)], 1
    if name == "gunfight":
        return [black_jack(side="jack"), luke(side="luke"), stud(5)], 3
    if name == "last_stand":
        broken = zeke(currents={"hand": 5, "eye": 3, "guts": 0, "heart": 2})
        other = luke(currents={"hand": 3, "eye": 3, "guts": 3, "heart": 0})
        return [broken, other, black_jack(), stud(5)], 1
    # "crowd": deals big enough to run the deck dry and reshuffle (R10).
    return [zeke(), black_jack(), luke(), mccreedy(), stud(7)], 1


CASTS = ["ambush", "bank", "saloon", "rival", "gunfight", "last_stand", "crowd"]
PAIRS = [("hand", "eye"), ("guts", "hand"), ("heart", "eye"), ("guts", "heart")]


def _candidates(state: ConflictState, r: random.Random, big: bool = False) -> list[Move]:
    """Moves worth trying now: mostly the phase's own, a few out of turn. ``big``: the largest
    Deals and Draws, to run the deck dry (R10)."""
    ps = state.participants
    pcs = [p for p in ps if p.kind == Kind.PC]
    dealers = [p for p in ps if p.kind != Kind.PC]
    own = [p for p in ps if p.has_own_hand]
    anyone = r.choice(ps)
    out: list[Move] = [
        r.choice([Call(now=True), Reveal(), Finish(), CloseBids(held=PURSES), Deal("x")])
    ]
    if state.phase == Phase.SIZING:
        for p in own:
            devil = r.choice([-1, 0, 1]) if p.devil_rating else 0
            if big:
                out.append(Approve(p.pid, ("hand", "eye"), True, 1 if p.devil_rating else 0))
            else:
                out.append(Approve(p.pid, r.choice(PAIRS), r.random() < 0.3, devil))
        if r.random() < 0.08:
            out.insert(0, Fold(r.choice(pcs).pid))
        if r.random() < 0.02:
            out.insert(0, DealerFold())
        out += [Propose(r.choice(own).pid, r.choice(PAIRS), True)]
        out += [SpendExtraCard(r.choice(pcs).pid), AwardExtraCard(r.choice(dealers).pid)]
        out += [Deal("salt"), Deal("salt"), Deal("salt")]
    elif state.phase == Phase.DRAW:
        for p in own:
            hand = list(p.hand)
            k = r.randint(0, min(len(hand), 5 if big else 3))
            out.append(ApproveKnack(p.pid, "Shootin'", r.randint(1, 4)))
            out.append(Draw(p.pid, tuple(r.sample(hand, k)), r.random() < 0.5))
        d = r.choice(dealers)
        if d.hand:
            out.append(AwardRedraw(d.pid, r.choice(d.hand)))
        if r.random() < 0.08:
            out.insert(0, Fold(r.choice(pcs).pid))
        if r.random() < 0.02:
            out.insert(0, DealerFold())
        out += [Call(now=True), Call(now=True)]
    elif state.phase == Phase.LAYING:
        for p in ps:
            n = min(5, len(p.hand))
            out.append(ChooseLay(p.pid, tuple(r.sample(list(p.hand), n))))
        out += [Reveal(), Reveal()]
    elif state.phase == Phase.RESOLUTION:
        out += [
            PlaceBid(r.choice(pcs).pid, r.randint(0, 3), held=r.randint(0, 3)) for _ in range(3)
        ]
        out += [CloseBids(held=PURSES)]
        for o in state.owed:
            currents = state.participant(o.pid).currents
            out.append(Allocate(o.pid, default_allocation(o, currents)))
            out.append(Allocate(o.pid, {r.choice(o.attributes): r.randint(0, 3)}))
        if state.narrator is not None:
            out.append(Restore(state.narrator, r.choice(["hand", "eye", "guts", "heart"])))
        source = r.choice([None, *[p.pid for p in ps]])
        if r.random() < 0.3:
            out.insert(0, OverrideDifficulty(anyone.pid, source, r.choice(["", "a decree"])))
        out += [Finish()]
    return out


def _expected_chips(before: ConflictState, move: Move, after: ConflictState) -> set | None:
    """The chips a move must write (R15, R16, R18, R19); None: checked elsewhere."""
    still_in = [p.pid for p in before.pcs if not p.folded]
    if isinstance(move, Fold):
        return {ChipMove(move.pid, -1, "fold")}
    if isinstance(move, AwardExtraCard | AwardRedraw | DealerFold):
        return {ChipMove(pid, 1, "dealer_award") for pid in still_in}
    if isinstance(move, SpendExtraCard):
        return {ChipMove(move.pid, -1, "extra_card")}
    if isinstance(move, Draw):
        me = before.participant(move.pid)
        knack = me.knack_rating if me.knack_approved else 0  # R13: the approved knack
        base = knack + (me.devil_rating if me.last_stand else 0)
        used = move.extra_chip and len(set(move.discards)) > base
        return {ChipMove(move.pid, -1, "extra_draw")} if used else set()
    if isinstance(move, CloseBids):
        if not before.bids:
            return set()
        assert after.narrator is not None
        return {ChipMove(after.narrator, -after.narration_paid, "narration_bid")}
    if isinstance(move, Finish):
        assert before.winner is not None
        side = before.participant(before.winner).side
        return {
            ChipMove(p.pid, before.stakes, "stakes")
            for p in before.pcs
            if before.stakes and p.side == side and not p.folded
        }
    return set()


def _check_state(state: ConflictState) -> None:
    check_conserved(state)
    check_visibility(state)
    for o in state.owed:
        p = state.participant(o.pid)
        assert p.is_character  # R14: stud hands take no Difficulty
        assert not p.folded  # R19: a folded hand takes none
    if state.phase in (Phase.LAYING, *REVEALED):
        for p in state.participants:
            if p.folded:
                assert p.lay is None
            else:
                assert p.lay is not None
                assert set(p.lay) <= set(p.hand)
                assert len(p.lay) == min(5, len(p.hand))  # R4
    if state.phase in REVEALED:
        assert state.winner is not None
        assert state.narrator is not None
        assert not state.participant(state.narrator).folded
        assert not state.participant(state.winner).folded
    if state.phase == Phase.DONE:
        assert all(o.allocation is not None for o in state.owed)


def _random_play(cast: str, seed: int, data: st.DataObject) -> None:
    participants, stakes = _cast(cast)
    state = new_conflict(participants, stakes=stakes)
    r = random.Random(data.draw(st.integers(0, 2**32 - 1)))
    rng = random.Random(seed)
    _check_state(state)
    for _ in range(90):
        if state.phase in (Phase.DONE, Phase.FOLDED):
            break
        move = r.choice(_candidates(state, r, big=cast == "crowd"))
        snapshot = repr(state)
        try:
            outcome = apply(state, move, rng)
        except IllegalMove as error:
            message = str(error)
        else:
            message = ""
        if message:
            assert repr(state) == snapshot, message
            continue
        expected = _expected_chips(state, move, outcome.state)
        assert set(outcome.chips) == expected, (move, outcome.chips)
        assert len(outcome.chips) == len(expected or ())
        for chip in outcome.chips:  # chips go to players only
            assert outcome.state.participant(chip.pid).kind == Kind.PC
        state = outcome.state
        _check_state(state)


@settings(max_examples=depth(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cast=st.sampled_from(CASTS), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_it_keeps_every_rule_through_random_move_sequences_r10_r15_r19(cast, seed, data) -> None:
    """R10 (visibility, conservation), R15/R16/R18/R19 (chips): whatever moves come, legal or
    not, in whatever order, the invariants hold after every move, and refusals change nothing."""
    _random_play(cast, seed, data)


@pytest.mark.slow
@settings(max_examples=depth(3000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cast=st.sampled_from(CASTS), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_it_keeps_every_rule_through_many_more_random_sequences_r10_r15_r19(
    cast, seed, data
) -> None:
    """R10/R15/R16/R18/R19: the same property, twenty times the examples (marked slow)."""
    _random_play(cast, seed, data)
