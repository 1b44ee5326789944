"""Checking a campaign file, before anything is written: ``campaign_plan`` checks every field
and every reference of the data ``reading.campaign_file_parse`` read, and returns a ``Plan`` of
clean values, or raises ``ImportRefused`` listing each problem with its place in the file:
``characters[2].attributes.hand.rating: must be 0–5, got 7``.

No database access here: the checks are the same whatever is in the database.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings

from campaigns.models import Campaign, GameSession, Membership
from cards.dice import parse_dice
from cards.errors import IllegalMove
from characters.models import Character, ChipEntry
from characters.rules import ATTRIBUTES
from exchange.conflict_checks import conflict_checked, line_checked
from exchange.plan import Plan, PlannedCharacter, PlannedEntry, PlannedSession
from exchange.reading import (
    DB_INT_MAX,
    FORMAT,
    MAX_PROBLEMS,
    READS,
    SLUG,
    VERSION,
    Checker,
    ImportRefused,
    entry_at,
    shown,
)

_TOP = ("format", "version", "campaign", "members", "characters", "links", "notes", "sessions")
_CAMPAIGN = ("name", "slug", "setting", "pitch", "winner_bonus")
_CHARACTER = (
    "key", "name", "kind", "player", "vocation", "description", "back_story", "attributes",
    "traits", "knacks", "devil", "chips", "out_of_play", "fate", "epitaph", "left_play_at",
    "secrets", "approved",
)  # fmt: skip
_ENTRY = ("amount", "reason", "note", "actor", "at", "session")
_LINK = ("npc", "pc", "devil_touched", "notes")
_SESSION = ("number", "date", "status", "notes", "started_at", "ended_at", "devil_ratings")
_LOG = ("at", "actor", "text")


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
    rows = _ledger_rows(data)
    if rows > settings.IMPORT_MAX_LEDGER_ROWS:  # before anything else is checked
        raise ImportRefused(
            [f"characters: the file has {rows:,} chip-ledger rows; this table imports at most "
             f"{settings.IMPORT_MAX_LEDGER_ROWS:,}."]
        )  # fmt: skip
    c = Checker()
    # fights: a record, not imported; conflicts: since version 2
    top = c.fields(data, "", _TOP, optional=("fights", "conflicts"))
    info = c.object_at(top, "campaign", "", _CAMPAIGN, optional=("kind",))  # kind: one-off
    slug = c.text_at(info, "slug", "campaign", limit=130, required=True)
    if slug.strip() and not SLUG.match(slug):
        c.fail("campaign.slug", "may hold only letters, digits, - and _")
    plan = Plan(
        campaign={
            "name": " ".join(c.text_at(info, "name", "campaign", limit=120, required=True).split()),
            "slug": slug,
            "setting": c.text_at(info, "setting", "campaign", limit=200),
            "pitch": c.text_at(info, "pitch", "campaign"),
            "winner_bonus": c.flag_at(info, "winner_bonus", "campaign"),
            "kind": c.choice_at(info, "kind", "campaign", Campaign.Kind.values)
            or Campaign.Kind.CAMPAIGN,
        }
    )
    plan.members = _members(c, c.list_at(top, "members", ""))
    sessions = c.list_at(top, "sessions", "")
    numbers = {
        s["number"] for s in sessions if isinstance(s, dict) and isinstance(s.get("number"), int)
    }
    usernames = {username for username, _ in plan.members}
    plan.characters = [
        _character(c, raw, f"characters[{i}]", usernames, numbers)
        for i, raw in enumerate(c.list_at(top, "characters", ""))
    ]
    kinds = _keys(c, plan.characters)
    plan.links = _links(c, c.list_at(top, "links", ""), kinds)
    for i, raw in enumerate(c.list_at(top, "notes", "")):
        path = f"notes[{i}]"
        note = c.fields(raw, path, ("title", "body"))
        title = c.text_at(note, "title", path, limit=120, required=True)
        plan.notes.append((" ".join(title.split()), c.text_at(note, "body", path)))
    plan.sessions = _sessions(c, sessions, kinds)
    plan.conflicts = [
        conflict_checked(c, raw, f"conflicts[{i}]", i, kinds, numbers)
        for i, raw in enumerate(c.list_at(top, "conflicts", ""))
    ]
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


def _members(c: Checker, members: list[Any]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    dealer = ""
    for i, raw in enumerate(members):
        path = f"members[{i}]"
        member = c.fields(raw, path, ("username", "role"))
        username = c.text_at(member, "username", path, limit=150, required=True)
        role = c.choice_at(member, "role", path, Membership.Role.values)
        if username and username in (u for u, _ in out):
            c.fail(f"{path}.username", f"{shown(username)} is listed twice")
            continue
        if role == Membership.Role.DEALER:
            if dealer:
                c.fail(f"{path}.role", f"a campaign has one Dealer, and {dealer} already is")
            dealer = dealer or username
        if username and role:
            out.append((username, role))
    return out


def _keys(c: Checker, characters: list[PlannedCharacter]) -> dict[str, str]:
    """Each key → its character's kind; a key used twice is a problem."""
    kinds: dict[str, str] = {}
    first: dict[str, int] = {}
    for i, character in enumerate(characters):
        if not character.key:
            continue
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
    c: Checker, raw: Any, path: str, usernames: set[str], session_numbers: set[int]
) -> PlannedCharacter:
    obj = c.fields(raw, path, _CHARACTER, optional=("quickness_dice",))
    key = c.text_at(obj, "key", path, limit=200, required=True)
    kind = c.choice_at(obj, "kind", path, Character.Kind.values)
    out_of_play = c.flag_at(obj, "out_of_play", path)
    player = c.username_at(obj, "player", path)
    if kind == Character.Kind.NPC and player is not None:
        c.fail(f"{path}.player", f"a non-player character has no player; got {shown(player)}")
    elif kind == Character.Kind.PC and "player" in obj and player is None and not out_of_play:
        c.fail(f"{path}.player", "a player character in play needs a player")
    elif player is not None and player not in usernames:
        c.fail(f"{path}.player", f"{shown(player)} is not one of the members")

    values: dict[str, Any] = {
        "name": " ".join(c.text_at(obj, "name", path, limit=120, required=True).split()),
        "vocation": c.text_at(obj, "vocation", path, limit=120),
        "description": c.text_at(obj, "description", path),
        "back_story": c.text_at(obj, "back_story", path),
        "out_of_play": out_of_play,
        "fate": c.choice_at(obj, "fate", path, ["", *Character.Fate.values]),
        "epitaph": c.text_at(obj, "epitaph", path),
        "left_play_at": c.moment_at(obj, "left_play_at", path),
        # The Dealer's secrets of a non-player character (only the Dealer exports), and a
        # player's character still waiting for approval; a file without them: none, approved.
        "secrets": c.text_at(obj, "secrets", path) if kind == Character.Kind.NPC else "",
        "approved": c.flag_at(obj, "approved", path) if "approved" in obj else True,
    }
    if "quickness_dice" in obj:  # R27 (house rule): written only when the Dealer set them
        dice = c.text_at(obj, "quickness_dice", path, limit=8)
        try:
            values["quickness_dice"] = str(parse_dice(dice))
        except IllegalMove as error:
            c.fail(f"{path}.quickness_dice", str(error))
    if kind != Character.Kind.NPC and c.text_at(obj, "secrets", path):
        c.fail(f"{path}.secrets", "only a non-player character has secrets")
    attributes = c.object_at(obj, "attributes", path, ATTRIBUTES)
    for name in ATTRIBUTES:  # R29: a rating 0–5, the current value within it
        where = f"{path}.attributes"
        pair = c.object_at(attributes, name, where, ("rating", "current"))
        rating = c.number_at(pair, "rating", f"{where}.{name}", 0, 5)
        top = 5 if rating is None else rating
        values[name] = rating or 0
        values[f"{name}_current"] = c.number_at(pair, "current", f"{where}.{name}", 0, top) or 0

    traits = c.list_at(obj, "traits", path)
    if len(traits) > 2:
        c.fail(f"{path}.traits", f"a character has at most two traits, got {len(traits)}")
    written = [
        c.text(t, f"{path}.traits[{n}]", limit=120, required=True) for n, t in enumerate(traits[:2])
    ]
    values["trait_1"], values["trait_2"] = [*written, "", ""][:2]

    knacks: dict[str, int] = {}
    for name, rating in c.dict_at(obj, "knacks", path).items():
        where = entry_at(f"{path}.knacks", name)
        if not name.strip() or len(name) > 80 or "\x00" in name:
            c.fail(where, "a knack's name must be 1–80 characters, with no NUL character")
        checked = c.number(rating, where, 1, 4)
        if checked is not None:
            knacks[name] = checked

    devil = c.object_at(obj, "devil", path, ("description", "rating"))
    values["devil"] = c.text_at(devil, "description", f"{path}.devil")
    values["devil_rating"] = c.number_at(devil, "rating", f"{path}.devil", 1, 3, nullable=True)

    chips = c.object_at(obj, "chips", path, ("current", "ledger"))
    values["chips"] = c.number_at(chips, "current", f"{path}.chips", 0) or 0
    before = len(c.problems)
    ledger = _ledger(c, c.list_at(chips, "ledger", f"{path}.chips"), path, session_numbers)
    total = sum(entry.amount for entry in ledger)
    if len(c.problems) == before and "current" in chips and total != values["chips"]:
        c.fail(
            f"{path}.chips.current",
            f"is {values['chips']}, but the ledger adds up to {total}; every chip needs its "
            "ledger row",
        )
    return PlannedCharacter(key, kind, player, values, knacks, ledger)


def _ledger(
    c: Checker, rows: list[Any], path: str, session_numbers: set[int]
) -> list[PlannedEntry]:
    out: list[PlannedEntry] = []
    balance = 0
    last: dt.datetime | None = None
    for i, raw in enumerate(rows):
        where = f"{path}.chips.ledger[{i}]"
        row = c.fields(raw, where, _ENTRY)
        amount = c.number_at(row, "amount", where, -1_000_000, 1_000_000)
        if amount == 0:
            c.fail(f"{where}.amount", "must add or take at least one chip, got 0")
        reason = c.choice_at(row, "reason", where, ChipEntry.Reason.values)
        at = c.moment_at(row, "at", where, nullable=False)
        if at is not None and last is not None and at < last:
            c.fail(f"{where}.at", "is earlier than the row before: the ledger goes in time order")
        last = at or last
        session = c.number_at(row, "session", where, 1, nullable=True)
        if session is not None and session not in session_numbers:
            c.fail(f"{where}.session", f"there is no session {session} in sessions")
        entry = PlannedEntry(
            amount=amount or 0,
            reason=reason,
            note=c.text_at(row, "note", where, limit=200),
            actor=c.username_at(row, "actor", where),
            at=at or dt.datetime.min.replace(tzinfo=dt.UTC),
            session=session,
        )
        balance += entry.amount
        if balance < 0:
            c.fail(f"{where}.amount", f"would take the balance below zero, to {balance} (R15)")
        elif balance > DB_INT_MAX:
            c.fail(f"{where}.amount", f"would take the balance above {DB_INT_MAX:,} chips")
        out.append(entry)
    return out


def _links(c: Checker, links: list[Any], kinds: dict[str, str]) -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    pairs: set[tuple[str, str]] = set()
    for i, raw in enumerate(links):
        path = f"links[{i}]"
        obj = c.fields(raw, path, _LINK)
        ends: dict[str, str] = {}
        for end in ("npc", "pc"):
            key = c.text_at(obj, end, path, required=True)
            if key and key not in kinds:
                c.fail(f"{path}.{end}", f"no character has the key {shown(key)}")
            elif key and kinds[key] != end:
                label = Character.Kind(end).label.lower()
                c.fail(f"{path}.{end}", f"{shown(key)} is not a {label}")
            ends[end] = key
        pair = (ends.get("npc", ""), ends.get("pc", ""))
        if all(pair) and pair in pairs:
            c.fail(path, f"{shown(pair[0])} and {shown(pair[1])} are linked twice")
        pairs.add(pair)
        ends["devil_touched"] = c.text_at(obj, "devil_touched", path, limit=200)
        ends["notes"] = c.text_at(obj, "notes", path)
        out.append(ends)
    return out


def _sessions(c: Checker, sessions: list[Any], kinds: dict[str, str]) -> list[PlannedSession]:
    out: list[PlannedSession] = []
    numbers: set[int] = set()
    for i, raw in enumerate(sessions):
        path = f"sessions[{i}]"
        obj = c.fields(raw, path, _SESSION, optional=("log",))  # log: since version 2
        number = c.number_at(obj, "number", path, 1)
        if number is not None and number in numbers:
            c.fail(f"{path}.number", f"session {number} is listed twice")
        numbers.add(number or 0)
        values = {
            "number": number,
            "date": c.day_at(obj, "date", path),
            "status": c.choice_at(obj, "status", path, GameSession.Status.values),
            "notes": c.text_at(obj, "notes", path),
            "started_at": c.moment_at(obj, "started_at", path),
            "ended_at": c.moment_at(obj, "ended_at", path),
        }
        ratings: dict[str, int] = {}
        for key, rating in c.dict_at(obj, "devil_ratings", path).items():
            where = entry_at(f"{path}.devil_ratings", key)
            if key not in kinds:
                c.fail(where, "no character has this key")
            checked = c.number(rating, where, 1, 3)  # R21
            if checked is not None:
                ratings[key] = checked
        log = [
            line_checked(c, line, f"{path}.log[{n}]", _LOG)
            for n, line in enumerate(c.list_at(obj, "log", path))
        ]
        out.append(PlannedSession(values, ratings, log))
    return out
