"""The dice roller of the action deck (rulings R23, R26, R27 and R32).

R27: N dice of one type, d4 to d12 (even sides only: 4, 6, 8, 10 or 12). A die that shows its
maximum rolls again and adds (an ace); the highest die is the roll's total; the roll is a bust
when more than half the dice show a 1. Every die keeps the faces it showed, aces included, so a
screen can show ``[6, 4]`` for a d6 that aced into a 10.

R23/R32: a total checked against a target number (TN) makes one success at the TN and a raise for
every further full 5 (at TN 5: 5–9 a success, 10–14 a success and a raise, 15–19 two raises…).
A bust is a failure whatever its total.

Randomness is injected: ``roll`` takes an ``rng`` with the ``random.Random`` interface.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from enum import StrEnum

from .errors import IllegalMove

__all__ = [
    "SIDES",
    "DiceSpec",
    "Die",
    "Opposed",
    "Roll",
    "TNCheck",
    "check_tn",
    "dice_spec",
    "opposed",
    "parse_dice",
    "roll",
]

SIDES = (4, 6, 8, 10, 12)  # R27: d4 to d12, the dice a table has
MAX_DICE = 20  # more dice than any character rolls; keeps a typo from rolling a thousand dice


@dataclass(frozen=True, slots=True)
class DiceSpec:
    """``count`` dice of ``sides`` sides, e.g. 3d6. Build it with ``dice_spec`` to check it."""

    count: int
    sides: int

    def __str__(self) -> str:
        return f"{self.count}d{self.sides}"


def dice_spec(count: object, sides: object) -> DiceSpec:
    """R27: a checked dice spec; a plain-words ``IllegalMove`` for 0d6, 3d7, d2, d20…"""
    if not isinstance(count, int) or isinstance(count, bool):
        raise IllegalMove("The number of dice is a whole number, like the 3 in 3d6.")
    if not isinstance(sides, int) or isinstance(sides, bool):
        raise IllegalMove("A die's sides are a whole number, like the 6 in 3d6.")
    if count < 1:
        raise IllegalMove(f"Roll at least one die: {count}d{sides} rolls nothing.")
    if count > MAX_DICE:
        raise IllegalMove(f"{count} dice is more than anyone rolls: at most {MAX_DICE}.")
    if sides not in SIDES:
        raise IllegalMove(f"There is no d{sides} in the box: the dice are d4, d6, d8, d10 and d12.")
    return DiceSpec(count, sides)


_SPEC = re.compile(r"^\s*(\d*)\s*d\s*(\d+)\s*$", re.IGNORECASE)


def parse_dice(text: str) -> DiceSpec:
    """``"3d6"`` (or ``"d8"`` for one die) as a checked ``DiceSpec``."""
    match = _SPEC.match(text or "")
    # Thousands of digits are no dice either (int() refuses past 4,300 digits: issue 28).
    if match is None or len(match.group(1)) + len(match.group(2)) > 8:
        raise IllegalMove(f"{text[:20]!r} is not a dice roll: write it like 3d6 or 2d8.")
    count = int(match.group(1)) if match.group(1) else 1
    return dice_spec(count, int(match.group(2)))


@dataclass(frozen=True, slots=True)
class Die:
    """One die as rolled: every face it showed, the aces first (``(6, 6, 2)`` is 14)."""

    faces: tuple[int, ...]

    @property
    def value(self) -> int:
        return sum(self.faces)


@dataclass(frozen=True, slots=True)
class Roll:
    """R27: the dice rolled; the total is the highest die; a bust when more than half show 1."""

    sides: int
    dice: tuple[Die, ...]

    @property
    def total(self) -> int:
        return max((d.value for d in self.dice), default=0)

    @property
    def ones(self) -> int:
        return sum(1 for d in self.dice if d.value == 1)

    @property
    def bust(self) -> bool:
        return self.ones * 2 > len(self.dice)

    @property
    def faces(self) -> tuple[tuple[int, ...], ...]:
        return tuple(d.faces for d in self.dice)

    def __str__(self) -> str:
        shown = " ".join("+".join(str(f) for f in d.faces) for d in self.dice)
        bust = ", bust" if self.bust else ""
        return f"{len(self.dice)}d{self.sides}: {shown} → {self.total}{bust}"


def roll(spec: DiceSpec, rng: random.Random) -> Roll:
    """Roll ``spec`` (R27): each die that shows its maximum rolls again and adds."""
    spec = dice_spec(spec.count, spec.sides)
    dice = []
    for _ in range(spec.count):
        faces = [rng.randint(1, spec.sides)]
        while faces[-1] == spec.sides:  # an ace: roll again and add
            faces.append(rng.randint(1, spec.sides))
        dice.append(Die(tuple(faces)))
    return Roll(spec.sides, tuple(dice))


@dataclass(frozen=True, slots=True)
class TNCheck:
    """A total against a target number (R23, R32): a success at the TN, a raise per further 5."""

    total: int
    tn: int
    bust: bool
    success: bool
    raises: int

    @property
    def successes_and_raises(self) -> int:
        """What R23 counts: 1 for the success plus 1 per raise (0 on a failure)."""
        return (1 + self.raises) if self.success else 0

    def __str__(self) -> str:
        if self.bust:
            return f"{self.total} against TN {self.tn}: bust"
        if not self.success:
            return f"{self.total} against TN {self.tn}: failure"
        raises = f" and {self.raises} raise{'s' if self.raises != 1 else ''}" if self.raises else ""
        return f"{self.total} against TN {self.tn}: a success{raises}"


def check_tn(total: int, tn: int = 5, *, bust: bool = False) -> TNCheck:
    """R32 (and R23 at TN 5): one success at ``tn``, one raise for each further full 5.

    A bust fails whatever the total. ``tn`` must be at least 1; the total at least 0.
    """
    if not isinstance(total, int) or isinstance(total, bool) or total < 0:
        raise IllegalMove("A roll's total is a whole number, 0 or more.")
    if not isinstance(tn, int) or isinstance(tn, bool) or tn < 1:
        raise IllegalMove("A target number is a whole number, 1 or more.")
    if bust or total < tn:
        return TNCheck(total, tn, bust, False, 0)
    return TNCheck(total, tn, bust, True, (total - tn) // 5)


class Opposed(StrEnum):
    """The outcome of an opposed roll for an interrupt (R26)."""

    FAILURE = "failure"  # the interrupt does not happen
    SUCCESS = "success"  # both actions happen at once
    RAISE = "raise"  # the interrupter goes first


def opposed(total: int, other: int, *, bust: bool = False, other_bust: bool = False) -> Opposed:
    """R26: an opposed Quickness roll, read like a TN check against the other's total.

    The interrupter needs to beat the other total (a tie keeps the action under way: the one
    already acting keeps the initiative); beating it by 5 or more is a raise. A bust always
    fails; a bust on the other side counts as a total of 0.
    """
    if bust:
        return Opposed.FAILURE
    if other_bust:
        other = 0
    if total <= other:
        return Opposed.FAILURE
    return Opposed.RAISE if total >= other + 5 else Opposed.SUCCESS
