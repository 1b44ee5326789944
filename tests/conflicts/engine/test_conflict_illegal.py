"""Illegal moves (R4, R9–R19): every move type refused in every wrong phase, and with bad
arguments in the right one, with an IllegalMove whose message is a plain sentence and a state
left exactly as it was (the kit's ``refused`` checks both).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from conflicts.engine.conflict import (
    Allocate,
    Approve,
    ApproveKnack,
    AwardExtraCard,
    AwardRedraw,
    Call,
    Cancel,
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
    OverrideDifficulty,
    Phase,
    PlaceBid,
    Propose,
    Restore,
    Reveal,
    SpendExtraCard,
    apply,
    new_conflict,
    winner_bonus_pids,
)
from tests.conflicts.engine.conflict_kit import (
    JACK,
    LUKE,
    POSSE,
    PURSES,
    RIVAL,
    approved,
    approved_knack,
    black_jack,
    cards,
    dealt,
    luke,
    play,
    refused,
    revealed,
    rival,
    set_hands,
    step,
    stud,
)

ORDER = [Phase.SIZING, Phase.DRAW, Phase.LAYING, Phase.RESOLUTION, Phase.DONE]


def _states() -> dict[Phase, ConflictState]:
    """One conflict in each phase: Black Jack and Luke against the posse and the rival."""
    hand_eye = (("hand", "eye"), False, 0)
    sizing = new_conflict([black_jack(), luke(), rival(), stud(5)])
    sizing = approved(sizing, dict.fromkeys((JACK, LUKE, RIVAL), hand_eye))
    drawing = dealt([black_jack(), luke(), rival(), stud(5)])
    drawing = set_hands(drawing, {
        JACK: "3H 3C 3D 7D 7C KS", LUKE: "AS 2C 4D 6H 8D 9D", RIVAL: "5H 5C 5D 2S 9C 10C",
        POSSE: "9S 9H 4C JD JC",
    })  # fmt: skip
    for pid in (JACK, LUKE, RIVAL):  # R13: the Dealer approved a knack of 2 for each
        drawing = approved_knack(drawing, pid, 2)
    laying = step(drawing, Call(now=True)).state
    resolution = step(laying, Reveal()).state
    # Black Jack's full house wins; Luke's ace high is beaten by the rival's three fives (3 on
    # Heart, Eye or Guts); the rival is beaten by the full house (5 on the same three).
    done_from, _ = play(resolution, [
        Allocate(LUKE, {"heart": 3}), Allocate(RIVAL, {"eye": 2, "guts": 2, "heart": 1}),
    ])  # fmt: skip
    done = step(done_from, Finish()).state
    folded = step(drawing, DealerFold()).state
    return {
        Phase.SIZING: sizing, Phase.DRAW: drawing, Phase.LAYING: laying,
        Phase.RESOLUTION: resolution, Phase.DONE: done, Phase.FOLDED: folded,
        Phase.CANCELLED: step(sizing, Cancel()).state,
    }  # fmt: skip


STATES = _states()
JACK_HAND = STATES[Phase.DRAW].participant(JACK).hand
POSSE_HAND = STATES[Phase.DRAW].participant(POSSE).hand

# Each move type, well formed, and the phases where the rules allow it.
MOVES: list[tuple[Move, set[Phase]]] = [
    (Propose(JACK, ("hand", "eye")), {Phase.SIZING}),
    (Approve(JACK, ("hand", "eye")), {Phase.SIZING}),
    (SpendExtraCard(JACK), {Phase.SIZING}),
    (AwardExtraCard(POSSE), {Phase.SIZING}),
    (Deal("salt"), {Phase.SIZING}),
    (Draw(JACK, JACK_HAND[:1]), {Phase.DRAW}),
    (NameKnack(JACK, "Gamblin'", 2), {Phase.SIZING, Phase.DRAW}),
    (ApproveKnack(JACK, "Gamblin'", 2), {Phase.SIZING, Phase.DRAW}),
    (AwardRedraw(POSSE, POSSE_HAND[0]), {Phase.DRAW}),
    (Fold(JACK), {Phase.SIZING, Phase.DRAW}),
    (DealerFold(), {Phase.SIZING, Phase.DRAW}),
    (Call(now=True), {Phase.DRAW}),
    (ChooseLay(JACK, cards("7D 7C 3H 3C KS")), {Phase.LAYING}),
    (Reveal(), {Phase.LAYING}),
    (PlaceBid(JACK, 1, held=9), {Phase.RESOLUTION}),
    (CloseBids(held=PURSES), {Phase.RESOLUTION}),
    (Allocate(LUKE, {"heart": 3}), {Phase.RESOLUTION}),
    (Restore(LUKE, "heart"), {Phase.RESOLUTION}),
    (OverrideDifficulty(JACK, RIVAL, "the rival's stray shot"), {Phase.RESOLUTION}),
    (Finish(), {Phase.RESOLUTION}),
    (Cancel(), {Phase.SIZING}),
]

EARLY_WORDS = ("yet",)
LATE_WORDS = ("over", "called", "on the table", "folded", "dealt:", "after", "cancelled")


def _wrong_phases() -> list[tuple[Move, Phase]]:
    return [(m, ph) for m, allowed in MOVES for ph in STATES if ph not in allowed]


def _too_early(phase: Phase, allowed: set[Phase]) -> bool:
    if phase in (Phase.FOLDED, Phase.CANCELLED):
        return False
    return ORDER.index(phase) < min(ORDER.index(a) for a in allowed)


@pytest.mark.parametrize(
    ("move", "phase"), _wrong_phases(), ids=lambda x: getattr(x, "value", type(x).__name__)
)
def test_it_refuses_every_move_in_the_wrong_phase_plainly_r10_r19(move: Move, phase: Phase) -> None:
    """R10–R19 (the order of a conflict: sizing R11, the Deal R10, the Draw R13, folds before
    the Call R19, lays R4, narration R16, Difficulty R9): a move out of turn is refused with a
    plain sentence that says whether it is too early or too late, and nothing changes."""
    allowed = next(a for m, a in MOVES if m is move)
    message = refused(STATES[phase], move)
    lowered = message.lower()
    if _too_early(phase, allowed):
        assert any(w in lowered for w in EARLY_WORDS), message
        assert not any(w in lowered for w in ("over", "on the table", "has called")), message
    else:
        assert not any(w in lowered for w in EARLY_WORDS), message
        assert "comes after" not in lowered, message


def test_it_has_a_well_formed_move_of_every_type_that_its_phase_accepts_r10() -> None:
    """R10–R19: the matrix above is fair: each move is accepted in (one of) its phases."""
    legal_somewhere = {
        "Restore": "needs a paid narrator",
        "Finish": "needs the Difficulty placed",
    }
    for move, allowed in MOVES:
        results = []
        for phase in allowed:
            try:
                apply(STATES[phase], move, random.Random(0))
            except IllegalMove as error:
                results.append(str(error))
            else:
                results.append("")
        if type(move).__name__ not in legal_somewhere:
            assert "" in results, (move, results)


# --- Bad arguments in the right phase ---------------------------------------------------------

S, D, L, R = (STATES[p] for p in (Phase.SIZING, Phase.DRAW, Phase.LAYING, Phase.RESOLUTION))

BAD: list[tuple[str, Callable[[], tuple[ConflictState, Move]], str]] = [
    # R11 sizing
    ("R11", lambda: (S, Propose(JACK, ("hand", "hand"))), "two different attributes"),
    ("R11", lambda: (S, Propose(JACK, ("hand", "luck"))), "two different attributes"),
    (
        "R11",
        lambda: (S, Propose(JACK, ("hand", "eye", "guts"))),  # type: ignore[arg-type]
        "two different attributes",
    ),
    ("R11", lambda: (S, Propose("nobody", ("hand", "eye"))), "not in this conflict"),
    ("R12", lambda: (S, Propose(POSSE, ("hand", "eye"))), "stud hand"),
    ("R11", lambda: (S, Approve(JACK, ("eye", "eye"))), "two different attributes"),
    ("R11", lambda: (S, Approve(JACK, ("hand", "eye"), False, -2)), "for, against"),
    ("R12", lambda: (S, Approve(POSSE, ("hand", "eye"))), "stud hand"),
    ("R15", lambda: (S, SpendExtraCard(POSSE)), "Only players"),
    ("R15", lambda: (S, SpendExtraCard(RIVAL)), "Only players"),
    ("R15", lambda: (S, AwardExtraCard(LUKE)), "Dealer's own hands"),
    ("R15", lambda: (S, AwardExtraCard("nobody")), "not in this conflict"),
    ("R11", lambda: (new_conflict([black_jack(), stud(5)]), Deal("s")), "not set the Deal"),
    # R13 the Draw
    ("R13", lambda: (D, Draw(JACK, JACK_HAND[:3])), "at most 2"),
    ("R13", lambda: (D, NameKnack(JACK, "Gamblin'", 5)), "1 to 4"),
    ("R13", lambda: (D, ApproveKnack(JACK, "Gamblin'", 0)), "1 to 4"),
    ("R13", lambda: (D, NameKnack(JACK, "  ", 2)), "Name the knack"),
    ("R13", lambda: (D, Draw(JACK, POSSE_HAND[:1])), "own hand"),
    ("R12", lambda: (D, Draw(POSSE, POSSE_HAND[:1])), "stud hand"),
    ("R12", lambda: (D, ApproveKnack(POSSE, "Ridin'", 2)), "stud hand"),
    (
        "R15",
        lambda: (D, Draw(RIVAL, cards("5H 5C 5D"), extra_chip=True)),
        "Only players",
    ),
    ("R15", lambda: (D, AwardRedraw(JACK, JACK_HAND[0])), "Dealer's own hands"),
    ("R15", lambda: (D, AwardRedraw(POSSE, JACK_HAND[0])), "not in that hand"),
    ("R19", lambda: (D, Fold(POSSE)), "Only players"),
    ("R19", lambda: (D, Fold(RIVAL)), "Only players"),
    # R4 lays
    ("R4", lambda: (L, ChooseLay(JACK, cards("7D 7C 3H 3C"))), "exactly 5"),
    ("R4", lambda: (L, ChooseLay(JACK, cards("7D 7C 3H 3C 5H"))), "own hand"),
    ("R4", lambda: (L, ChooseLay("nobody", cards("7D 7C 3H 3C KS"))), "not in this conflict"),
    # R16 narration
    ("R16", lambda: (R, PlaceBid(JACK, 0, held=9)), "at least one"),
    ("R16", lambda: (R, PlaceBid(JACK, -2, held=9)), "at least one"),
    ("R16", lambda: (R, PlaceBid(POSSE, 1, held=9)), "Dealer does not"),
    ("R16", lambda: (R, PlaceBid(RIVAL, 1, held=9)), "Dealer does not"),
    ("R16", lambda: (R, Restore(LUKE, "heart")), "paid chips"),
    # R9 Difficulty
    ("R9", lambda: (R, Allocate(JACK, {"hand": 1})), "no Difficulty"),
    ("R9", lambda: (R, Allocate(LUKE, {"hand": 3})), "only go to"),
    ("R9", lambda: (R, Allocate(LUKE, {"heart": 1})), "Place 3 points"),
    ("R9", lambda: (R, Allocate(LUKE, {"heart": 3, "hand": -1})), "negative"),
    ("R9", lambda: (R, Allocate(RIVAL, {"heart": 2, "eye": 3})), "only 1"),
    ("R9", lambda: (R, Finish()), "Waiting for"),
    # R14 the narrator's decree
    ("R14", lambda: (R, OverrideDifficulty(JACK, RIVAL, "")), "reason"),
    ("R14", lambda: (R, OverrideDifficulty(POSSE, RIVAL, "why")), "Only characters"),
    ("R14", lambda: (R, OverrideDifficulty(JACK, "nobody", "why")), "not in this conflict"),
]


@pytest.mark.parametrize(
    ("ruling", "build", "words"), BAD, ids=[f"{r}-{i}" for i, (r, _, _) in enumerate(BAD)]
)
def test_it_refuses_bad_arguments_with_a_plain_message_r4_r9_r19(ruling, build, words) -> None:
    """R4, R9, R11–R16, R19: each bad argument is refused, saying why (ruling in the id)."""
    state, move = build()
    assert words in refused(state, move)


def test_it_refuses_to_deal_or_draw_without_a_shuffle_r10() -> None:
    """R10: dealing and drawing need the random source (the server's, in production)."""
    state = new_conflict([black_jack(), stud(5)])
    state = step(state, Approve(JACK, ("hand", "eye"))).state
    with pytest.raises(IllegalMove, match="shuffle"):
        apply(state, Deal("s"), None)
    with pytest.raises(IllegalMove, match="shuffle"):
        apply(D, Draw(JACK, JACK_HAND[:1]), None)
    with pytest.raises(IllegalMove, match="shuffle"):
        apply(D, AwardRedraw(POSSE, POSSE_HAND[0]), None)


@pytest.mark.parametrize(
    ("participants", "kwargs", "words"),
    [
        (lambda: [black_jack(), stud(5)], {"stakes": 4}, "0 to 3"),
        (lambda: [black_jack(), black_jack(side="b")], {}, "only once"),
        (lambda: [rival(), stud(5)], {}, "player character"),
        (lambda: [black_jack(), luke()], {}, "two opposed hands, on two sides"),
        (lambda: [black_jack(), stud(4)], {}, "3, 5 or 7"),
    ],
    ids=["stakes-R18", "twice-R14", "no-pc-R14", "one-side-R14", "stud-R12"],
)
def test_it_refuses_a_conflict_that_breaks_the_rules_r12_r14_r18(participants, kwargs, words):
    """R12/R14/R18: a conflict has player characters, two sides, stud hands of 3/5/7 and
    Stakes of 0–3."""
    with pytest.raises(IllegalMove, match=words):
        new_conflict(participants(), **kwargs)


@pytest.mark.parametrize("phase", [p for p in STATES if p != Phase.DONE])
def test_it_deals_again_only_after_a_finished_conflict_r20(phase: Phase) -> None:
    """R20: "Deal again" follows a finished conflict (a folded one stays unresolved)."""
    with pytest.raises(IllegalMove, match="finished"):
        winner_bonus_pids(STATES[phase], house_rule=True)


def test_it_reaches_every_phase_in_the_matrix_r10() -> None:
    """The matrix covers every phase, and the finished one really finished."""
    assert {s.phase for s in STATES.values()} == set(Phase)
    assert STATES[Phase.DONE].winner == JACK
    assert STATES[Phase.RESOLUTION].narrator == LUKE
    assert revealed(D).state.phase == Phase.RESOLUTION
