"""Character rules as plain Python (rulings R15, R28, R29): no Django, so forms, services,
the importer and the tests all ask the same questions and get the same plain-words answers.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

ATTRIBUTES: tuple[str, ...] = ("hand", "eye", "guts", "heart")
ATTRIBUTE_LABELS = {"hand": "Hand", "eye": "Eye", "guts": "Guts", "heart": "Heart"}
ATTRIBUTE_SUITS = {"hand": "♠", "eye": "♦", "guts": "♣", "heart": "♥"}  # R2

PC_ATTRIBUTE_POINTS = 13  # R28
PC_KNACK_POINTS = 11  # R28
ATTRIBUTE_MIN_PC, ATTRIBUTE_MAX = 1, 5
ATTRIBUTE_MIN_NPC = 0
KNACK_MIN, KNACK_MAX = 1, 4
DEVIL_MIN, DEVIL_MAX = 1, 3
NEW_KNACK_COST = 2  # R15: a new knack at 1 costs two chips


def max_knacks(hand: int, eye: int) -> int:
    """R15/R28: no more knacks than Hand + Eye, or 6, whichever is higher."""
    return max(hand + eye, 6)


def attribute_improvement_cost(new_rating: int) -> int:
    """R15: improving an attribute costs twice the new rating."""
    return 2 * new_rating


def knack_improvement_cost(new_rating: int) -> int:
    """R15: improving a knack by one costs the new rating."""
    return new_rating


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a sheet: which field, and what to do about it in plain words."""

    field: str
    message: str


@dataclass(frozen=True)
class SheetSummary:
    """The live feedback the creation form shows while the player types."""

    attribute_points: int
    attribute_points_left: int
    knack_points: int
    knack_points_left: int
    knack_count: int
    knack_limit: int
    problems: tuple[Problem, ...]
    # The point budgets: R28's 13 and 11, plus the points bought since with chips (R15).
    attribute_budget: int = PC_ATTRIBUTE_POINTS
    knack_budget: int = PC_KNACK_POINTS
    # Gentle advice that never stops a save (a trait written as a lone adjective).
    hints: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems


TRAIT_EXAMPLE = "Fast as a rattler"
_SIMILE = re.compile(r"\b(as|like|than)\b", re.IGNORECASE)


def trait_hints(traits: Sequence[str]) -> tuple[str, ...]:
    """A gentle hint for each trait written as a lone word ("Fast") rather than a simile
    ("Fast as a rattler", R28's "tough as nails"). Advice only: the sheet still saves."""
    hints = []
    for trait in traits:
        text = " ".join(trait.split())
        if text and " " not in text and not _SIMILE.search(text):
            hints.append(
                f"\u201c{text}\u201d could say more as a simile: \u201c{text.capitalize()} as "
                f"a\u2026\u201d, like \u201c{TRAIT_EXAMPLE}\u201d."
            )
    return tuple(hints)


def check_sheet(
    *,
    is_pc: bool,
    ratings: Mapping[str, int],
    traits: Sequence[str],
    knacks: Mapping[str, int],
    devil: str,
    devil_rating: int | None,
    bought_attribute_points: int = 0,
    bought_knack_points: int = 0,
) -> SheetSummary:
    """Check a character sheet against R28. Player characters: 13 points across the four
    attributes, each 1–5; exactly two traits; knacks rated 1–4 adding up to exactly 11, no more
    of them than max(Hand + Eye, 6); a Devil with a rating of 1–3. Non-player characters are
    free: attributes 0–5, traits and knacks optional, a Devil optional (with one they are
    "important").

    An existing player character may have bought points with chips since (R15): pass them as
    ``bought_attribute_points`` / ``bought_knack_points`` and the totals must come to 13 and 11
    plus those, so editing an improved sheet is not refused."""
    attribute_budget = PC_ATTRIBUTE_POINTS + bought_attribute_points
    knack_budget = PC_KNACK_POINTS + bought_knack_points
    problems: list[Problem] = []
    low = ATTRIBUTE_MIN_PC if is_pc else ATTRIBUTE_MIN_NPC
    for name in ATTRIBUTES:
        value = ratings.get(name, 0)
        if not low <= value <= ATTRIBUTE_MAX:
            label = ATTRIBUTE_LABELS[name]
            if is_pc and value == 0:
                why = " (a 0 would start the character on the Road to Hell)"
            else:
                why = ""
            problems.append(Problem(name, f"{label} must be from {low} to {ATTRIBUTE_MAX}{why}."))
    points = sum(ratings.get(name, 0) for name in ATTRIBUTES)
    if is_pc and points != attribute_budget:
        more_or_less = "more" if points < attribute_budget else "fewer"
        gap = abs(attribute_budget - points)
        problems.append(
            Problem(
                "attributes",
                f"Hand, Eye, Guts and Heart must add up to {attribute_budget}"
                f"{_bought(bought_attribute_points)}; they add up "
                f"to {points}. Spend {gap} {more_or_less} point{'s' if gap != 1 else ''}.",
            )
        )

    written = [t.strip() for t in traits if t.strip()]
    if is_pc and len(written) != 2:
        problems.append(
            Problem("traits", "Write exactly two traits, as similes (\u201ctough as nails\u201d).")
        )
    if len({t.lower() for t in written}) != len(written):
        problems.append(Problem("traits", "The two traits must be different."))

    knack_points = 0
    for name, rating in knacks.items():
        if not name.strip():
            problems.append(Problem("knacks", "Every knack needs a name."))
        if not KNACK_MIN <= rating <= KNACK_MAX:
            problems.append(
                Problem("knacks", f"{name or 'A knack'} must be rated {KNACK_MIN} to {KNACK_MAX}.")
            )
        knack_points += rating
    limit = max_knacks(ratings.get("hand", 0), ratings.get("eye", 0))
    if is_pc and len(knacks) > limit:
        problems.append(
            Problem(
                "knacks",
                f"At most {limit} knacks (Hand + Eye, or 6 if higher); this sheet has "
                f"{len(knacks)}.",
            )
        )
    if is_pc and knack_points != knack_budget:
        problems.append(
            Problem(
                "knacks",
                f"Knack ratings must add up to {knack_budget}{_bought(bought_knack_points)}; "
                f"they add up to {knack_points}.",
            )
        )

    if is_pc or devil.strip():
        if is_pc and not devil.strip():
            problems.append(Problem("devil", "Every player character has a Devil: describe it."))
        if devil_rating is None or not DEVIL_MIN <= devil_rating <= DEVIL_MAX:
            problems.append(
                Problem("devil_rating", f"The Devil's rating must be {DEVIL_MIN} to {DEVIL_MAX}.")
            )
    return SheetSummary(
        attribute_points=points,
        attribute_points_left=attribute_budget - points,
        knack_points=knack_points,
        knack_points_left=knack_budget - knack_points,
        knack_count=len(knacks),
        knack_limit=limit,
        problems=tuple(problems),
        attribute_budget=attribute_budget,
        knack_budget=knack_budget,
        hints=trait_hints(traits),
    )


def _bought(points: int) -> str:
    return f" (with {points} bought with chips)" if points else ""
