"""Checking a campaign file, before anything is written: ``campaign_plan`` checks the data
``reading.campaign_file_parse`` read — its structure against the JSON Schema
(``structure.py``), then what a schema cannot say: references between keys, the chip ledger
adding up in time order, times and dates, each conflict's state as its engine reads it — and
returns a ``Plan`` of clean values, or raises ``ImportRefused`` listing each problem with its
place in the file: ``characters[2].attributes.hand.rating: must be 0–5, got 7``. A file whose
structure is wrong is refused with those problems alone: its references cannot be read yet.

No database access here: the checks are the same whatever is in the database.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings

from campaigns.models import Campaign, Membership
from cards.dice import parse_dice
from cards.errors import IllegalMove
from characters.models import Character
from characters.rules import ATTRIBUTES
from exchange.conflict_checks import conflict_checked, line_checked
from exchange.games import games_checked
from exchange.plan import Plan, PlannedCharacter, PlannedEntry, PlannedSession
from exchange.reading import (
    DB_INT_MAX,
    EARLIEST,
    FORMAT,
    MAX_PROBLEMS,
    READS,
    VERSION,
    Checker,
    ImportRefused,
    entry_at,
    shown,
)
from exchange.structure import structure_problems, too_many


def campaign_plan(data: dict[str, Any]) -> Plan:
    """Check everything in ``data``; the clean values, or ``ImportRefused``."""
    if data.get("format") != FORMAT:
        raise ImportRefused(
            [f"format: this is not a Dust Devils campaign file (expected \"{FORMAT}\", got "
             f"{shown(data.get('format'))})"]
        )  # fmt: skip
    if data.get("version") not in READS or isinstance(data.get("version"), bool):
        raise ImportRefused(
            [f"version: this app reads versions 1 to {VERSION} of the format; the file says "
             f"{shown(data.get('version'))}"]
        )  # fmt: skip
    if problems := too_many(data):  # before anything is checked: every list has a maximum
        raise ImportRefused(problems)
    rows = _ledger_rows(data)
    if rows > settings.IMPORT_MAX_LEDGER_ROWS:  # before anything else is checked
        raise ImportRefused(
            [f"characters: the file has {rows:,} chip-ledger rows; this table imports at most "
             f"{settings.IMPORT_MAX_LEDGER_ROWS:,}."]
        )  # fmt: skip
    problems = structure_problems(data)
    if problems:
        raise ImportRefused(problems)

    c = Checker()
    info = data["campaign"]
    plan = Plan(
        campaign={
            "name": " ".join(info["name"].split()),
            "slug": info["slug"],
            "setting": info["setting"],
            "pitch": info["pitch"],
            "winner_bonus": info["winner_bonus"],
            "kind": info.get("kind", Campaign.Kind.CAMPAIGN),  # a one-off table says so
        }
    )
    plan.members = _members(c, data["members"])
    numbers = {session["number"] for session in data["sessions"]}
    usernames = {username for username, _ in plan.members}
    plan.characters = [
        _character(c, raw, f"characters[{i}]", usernames, numbers)
        for i, raw in enumerate(data["characters"])
    ]
    kinds = _keys(c, plan.characters)
    plan.links = _links(c, data["links"], kinds)
    plan.notes = [(" ".join(note["title"].split()), note["body"]) for note in data["notes"]]
    plan.sessions = _sessions(c, data["sessions"], kinds)
    plan.conflicts = [
        conflict_checked(c, raw, f"conflicts[{i}]", i, kinds, numbers)
        for i, raw in enumerate(data.get("conflicts", []))  # since version 2
    ]
    plan.games = games_checked(
        c, data.get("games", {}), characters=kinds, sessions=numbers, members=usernames
    )  # since version 3
    if c.problems:
        raise ImportRefused(c.problems[:MAX_PROBLEMS])
    return plan


def _ledger_rows(data: dict[str, Any]) -> int:
    """How many ledger rows the file holds, whatever its shape."""
    characters = data.get("characters")
    if not isinstance(characters, list):
        return 0
    rows = 0
    for character in characters:
        chips = character.get("chips") if isinstance(character, dict) else None
        ledger = chips.get("ledger") if isinstance(chips, dict) else None
        rows += len(ledger) if isinstance(ledger, list) else 0
    return rows


def _members(c: Checker, members: list[dict[str, str]]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    dealer = ""
    for i, member in enumerate(members):
        path = f"members[{i}]"
        username, role = member["username"], member["role"]
        if username in (u for u, _ in out):
            c.fail(f"{path}.username", f"{shown(username)} is listed twice")
            continue
        if role == Membership.Role.DEALER:
            if dealer:
                c.fail(f"{path}.role", f"a campaign has one Dealer, and {dealer} already is")
            dealer = dealer or username
        out.append((username, role))
    return out


def _keys(c: Checker, characters: list[PlannedCharacter]) -> dict[str, str]:
    """Each key → its character's kind; a key used twice is a problem."""
    kinds: dict[str, str] = {}
    first: dict[str, int] = {}
    for i, character in enumerate(characters):
        if character.key in first:
            c.fail(
                f"characters[{i}].key",
                f"{shown(character.key)} is also the key of characters[{first[character.key]}]",
            )
            continue
        first[character.key] = i
        kinds[character.key] = character.kind
    return kinds


def _character(
    c: Checker, obj: dict[str, Any], path: str, usernames: set[str], session_numbers: set[int]
) -> PlannedCharacter:
    kind, player, out_of_play = obj["kind"], obj["player"], obj["out_of_play"]
    if kind == Character.Kind.NPC and player is not None:
        c.fail(f"{path}.player", f"a non-player character has no player; got {shown(player)}")
    elif kind == Character.Kind.PC and player is None and not out_of_play:
        c.fail(f"{path}.player", "a player character in play needs a player")
    elif player is not None and player not in usernames:
        c.fail(f"{path}.player", f"{shown(player)} is not one of the members")

    values: dict[str, Any] = {
        "name": " ".join(obj["name"].split()),
        **{name: obj[name] for name in ("vocation", "description", "back_story", "out_of_play",
                                        "fate", "epitaph")},
        "left_play_at": c.moment(obj["left_play_at"], f"{path}.left_play_at"),
        # The Dealer's secrets of a non-player character (only the Dealer exports), and a
        # player's character still waiting for approval; a file without them: none, approved.
        "secrets": obj.get("secrets", "") if kind == Character.Kind.NPC else "",
        "approved": obj.get("approved", True),
    }  # fmt: skip
    if "quickness_dice" in obj:  # R27 (house rule): written only when the Dealer set them
        try:
            values["quickness_dice"] = str(parse_dice(obj["quickness_dice"]))
        except IllegalMove as error:
            c.fail(f"{path}.quickness_dice", str(error))
    if kind != Character.Kind.NPC and obj.get("secrets"):
        c.fail(f"{path}.secrets", "only a non-player character has secrets")
    for name in ATTRIBUTES:  # R29: a rating 0–5 (the schema's), the current value within it
        rating, current = obj["attributes"][name]["rating"], obj["attributes"][name]["current"]
        if current > rating:
            c.fail(f"{path}.attributes.{name}.current", f"must be 0–{rating}, got {current}")
        values[name], values[f"{name}_current"] = rating, current
    values["trait_1"], values["trait_2"] = [*obj["traits"], "", ""][:2]
    values["devil"] = obj["devil"]["description"]
    values["devil_rating"] = obj["devil"]["rating"]

    values["chips"] = obj["chips"]["current"]
    before = len(c.problems)
    ledger = _ledger(c, obj["chips"]["ledger"], path, session_numbers)
    total = sum(entry.amount for entry in ledger)
    if len(c.problems) == before and total != values["chips"]:
        c.fail(
            f"{path}.chips.current",
            f"is {values['chips']}, but the ledger adds up to {total}; every chip needs its "
            "ledger row",
        )
    return PlannedCharacter(obj["key"], kind, player, values, dict(obj["knacks"]), ledger)


def _ledger(
    c: Checker, rows: list[dict[str, Any]], path: str, session_numbers: set[int]
) -> list[PlannedEntry]:
    out: list[PlannedEntry] = []
    balance = 0
    last: dt.datetime | None = None
    for i, row in enumerate(rows):
        where = f"{path}.chips.ledger[{i}]"
        at = c.moment(row["at"], f"{where}.at")
        if at is not None and last is not None and at < last:
            c.fail(f"{where}.at", "is earlier than the row before: the ledger goes in time order")
        last = at or last
        session = row["session"]
        if session is not None and session not in session_numbers:
            c.fail(f"{where}.session", f"there is no session {session} in sessions")
        entry = PlannedEntry(
            amount=row["amount"],
            reason=row["reason"],
            note=row["note"],
            actor=row["actor"],
            at=at or EARLIEST,
            session=session,
        )
        balance += entry.amount
        if balance < 0:
            c.fail(f"{where}.amount", f"would take the balance below zero, to {balance} (R15)")
        elif balance > DB_INT_MAX:
            c.fail(f"{where}.amount", f"would take the balance above {DB_INT_MAX:,} chips")
        out.append(entry)
    return out


def _links(c: Checker, links: list[dict[str, str]], kinds: dict[str, str]) -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    pairs: set[tuple[str, str]] = set()
    for i, link in enumerate(links):
        path = f"links[{i}]"
        for end in ("npc", "pc"):
            key = link[end]
            if key not in kinds:
                c.fail(f"{path}.{end}", f"no character has the key {shown(key)}")
            elif kinds[key] != end:
                label = Character.Kind(end).label.lower()
                c.fail(f"{path}.{end}", f"{shown(key)} is not a {label}")
        pair = (link["npc"], link["pc"])
        if pair in pairs:
            c.fail(path, f"{shown(pair[0])} and {shown(pair[1])} are linked twice")
        pairs.add(pair)
        out.append(dict(link))
    return out


def _sessions(
    c: Checker, sessions: list[dict[str, Any]], kinds: dict[str, str]
) -> list[PlannedSession]:
    out: list[PlannedSession] = []
    numbers: set[int] = set()
    for i, obj in enumerate(sessions):
        path = f"sessions[{i}]"
        number = obj["number"]
        if number in numbers:
            c.fail(f"{path}.number", f"session {number} is listed twice")
        numbers.add(number)
        values = {
            "number": number,
            "date": c.day(obj["date"], f"{path}.date"),
            "status": obj["status"],
            "notes": obj["notes"],
            "started_at": c.moment(obj["started_at"], f"{path}.started_at"),
            "ended_at": c.moment(obj["ended_at"], f"{path}.ended_at"),
        }
        ratings = obj["devil_ratings"]  # R21: 1–3, the schema's
        for key in ratings:
            if key not in kinds:
                c.fail(entry_at(f"{path}.devil_ratings", key), "no character has this key")
        log = [
            line_checked(c, line, f"{path}.log[{n}]")
            for n, line in enumerate(obj.get("log", []))  # since version 2
        ]
        out.append(PlannedSession(values, dict(ratings), log))
    return out
