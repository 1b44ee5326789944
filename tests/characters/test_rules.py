"""R28: the sheet rules in plain Python, on the seed's own characters and their near misses."""

from __future__ import annotations

from typing import Any

import pytest

from characters.rules import SheetSummary, check_sheet
from tests.characters.conftest import HANGED_MAN, sheet_of


def check(sheet: dict[str, Any], *, is_pc: bool = True, **kwargs: Any) -> SheetSummary:
    return check_sheet(
        is_pc=is_pc,
        ratings={name: sheet[name] for name in ("hand", "eye", "guts", "heart")},
        traits=[sheet.get("trait_1", ""), sheet.get("trait_2", "")],
        knacks=sheet.get("knacks", {}),
        devil=sheet.get("devil", ""),
        devil_rating=sheet.get("devil_rating"),
        **kwargs,
    )


@pytest.mark.parametrize("key", sorted(HANGED_MAN))
def test_it_accepts_the_hanged_mans_player_characters_R28(key: str) -> None:
    """The seed's four PCs: 13 attribute points, two traits, 11 knack points, a Devil."""
    summary = check(HANGED_MAN[key])
    assert summary.problems == ()
    assert summary.attribute_points_left == 0
    assert summary.knack_points_left == 0


def test_it_counts_gentleman_jims_knack_limit_R28() -> None:
    summary = check(HANGED_MAN["jim"])
    assert (summary.knack_count, summary.knack_limit) == (5, 8)  # Hand 4 + Eye 4


# Each near miss breaks exactly one rule; the problem names its field in plain words.
JIM_KNACKS = HANGED_MAN["jim"]["knacks"]
NEAR_MISSES = [
    ("12 attribute points", sheet_of("jim", heart=1), "attributes", "to 13; they add up to 12"),
    ("14 attribute points", sheet_of("jim", heart=3), "attributes", "to 13; they add up to 14"),
    ("an attribute at 0", sheet_of("jim", hand=0, eye=5, guts=4, heart=4), "hand", "from 1 to 5"),
    ("an attribute at 6", sheet_of("zeke", hand=6, eye=2), "hand", "Hand must be from 1 to 5"),
    ("one trait", sheet_of("jack", trait_2=""), "traits", "exactly two traits"),
    ("the same trait twice", sheet_of("jack", trait_2="Sly as a fox."), "traits", "different"),
    (
        "10 knack points",
        sheet_of("luke", knacks={"Shootin'": 2, "Ridin'": 3, "Drinkin'": 3, "Ropin'": 2}),
        "knacks",
        "add up to 11; they add up to 10",
    ),
    (
        "12 knack points",
        sheet_of("jim", knacks={**JIM_KNACKS, "Drinkin'": 2}),
        "knacks",
        "add up to 11; they add up to 12",
    ),
    (
        "a knack at 5",
        sheet_of("jim", knacks={**JIM_KNACKS, "Shootin'": 5, "Gamblin'": 1}),
        "knacks",
        "Shootin' must be rated 1 to 4",
    ),
    (
        "too many knacks",
        sheet_of("jack", knacks={"Gamblin'": 4, **{f"Knack {n}": 1 for n in range(7)}}),
        "knacks",
        "At most 7 knacks",
    ),
    ("no Devil", sheet_of("zeke", devil="  "), "devil", "Every player character has a Devil"),
    ("a Devil rated 4", sheet_of("zeke", devil_rating=4), "devil_rating", "must be 1 to 3"),
    ("a Devil without a rating", sheet_of("zeke", devil_rating=None), "devil_rating", "1 to 3"),
]


@pytest.mark.parametrize(
    ("sheet", "field", "words"),
    [pytest.param(sheet, field, words, id=name) for name, sheet, field, words in NEAR_MISSES],
)
def test_it_refuses_a_near_miss_with_the_right_field_R28(
    sheet: dict[str, Any], field: str, words: str
) -> None:
    problems = check(sheet).problems
    assert [p.field for p in problems] == [field]
    assert words in problems[0].message


def test_it_tells_how_many_points_to_move_R28() -> None:
    summary = check(sheet_of("jim", heart=1))
    assert summary.attribute_points_left == 1
    assert "Spend 1 more point." in summary.problems[0].message
    assert check(sheet_of("jim", heart=4)).attribute_points_left == -2


def test_it_explains_a_zero_rating_R17_R28() -> None:
    (problem,) = check(sheet_of("jim", hand=0, eye=5, guts=4, heart=4)).problems
    assert "Road to Hell" in problem.message


def test_it_leaves_non_player_characters_free_R28() -> None:
    """NPCs: any ratings 0–5, no traits, no knacks, no Devil."""
    thug = {"hand": 0, "eye": 5, "guts": 5, "heart": 0, "devil": "", "devil_rating": None}
    assert check(thug, is_pc=False).problems == ()


def test_it_still_checks_an_npcs_ranges_and_its_devils_rating_R28() -> None:
    too_high = {"hand": 6, "eye": 1, "guts": 1, "heart": 1}
    assert [p.field for p in check(too_high, is_pc=False).problems] == ["hand"]
    important = {"hand": 2, "eye": 2, "guts": 2, "heart": 2, "devil": "Greed", "devil_rating": 4}
    assert [p.field for p in check(important, is_pc=False).problems] == ["devil_rating"]


def test_it_counts_points_bought_with_chips_in_the_budget_R15_R28() -> None:
    """An improved sheet (Hand 4 → 5, a knack raised) still checks out when edited."""
    improved = sheet_of("jim", hand=5, knacks={**HANGED_MAN["jim"]["knacks"], "Drinkin'": 2})
    assert [p.field for p in check(improved).problems] == ["attributes", "knacks"]
    summary = check(improved, bought_attribute_points=1, bought_knack_points=1)
    assert summary.problems == ()
    assert (summary.attribute_budget, summary.knack_budget) == (14, 12)
