"""Refused files: a message naming the problem and its place, and nothing written."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import User
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaigns.models import Campaign
from exchange.api import (
    ImportRefused,
    campaign_export,
    campaign_file_dump,
    campaign_file_parse,
    campaign_import,
)
from tests.conftest import depth
from tests.exchange.conftest import at, clone, model_counts

Data = dict[str, Any]
JIM = "gentleman-jim-harris"


def _jim(data: Data) -> Data:
    character: Data = data["characters"][at(data, JIM)]
    return character


def _set(path: Callable[[Data], Data], key: str, value: Any) -> Callable[[Data], None]:
    def change(data: Data) -> None:
        path(data)[key] = value

    return change


def _two_dealers(data: Data) -> None:
    data["members"][1]["role"] = "dealer"


def _same_key(data: Data) -> None:
    data["characters"][1]["key"] = data["characters"][0]["key"]


def _same_member(data: Data) -> None:
    data["members"].append({"username": "player_a", "role": "player"})


def _ledger_short(data: Data) -> None:
    _jim(data)["chips"]["current"] += 1


def _ledger_below_zero(data: Data) -> None:
    ledger = _jim(data)["chips"]["ledger"]
    ledger[0]["amount"], ledger[1]["amount"] = -1, 3  # sums the same, dips below zero first


def _ledger_out_of_order(data: Data) -> None:
    ledger = _jim(data)["chips"]["ledger"]
    ledger[1]["at"] = "2000-01-01T00:00:00+00:00"


def _ledger_beyond_the_database(data: Data) -> None:
    """2,148 rows of a million chips each: every row is legal, the sum is not (≥ 2³¹). (The
    current count is the most the database holds: a count beyond it is the schema's refusal.)"""
    chips = _jim(data)["chips"]
    first = dict(chips["ledger"][0], reason="stakes", session=None, note="", actor=None)
    chips["ledger"] = [dict(first, amount=1_000_000) for _ in range(2148)]
    chips["current"] = 2**31 - 1


def _link_to(key: str) -> Callable[[Data], None]:
    def change(data: Data) -> None:
        data["links"][0]["npc"] = key

    return change


def _link_twice(data: Data) -> None:
    data["links"].append(dict(data["links"][0]))


def _unknown_rating_key(data: Data) -> None:
    data["sessions"][0]["devil_ratings"]["nobody"] = 2


def _three_traits(data: Data) -> None:
    _jim(data)["traits"].append("Slow as molasses")


def _extra_field(data: Data) -> None:
    _jim(data)["hat"] = "black"


def _missing_field(data: Data) -> None:
    del _jim(data)["devil"]


def _ledger_session(data: Data) -> None:
    _jim(data)["chips"]["ledger"][0]["session"] = 9


def _session_twice(data: Data) -> None:
    data["sessions"][1]["number"] = 1


CASES: dict[str, tuple[Callable[[Data], None], str]] = {
    "wrong format": (
        _set(lambda d: d, "format", "dustdevils.character"),
        'format: this is not a Dust Devils campaign file (expected "dustdevils.campaign", got '
        '"dustdevils.character")',
    ),
    "wrong version": (
        _set(lambda d: d, "version", 4),
        "version: this app reads versions 1 to 3 of the format; the file says 4",
    ),
    "rating above 5": (
        _set(lambda d: _jim(d)["attributes"]["hand"], "rating", 7),
        "characters[{jim}].attributes.hand.rating: must be 0–5, got 7",
    ),
    "current above the rating": (
        _set(lambda d: _jim(d)["attributes"]["eye"], "current", 5),
        "characters[{jim}].attributes.eye.current: must be 0–4, got 5",
    ),
    "rating given as true": (
        _set(lambda d: _jim(d)["attributes"]["guts"], "rating", True),
        "characters[{jim}].attributes.guts.rating: must be a whole number, got true",
    ),
    "knack at 5": (
        _set(lambda d: _jim(d)["knacks"], "Shootin'", 5),
        'characters[{jim}].knacks["Shootin\'"]: must be 1–4, got 5',
    ),
    "Devil at 4": (
        _set(lambda d: _jim(d)["devil"], "rating", 4),
        "characters[{jim}].devil.rating: must be 1–3, got 4",
    ),
    "ledger does not add up": (
        _ledger_short,
        "characters[{jim}].chips.current: is 2, but the ledger adds up to 1; every chip needs "
        "its ledger row",
    ),
    "ledger below zero": (
        _ledger_below_zero,
        "characters[{jim}].chips.ledger[0].amount: would take the balance below zero, to -1 (R15)",
    ),
    "ledger out of order": (
        _ledger_out_of_order,
        "characters[{jim}].chips.ledger[1].at: is earlier than the row before: the ledger goes "
        "in time order",
    ),
    "ledger row in an unknown session": (
        _ledger_session,
        "characters[{jim}].chips.ledger[0].session: there is no session 9 in sessions",
    ),
    "unknown key in a link": (
        _link_to("nobody"),
        'links[0].npc: no character has the key "nobody"',
    ),
    "a player character as the link's NPC": (
        _link_to(JIM),
        f'links[0].npc: "{JIM}" is not a non-player character',
    ),
    "the same link twice": (
        _link_twice,
        'links[6]: "clara-hardin" and "gentleman-jim-harris" are linked twice',
    ),
    "duplicate character key": (
        _same_key,
        "characters[1].key: {key0} is also the key of characters[0]",
    ),
    "duplicate member": (_same_member, 'members[3].username: "player_a" is listed twice'),
    "two Dealers": (
        _two_dealers,
        "members[1].role: a campaign has one Dealer, and dealer already is",
    ),
    "a player for an NPC": (
        _set(lambda d: d["characters"][0], "player", "player_a"),
        'characters[0].player: a non-player character has no player; got "player_a"',
    ),
    "a player who is not a member": (
        _set(_jim, "player", "stranger"),
        'characters[{jim}].player: "stranger" is not one of the members',
    ),
    "a player character in play without a player": (
        _set(_jim, "player", None),
        "characters[{jim}].player: a player character in play needs a player",
    ),
    "three traits": (_three_traits, "characters[{jim}].traits: a character has at most two"),
    "a field the format does not have": (
        _extra_field,
        "characters[{jim}].hat: is not part of this format",
    ),
    "a missing field": (_missing_field, "characters[{jim}].devil: is missing"),
    "a session number twice": (_session_twice, "sessions[1].number: session 1 is listed twice"),
    "an unknown key among Devil ratings": (
        _unknown_rating_key,
        'sessions[0].devil_ratings["nobody"]: no character has this key',
    ),
    "a bad date": (
        _set(lambda d: d["sessions"][0], "date", "20/11/2026"),
        'sessions[0].date: must be a date like 2026-11-22, got "20/11/2026"',
    ),
    "a name too long": (
        _set(_jim, "name", "J" * 121),
        "characters[{jim}].name: must be at most 120 characters, got 121",
    ),
    "a NUL character (PostgreSQL cannot store it)": (
        _set(_jim, "epitaph", "Here lies\x00"),
        "characters[{jim}].epitaph: must not contain the NUL character",
    ),
    "a list as a session number": (
        _set(lambda d: d["sessions"][1], "number", []),
        "sessions[1].number: must be a whole number, got a list",
    ),
    # Issue 19 #6: beyond the database's range, or at the edges of time.
    "a session number beyond the database's integers": (
        _set(lambda d: d["sessions"][1], "number", 2**31),
        "sessions[1].number: must be 1 to 2,147,483,647, got 2147483648",
    ),
    "a session number of 4,000 digits": (
        _set(lambda d: d["sessions"][1], "number", 10**3999),
        "sessions[1].number: must be 1 to 2,147,483,647, got a number of 4000 digits",
    ),
    "chips beyond the database's integers": (
        _set(lambda d: _jim(d)["chips"], "current", 2**31),
        "characters[{jim}].chips.current: must be 0 to 2,147,483,647, got 2147483648",
    ),
    "a ledger that adds up beyond the database's integers": (
        _ledger_beyond_the_database,
        "characters[{jim}].chips.ledger[2147].amount: would take the balance above "
        "2,147,483,647 chips",
    ),
    "a ledger time before year 1 in UTC": (
        lambda d: _jim(d)["chips"]["ledger"][0].update(at="0001-01-01T00:00:00+14:00"),
        "characters[{jim}].chips.ledger[0].at: must be a date and time between the years "
        "1800 and 8999",
    ),
    "a session's end at the end of time": (
        _set(lambda d: d["sessions"][0], "ended_at", "9999-12-31T23:59:59-14:00"),
        "sessions[0].ended_at: must be a date and time between the years 1800 and 8999",
    ),
    "a character gone in year 1": (
        _set(_jim, "left_play_at", "0001-01-01T00:00:00"),
        "characters[{jim}].left_play_at: must be a date and time between",
    ),
    "a bad slug": (
        _set(lambda d: d["campaign"], "slug", "last oak!"),
        "campaign.slug: may hold only letters, digits, - and _",
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_it_refuses_a_bad_file_naming_the_place_and_writes_nothing(
    played: Campaign, dealer: User, case: str
) -> None:
    data = campaign_export(played)
    change, expected = CASES[case]
    expected = expected.format(jim=at(data, JIM), key0=f'"{data["characters"][0]["key"]}"')
    change(data)
    before = model_counts()

    with pytest.raises(ImportRefused) as refused:
        campaign_import(data, dealer=dealer)
    with pytest.raises(ImportRefused):
        campaign_import(clone(data), dealer=dealer, as_new=False)

    assert any(problem.startswith(expected) for problem in refused.value.problems), (
        refused.value.problems
    )
    assert model_counts() == before


def test_it_lists_every_problem_and_counts_them_in_the_message(
    played: Campaign, dealer: User
) -> None:
    data = campaign_export(played)
    _jim(data)["attributes"]["hand"]["rating"] = 9
    data["links"][0]["pc"] = 7
    with pytest.raises(ImportRefused) as refused:
        campaign_import(data, dealer=dealer)
    assert len(refused.value.problems) == 2
    assert str(refused.value).endswith("(and 1 more problem)")


def test_it_lists_every_problem_of_references_once_the_structure_is_right(
    played: Campaign, dealer: User
) -> None:
    """The references are read once the file has the schema's shape: a file with both kinds of
    problem is refused with its structure's first."""
    data = campaign_export(played)
    data["links"][0]["pc"] = "nobody"
    _ledger_short(data)
    with pytest.raises(ImportRefused) as refused:
        campaign_import(clone(data), dealer=dealer)
    assert len(refused.value.problems) == 2
    assert str(refused.value).endswith("(and 1 more problem)")

    _jim(data)["attributes"]["hand"]["rating"] = 9
    with pytest.raises(ImportRefused) as refused:
        campaign_import(data, dealer=dealer)
    assert refused.value.problems == (
        f"characters[{at(data, JIM)}].attributes.hand.rating: must be 0–5, got 9",
    )


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (b"", "The file is empty."),
        (b"\xff\xfe{}", "The file is not UTF-8 text"),
        (b"hello", "The file is not valid JSON: Expecting value (line 1, column 1)."),
        (b"[1, 2]", "The file does not hold a campaign"),
        (b'{"format": 1, "format": 2}', 'The file gives "format" twice in one object'),
    ],
)
def test_it_refuses_what_is_not_a_campaign_file(raw: bytes, expected: str) -> None:
    with pytest.raises(ImportRefused) as refused:
        campaign_file_parse(raw)
    assert refused.value.problems[0].startswith(expected)


@pytest.mark.parametrize("keep", [0.5, 0.9, 0.999])
def test_it_says_a_truncated_file_is_cut_off(played: Campaign, keep: float) -> None:
    text = campaign_file_dump(campaign_export(played))
    with pytest.raises(ImportRefused, match=r"The file stops in the middle \(line \d+"):
        campaign_file_parse(text[: int(len(text) * keep)].encode())


def test_it_refuses_a_file_too_big(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(django_settings, "IMPORT_MAX_BYTES", 10)
    with pytest.raises(ImportRefused, match="larger than"):
        campaign_file_parse(b'{"format": "dustdevils.campaign"}')


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _leaves(v, (*path, k))] or [path]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _leaves(v, (*path, i))] or [path]
    return [path]


JSON_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-10, 10), st.integers(), st.text(max_size=300),
    st.lists(st.integers(0, 3), max_size=2), st.dictionaries(st.text(max_size=3),
                                                             st.integers(0, 3), max_size=2),
)  # fmt: skip


@settings(
    max_examples=depth(60),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_it_never_fails_other_than_by_refusing(
    played: Campaign, dealer: User, data: st.DataObject
) -> None:
    """Any one value changed to anything: the import works or is refused with a message; it
    never crashes on a database error half-way (the checks match the model's limits)."""
    exported = campaign_export(played)
    leaves = [p for p in _leaves(exported) if p]
    path = data.draw(st.sampled_from(leaves))
    target: Any = exported
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = data.draw(JSON_VALUES)
    problems: tuple[str, ...] = ("none",)
    try:
        campaign_import(exported, dealer=dealer)
    except ImportRefused as refused:
        problems = refused.problems
    assert problems
