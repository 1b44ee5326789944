"""The R27 dice roller and the R23/R32 TN check (cards/dice.py)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cards.dice import (
    SIDES,
    DiceSpec,
    Die,
    Opposed,
    Roll,
    check_tn,
    dice_spec,
    opposed,
    parse_dice,
    roll,
)
from cards.errors import IllegalMove


class Scripted(random.Random):
    """An rng whose dice show the given faces, in order."""

    def __init__(self, faces: list[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        face = self.faces.pop(0)
        assert a <= face <= b
        return face


def test_r27_aces_explode_and_the_highest_die_is_the_total() -> None:
    """R27: a d6 showing 6 rolls again and adds; the highest die (not the sum) is the total."""
    result = roll(DiceSpec(3, 6), Scripted([6, 4, 2, 1]))
    assert result.faces == ((6, 4), (2,), (1,))
    assert result.total == 10
    assert not result.bust


def test_r27_an_ace_can_explode_again_and_again() -> None:
    result = roll(DiceSpec(1, 4), Scripted([4, 4, 4, 3]))
    assert result.faces == ((4, 4, 4, 3),)
    assert result.total == 15


def test_r27_bust_when_more_than_half_the_dice_show_one() -> None:
    """R27: 2 ones of 3 dice is a bust; 1 of 2 (exactly half) is not; an aced die is no 1."""
    assert roll(DiceSpec(3, 6), Scripted([1, 1, 5])).bust
    assert not roll(DiceSpec(2, 6), Scripted([1, 5])).bust
    assert roll(DiceSpec(1, 8), Scripted([1])).bust
    assert not roll(DiceSpec(3, 6), Scripted([6, 1, 1, 3])).bust  # (6+1), 1, 3: one 1 of 3


@pytest.mark.parametrize(
    ("count", "sides", "words"),
    [
        (0, 6, "at least one die"),
        (3, 7, "no d7"),
        (1, 2, "no d2"),
        (2, 20, "no d20"),
        (-1, 6, "at least one die"),
        (500, 6, "more than anyone rolls"),
        ("3", 6, "whole number"),
        (True, 6, "whole number"),
    ],
)
def test_r27_dice_outside_d4_to_d12_are_refused_in_plain_words(
    count: object, sides: object, words: str
) -> None:
    with pytest.raises(IllegalMove, match=words):
        dice_spec(count, sides)


@pytest.mark.parametrize("text", ["0d6", "3d7", "d2", "1d20", "three d6", "", "6"])
def test_r27_parse_dice_refuses_what_is_not_a_die_of_the_box(text: str) -> None:
    with pytest.raises(IllegalMove):
        parse_dice(text)


def test_r27_parse_dice_reads_the_usual_notation() -> None:
    assert parse_dice("3d6") == DiceSpec(3, 6)
    assert parse_dice(" D8 ") == DiceSpec(1, 8)
    assert parse_dice("2 d 12") == DiceSpec(2, 12)


@given(
    st.integers(min_value=1, max_value=8),
    st.sampled_from(SIDES),
    st.integers(min_value=0, max_value=10**6),
)
def test_r27_every_roll_keeps_its_faces_and_reads_them_as_r27_says(
    count: int, sides: int, seed: int
) -> None:
    result = roll(DiceSpec(count, sides), random.Random(seed))
    assert len(result.dice) == count
    for die in result.dice:
        assert all(1 <= f <= sides for f in die.faces)
        assert all(f == sides for f in die.faces[:-1])  # only aces roll again
        assert die.faces[-1] != sides
    assert result.total == max(sum(d.faces) for d in result.dice)
    assert result.bust == (sum(1 for d in result.dice if d.faces == (1,)) * 2 > count)


def test_r27_the_same_seed_rolls_the_same_dice() -> None:
    assert roll(DiceSpec(4, 10), random.Random(3)) == roll(DiceSpec(4, 10), random.Random(3))


@pytest.mark.parametrize(
    ("total", "success", "raises"),
    [(0, False, 0), (4, False, 0), (5, True, 0), (9, True, 0), (10, True, 1), (13, True, 1),
     (14, True, 1), (15, True, 2), (17, True, 2), (20, True, 3)],
)  # fmt: skip
def test_r23_r32_a_success_at_tn_and_a_raise_per_further_five(
    total: int, success: bool, raises: int
) -> None:
    check = check_tn(total, 5)
    assert check.success is success
    assert check.raises == raises


def test_r32_a_tn_other_than_five() -> None:
    """R32: the Dealer resolves an action against any TN: 11 at TN 7 is a success, no raise."""
    assert (check_tn(11, 7).success, check_tn(11, 7).raises) == (True, 0)
    assert (check_tn(12, 7).success, check_tn(12, 7).raises) == (True, 1)
    assert not check_tn(6, 7).success
    assert "a success and 1 raise" in str(check_tn(12, 7))


def test_r27_a_bust_fails_whatever_the_total() -> None:
    check = check_tn(12, 5, bust=True)
    assert not check.success
    assert check.successes_and_raises == 0
    assert "bust" in str(check)


@pytest.mark.parametrize("bad", [-1, "7", 2.5, None])
def test_r32_a_total_that_is_not_a_whole_number_is_refused(bad: object) -> None:
    with pytest.raises(IllegalMove, match="whole number"):
        check_tn(bad, 5)  # type: ignore[arg-type]


def test_r26_opposed_roll_success_raise_and_failure() -> None:
    """R26: beat the other's total for a success (both act at once), by 5 for a raise (first)."""
    assert opposed(9, 8) == Opposed.SUCCESS
    assert opposed(13, 8) == Opposed.RAISE
    assert opposed(8, 8) == Opposed.FAILURE  # a tie keeps the action under way
    assert opposed(3, 8) == Opposed.FAILURE
    assert opposed(20, 2, bust=True) == Opposed.FAILURE
    assert opposed(4, 30, other_bust=True) == Opposed.SUCCESS
    assert opposed(6, 30, other_bust=True) == Opposed.RAISE


def test_roll_text_shows_each_die() -> None:
    text = str(Roll(6, (Die((6, 4)), Die((2,)), Die((1,)))))
    assert text == "3d6: 6+4 2 1 → 10"
