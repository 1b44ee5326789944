"""The seed's four player characters from THE HANGED MAN, and helpers to post sheets."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest

# THE HANGED MAN, PLAYER CHARACTERS (seed 002): every number and trait as printed.
HANGED_MAN: dict[str, dict[str, Any]] = {
    "jim": {
        "name": "\u201cGentleman\u201d Jim Harris",
        "vocation": "Wanted gunfighter",
        "hand": 4, "eye": 4, "guts": 3, "heart": 2,
        "trait_1": "Richer than Croesus", "trait_2": "Cool as a cucumber.",
        "knacks": {"Shootin'": 4, "Drinkin'": 1, "Bargainin'": 2, "Philanderin'": 2,
                   "Gamblin'": 2},
        "devil": "\u201cGentleman\u201d Jim is a wanted man. His reputation as a cold-blooded "
                 "killer follows him like a disease.",
        "devil_rating": 3,
    },
    "zeke": {
        "name": "Zeke Munroe",
        "vocation": "Guilt-ridden bounty hunter",
        "hand": 5, "eye": 3, "guts": 3, "heart": 2,
        "trait_1": "Strong as an ox.", "trait_2": "Meaner than a new sheared sheep.",
        "knacks": {"Shootin'": 2, "Wrestlin'": 2, "Trackin'": 3, "Ridin'": 1, "Drinkin'": 3},
        "devil": "Zeke is a mean drunk.",
        "devil_rating": 2,
    },
    "jack": {
        "name": "\u201cBlack\u201d Jack Kerrigan",
        "vocation": "Crooked gambler",
        "hand": 3, "eye": 4, "guts": 2, "heart": 4,
        "trait_1": "Sly as a fox.", "trait_2": "Sharp as a rattler's tooth.",
        "knacks": {"Gamblin'": 4, "Lyin'": 3, "Shootin'": 2, "Snoopin'": 2},
        "devil": "Black Jack is a damn cheat.",
        "devil_rating": 2,
    },
    "luke": {
        "name": "\u201cLucky\u201d Luke Johnson",
        "vocation": "Lonesome cowpoke",
        "hand": 3, "eye": 3, "guts": 4, "heart": 3,
        "trait_1": "Reckless as a blind bear", "trait_2": "Friendlier than a pet coon.",
        "knacks": {"Shootin'": 2, "Ridin'": 3, "Drinkin'": 3, "Ropin'": 2, "Lock Pickin'": 1},
        "devil": "In a word, Luke Johnson's Devil is isolation.",
        "devil_rating": 2,
    },
}  # fmt: skip


def sheet_of(key: str, **changes: Any) -> dict[str, Any]:
    """A copy of one seed character's sheet, with changes."""
    sheet = {**HANGED_MAN[key], "knacks": dict(HANGED_MAN[key]["knacks"])}
    sheet.update(changes)
    return sheet


def post_data(sheet: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """The form's POST body for a sheet: knacks as parallel lists, as the rows send them."""
    data = {key: "" if value is None else value for key, value in sheet.items() if key != "knacks"}
    knacks = sheet.get("knacks", {})
    data["knack_name"] = list(knacks)
    data["knack_rating"] = [str(rating) for rating in knacks.values()]
    data.update(extra)
    return data


def text_of(html: str) -> str:
    """The page's words, tags dropped, entities decoded, whitespace collapsed (for asserting on
    sentences)."""
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


@pytest.fixture
def rich_pc_a(pc_a: Any) -> Any:
    """Abe Slade (4/3/3/3; Shootin' 4, Ridin' 3, Drinkin' 2, Gamblin' 2) with 30 chips."""
    from characters.services import chips_grant

    chips_grant(character_id=pc_a.pk, amount=27, actor=None, note="A fat purse")
    pc_a.refresh_from_db()
    return pc_a
