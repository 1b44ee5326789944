"""Reading and checking a campaign file, before anything is written.

``campaign_file_parse`` turns the bytes into JSON data (or says why it cannot: cut off, not
JSON, a field given twice...). ``campaign_plan`` checks every field and every reference and
returns a ``Plan`` of clean values, or raises ``ImportRefused`` listing each problem with its
place in the file: ``characters[2].attributes.hand.rating: must be 0–5, got 7``.

No database access here: the checks are the same whatever is in the database.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings

from campaigns.models import GameSession, Membership
from characters.models import Character, ChipEntry
from characters.rules import ATTRIBUTES
from conflicts.engine.conflict import IllegalMove
from conflicts.engine.dice import parse_dice
from conflicts.engine.serial import state_from_data, state_to_data
from conflicts.models import Conflict

FORMAT = "dustdevils.campaign"
VERSION = 2  # 2: conflicts (state, seats, timeline, replay states) and each session's log
READS = (1, 2)  # a version 1 file simply has no conflicts and no session logs
# The database's whole numbers (PostgreSQL integer; PositiveIntegerField's range): a number
# above it would fail half-way through the writing, so the checks stop it first.
DB_INT_MAX = 2_147_483_647
# Times must sit well inside what Python and the database can hold in any time zone: a time
# at the edge of year 1 or 9999 overflows when it is shown in another zone.
EARLIEST = dt.datetime(1800, 1, 1, tzinfo=dt.UTC)
LATEST = dt.datetime(9000, 1, 1, tzinfo=dt.UTC)
MAX_PROBLEMS = 20  # enough to fix a file by; a wholly wrong file need not list thousands


class ImportRefused(ValueError):
    """The file cannot be imported; ``problems`` lists each thing wrong, its place first."""

    def __init__(self, problems: Iterable[str]) -> None:
        self.problems = tuple(problems)
        first, more = self.problems[0], len(self.problems) - 1
        suffix = f" (and {more} more problem{'s' if more != 1 else ''})" if more else ""
        super().__init__(first + suffix)


# --- The file ----------------------------------------------------------------------------------


def _fields_once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for name, value in pairs:
        if name in found:
            shown = json.dumps(name, ensure_ascii=False)
            raise ImportRefused(
                [f"The file gives {shown} twice in one object; each name may appear only once."]
            )
        found[name] = value
    return found


def max_file_bytes() -> int:
    return int(settings.IMPORT_MAX_BYTES)


def too_big() -> str:
    limit = max_file_bytes()
    shown = f"{limit / (1024 * 1024):g} MB" if limit >= 1024 * 1024 else f"{limit // 1024} kB"
    return f"The file is larger than {shown}, the most this table imports."


def campaign_file_parse(raw: bytes | str) -> dict[str, Any]:
    """The JSON data of a file, or ``ImportRefused`` saying what is wrong with it as a file."""
    if len(raw) > max_file_bytes():  # before any parsing
        raise ImportRefused([too_big()])
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ImportRefused(["The file is not UTF-8 text: is it a campaign export?"]) from None
    if not raw.strip():
        raise ImportRefused(["The file is empty."])
    try:
        data = json.loads(raw, object_pairs_hook=_fields_once)
    except json.JSONDecodeError as error:
        where = f"line {error.lineno}, column {error.colno}"
        # Cut off: the text ends where more was expected, inside a string, or inside one of
        # the words true, false, null.
        tail = raw[error.pos :].rstrip()
        if (
            not tail
            or error.msg.startswith("Unterminated string")
            or any(word.startswith(tail) for word in ("true", "false", "null"))
        ):
            raise ImportRefused(
                [f"The file stops in the middle ({where}): it looks cut off. Export it again."]
            ) from None
        raise ImportRefused([f"The file is not valid JSON: {error.msg} ({where})."]) from None
    except RecursionError:
        raise ImportRefused(["The file is nested too deeply to be a campaign export."]) from None
    except ImportRefused:  # a name given twice (_fields_once)
        raise
    except ValueError:  # Python's limit on digits in a number (4,300)
        raise ImportRefused(
            ["The file holds a number far too long (thousands of digits) to be a campaign's."]
        ) from None
    if not isinstance(data, dict):
        raise ImportRefused(["The file does not hold a campaign (a JSON object {...})."])
    return data


# --- Checking values ---------------------------------------------------------------------------

_MISSING: Any = object()
_SLUG = re.compile(r"^[-a-zA-Z0-9_]+$")


def _shown(value: Any) -> str:
    """A value as a message quotes it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) and abs(value) >= 10**15:
        return f"a number of {len(str(abs(value)))} digits"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value if len(value) <= 40 else value[:37] + "...", ensure_ascii=False)
    return "a list" if isinstance(value, list) else "an object"


def _name(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _entry(path: str, key: str) -> str:
    return f"{path}[{json.dumps(key, ensure_ascii=False)}]"


class _Checker:
    """Collects problems, each prefixed with its place in the file. The ``*_at`` methods read
    ``obj[key]`` and stay quiet when it is missing (``fields`` has said so already)."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def fail(self, path: str, message: str) -> None:
        self.problems.append(f"{path}: {message}")

    def fields(
        self, value: Any, path: str, names: tuple[str, ...], optional: tuple[str, ...] = ()
    ) -> dict[str, Any]:
        """An object with exactly these fields (and maybe the ``optional`` ones); a missing or
        unknown one is a problem."""
        if value is _MISSING:
            return {}
        if not isinstance(value, dict):
            self.fail(path, f"must be an object {{...}}, got {_shown(value)}")
            return {}
        self.problems.extend(f"{_name(path, n)}: is missing" for n in names if n not in value)
        self.problems.extend(
            f"{_name(path, n)}: is not part of this format"
            for n in value
            if n not in names and n not in optional
        )
        return value

    def object_at(self, obj: dict[str, Any], key: str, path: str, names: tuple[str, ...]) -> Any:
        return self.fields(obj.get(key, _MISSING), _name(path, key), names)

    def text(self, value: Any, path: str, *, limit: int = 0, required: bool = False) -> str:
        if not isinstance(value, str):
            self.fail(path, f"must be text, got {_shown(value)}")
            return ""
        if "\x00" in value:  # PostgreSQL text cannot hold it; no campaign needs it
            self.fail(path, "must not contain the NUL character (\\u0000)")
            return ""
        if required and not value.strip():
            self.fail(path, "must not be empty")
        if limit and len(value) > limit:
            self.fail(path, f"must be at most {limit} characters, got {len(value)}")
        return value

    def text_at(self, obj: dict[str, Any], key: str, path: str, **kw: Any) -> str:
        value = obj.get(key, _MISSING)
        return "" if value is _MISSING else self.text(value, _name(path, key), **kw)

    def username_at(self, obj: dict[str, Any], key: str, path: str) -> str | None:
        value = obj.get(key, _MISSING)
        if value is _MISSING or value is None:
            return None
        return self.text(value, _name(path, key), limit=150, required=True) or None

    def number(
        self, value: Any, path: str, low: int, high: int = DB_INT_MAX, *, nullable: bool = False
    ) -> int | None:
        if value is None and nullable:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(path, f"must be a whole number, got {_shown(value)}")
            return None
        if value < low or value > high:
            wanted = f"{low}–{high}" if high < DB_INT_MAX else f"{low} to {high:,}"
            self.fail(path, f"must be {wanted}, got {_shown(value)}")
            return None
        return value

    def number_at(
        self, obj: dict[str, Any], key: str, path: str, low: int, high: int = DB_INT_MAX,
        *, nullable: bool = False,
    ) -> int | None:  # fmt: skip
        value = obj.get(key, _MISSING)
        if value is _MISSING:
            return None
        return self.number(value, _name(path, key), low, high, nullable=nullable)

    def flag_at(self, obj: dict[str, Any], key: str, path: str) -> bool:
        value = obj.get(key, _MISSING)
        if value is _MISSING:
            return False
        if not isinstance(value, bool):
            self.fail(_name(path, key), f"must be true or false, got {_shown(value)}")
            return False
        return value

    def choice_at(self, obj: dict[str, Any], key: str, path: str, choices: list[str]) -> str:
        value = obj.get(key, _MISSING)
        if value is _MISSING:
            return ""
        if not isinstance(value, str) or value not in choices:
            shown = ", ".join(json.dumps(c) for c in choices)
            self.fail(_name(path, key), f"must be one of {shown}; got {_shown(value)}")
            return ""
        return value

    def moment_at(
        self, obj: dict[str, Any], key: str, path: str, *, nullable: bool = True
    ) -> dt.datetime | None:
        value = obj.get(key, _MISSING)
        if value is _MISSING or (value is None and nullable):
            return None
        try:
            moment = dt.datetime.fromisoformat(value)
        except (TypeError, ValueError):
            self.fail(
                _name(path, key),
                f"must be a date and time like 2026-11-22T20:15:00+00:00, got {_shown(value)}",
            )
            return None
        # A time without a zone is read as UTC, the zone exports are written in.
        moment = moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)
        try:
            in_utc = moment.astimezone(dt.UTC)
        except OverflowError:  # 0001-01-01T00:00:00+14:00 is before year 1 in UTC
            in_utc = None
        if in_utc is None or not EARLIEST <= in_utc < LATEST:
            self.fail(
                _name(path, key),
                f"must be a date and time between the years {EARLIEST.year} and "
                f"{LATEST.year - 1}, got {_shown(value)}",
            )
            return None
        return in_utc

    def day_at(self, obj: dict[str, Any], key: str, path: str) -> dt.date | None:
        value = obj.get(key, _MISSING)
        if value is _MISSING or value is None:
            return None
        try:
            return dt.date.fromisoformat(value)
        except (TypeError, ValueError):
            self.fail(_name(path, key), f"must be a date like 2026-11-22, got {_shown(value)}")
            return None

    def list_at(self, obj: dict[str, Any], key: str, path: str) -> list[Any]:
        value = obj.get(key, _MISSING)
        if value is _MISSING:
            return []
        if not isinstance(value, list):
            self.fail(_name(path, key), f"must be a list [...], got {_shown(value)}")
            return []
        return value

    def dict_at(self, obj: dict[str, Any], key: str, path: str) -> dict[str, Any]:
        value = obj.get(key, _MISSING)
        if value is _MISSING:
            return {}
        if not isinstance(value, dict):
            self.fail(_name(path, key), f"must be an object {{...}}, got {_shown(value)}")
            return {}
        return value


# --- The plan: clean values, ready to write ----------------------------------------------------


@dataclass
class PlannedEntry:
    amount: int
    reason: str
    note: str
    actor: str | None
    at: dt.datetime
    session: int | None


@dataclass
class PlannedCharacter:
    key: str
    kind: str
    player: str | None
    values: dict[str, Any]  # Character fields, as they are written
    knacks: dict[str, int]
    ledger: list[PlannedEntry]


@dataclass
class PlannedLine:
    """A line of a session's log or of a conflict's timeline (``seq`` and ``version``: 0)."""

    at: dt.datetime
    actor: str | None
    text: str
    seq: int = 0
    version: int = 0


@dataclass
class PlannedSession:
    values: dict[str, Any]  # GameSession fields
    devil_ratings: dict[str, int]
    log: list[PlannedLine] = field(default_factory=list)


@dataclass
class PlannedConflict:
    values: dict[str, Any]  # Conflict fields: title, phase, version, state, abandoned_at
    created_at: dt.datetime | None
    session: int | None
    previous: int | None  # an earlier conflict's index in Plan.conflicts
    seats: list[tuple[str, str | None, str]]  # pid, character key, goal
    timeline: list[PlannedLine]
    snapshots: list[tuple[int, dict[str, Any]]]  # version, engine state


@dataclass
class Plan:
    campaign: dict[str, Any]
    members: list[tuple[str, str]] = field(default_factory=list)
    characters: list[PlannedCharacter] = field(default_factory=list)
    links: list[dict[str, str]] = field(default_factory=list)
    notes: list[tuple[str, str]] = field(default_factory=list)
    sessions: list[PlannedSession] = field(default_factory=list)
    conflicts: list[PlannedConflict] = field(default_factory=list)


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
_CONFLICT = ("title", "phase", "version", "session", "previous", "state", "seats", "timeline")
_CONFLICT_OPTIONAL = ("created_at", "abandoned_at", "snapshots")
_SEAT = ("pid", "character", "goal")
_LINE = ("seq", "version", "at", "actor", "text")


def campaign_plan(data: dict[str, Any]) -> Plan:
    """Check everything in ``data``; the clean values, or ``ImportRefused``."""
    if data.get("format") != FORMAT:
        raise ImportRefused(
            [f"format: this is not a Dust Devils campaign file (expected \"{FORMAT}\", got "
             f"{_shown(data.get('format'))})"]
        )  # fmt: skip
    if data.get("version") not in READS or isinstance(data.get("version"), bool):
        raise ImportRefused(
            [f"version: this app reads versions 1 to {VERSION} of the format; the file says "
             f"{_shown(data.get('version'))}"]
        )  # fmt: skip
    rows = _ledger_rows(data)
    if rows > settings.IMPORT_MAX_LEDGER_ROWS:  # before anything else is checked
        raise ImportRefused(
            [f"characters: the file has {rows:,} chip-ledger rows; this table imports at most "
             f"{settings.IMPORT_MAX_LEDGER_ROWS:,}."]
        )  # fmt: skip
    c = _Checker()
    # fights: a record, not imported; conflicts: since version 2
    top = c.fields(data, "", _TOP, optional=("fights", "conflicts"))
    info = c.object_at(top, "campaign", "", _CAMPAIGN)
    slug = c.text_at(info, "slug", "campaign", limit=130, required=True)
    if slug.strip() and not _SLUG.match(slug):
        c.fail("campaign.slug", "may hold only letters, digits, - and _")
    plan = Plan(
        campaign={
            "name": " ".join(c.text_at(info, "name", "campaign", limit=120, required=True).split()),
            "slug": slug,
            "setting": c.text_at(info, "setting", "campaign", limit=200),
            "pitch": c.text_at(info, "pitch", "campaign"),
            "winner_bonus": c.flag_at(info, "winner_bonus", "campaign"),
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
        _conflict(c, raw, f"conflicts[{i}]", i, kinds, numbers)
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


def _members(c: _Checker, members: list[Any]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    dealer = ""
    for i, raw in enumerate(members):
        path = f"members[{i}]"
        member = c.fields(raw, path, ("username", "role"))
        username = c.text_at(member, "username", path, limit=150, required=True)
        role = c.choice_at(member, "role", path, Membership.Role.values)
        if username and username in (u for u, _ in out):
            c.fail(f"{path}.username", f"{_shown(username)} is listed twice")
            continue
        if role == Membership.Role.DEALER:
            if dealer:
                c.fail(f"{path}.role", f"a campaign has one Dealer, and {dealer} already is")
            dealer = dealer or username
        if username and role:
            out.append((username, role))
    return out


def _keys(c: _Checker, characters: list[PlannedCharacter]) -> dict[str, str]:
    """Each key → its character's kind; a key used twice is a problem."""
    kinds: dict[str, str] = {}
    first: dict[str, int] = {}
    for i, character in enumerate(characters):
        if not character.key:
            continue
        if character.key in first:
            c.fail(
                f"characters[{i}].key",
                f"{_shown(character.key)} is also the key of characters[{first[character.key]}]",
            )
            continue
        first[character.key] = i
        kinds[character.key] = character.kind
    return kinds


def _character(
    c: _Checker, raw: Any, path: str, usernames: set[str], session_numbers: set[int]
) -> PlannedCharacter:
    obj = c.fields(raw, path, _CHARACTER, optional=("quickness_dice",))
    key = c.text_at(obj, "key", path, limit=200, required=True)
    kind = c.choice_at(obj, "kind", path, Character.Kind.values)
    out_of_play = c.flag_at(obj, "out_of_play", path)
    player = c.username_at(obj, "player", path)
    if kind == Character.Kind.NPC and player is not None:
        c.fail(f"{path}.player", f"a non-player character has no player; got {_shown(player)}")
    elif kind == Character.Kind.PC and "player" in obj and player is None and not out_of_play:
        c.fail(f"{path}.player", "a player character in play needs a player")
    elif player is not None and player not in usernames:
        c.fail(f"{path}.player", f"{_shown(player)} is not one of the members")

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
        where = _entry(f"{path}.knacks", name)
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
    c: _Checker, rows: list[Any], path: str, session_numbers: set[int]
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


def _links(c: _Checker, links: list[Any], kinds: dict[str, str]) -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    pairs: set[tuple[str, str]] = set()
    for i, raw in enumerate(links):
        path = f"links[{i}]"
        obj = c.fields(raw, path, _LINK)
        ends: dict[str, str] = {}
        for end in ("npc", "pc"):
            key = c.text_at(obj, end, path, required=True)
            if key and key not in kinds:
                c.fail(f"{path}.{end}", f"no character has the key {_shown(key)}")
            elif key and kinds[key] != end:
                label = Character.Kind(end).label.lower()
                c.fail(f"{path}.{end}", f"{_shown(key)} is not a {label}")
            ends[end] = key
        pair = (ends.get("npc", ""), ends.get("pc", ""))
        if all(pair) and pair in pairs:
            c.fail(path, f"{_shown(pair[0])} and {_shown(pair[1])} are linked twice")
        pairs.add(pair)
        ends["devil_touched"] = c.text_at(obj, "devil_touched", path, limit=200)
        ends["notes"] = c.text_at(obj, "notes", path)
        out.append(ends)
    return out


def _sessions(c: _Checker, sessions: list[Any], kinds: dict[str, str]) -> list[PlannedSession]:
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
            where = _entry(f"{path}.devil_ratings", key)
            if key not in kinds:
                c.fail(where, "no character has this key")
            checked = c.number(rating, where, 1, 3)  # R21
            if checked is not None:
                ratings[key] = checked
        log = [
            _line(c, line, f"{path}.log[{n}]", _LOG)
            for n, line in enumerate(c.list_at(obj, "log", path))
        ]
        out.append(PlannedSession(values, ratings, log))
    return out


def _line(c: _Checker, raw: Any, path: str, names: tuple[str, ...]) -> PlannedLine:
    obj = c.fields(raw, path, names)
    return PlannedLine(
        at=c.moment_at(obj, "at", path, nullable=False) or EARLIEST,
        actor=c.username_at(obj, "actor", path),
        text=c.text_at(obj, "text", path),
    )


def _state(c: _Checker, raw: Any, path: str) -> dict[str, Any] | None:
    """The engine's state as its own loader reads it (conflicts.engine.serial), written back
    in its own shape; ``None`` (and a problem) if the engine cannot load it."""
    if not isinstance(raw, dict):
        c.fail(path, f"must be an object {{...}}, got {_shown(raw)}")
        return None
    try:
        data = state_to_data(state_from_data(raw))
    except RecursionError:
        c.fail(path, "is nested too deeply to be a conflict's state")
        return None
    except Exception as error:  # noqa: BLE001 — whatever the loader trips on, it is refused
        reason = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
        c.fail(path, f"is not a conflict state the engine can load ({reason[:200]})")
        return None
    before = len(c.problems)
    _plain(c, data, path)
    # What the loader takes as it is: each hand's pid (unique), name and side are text, and
    # the pids the state names are its hands'.
    pids: list[str] = []
    for n, hand in enumerate(data["participants"]):
        where = f"{path}.participants[{n}]"
        pid = c.text(hand["pid"], f"{where}.pid", limit=20, required=True)
        if pid and pid in pids:
            c.fail(f"{where}.pid", f"{_shown(pid)} is the pid of two hands")
        pids.append(pid)
        c.text(hand["name"], f"{where}.name", limit=200)
        c.text(hand["side"], f"{where}.side", limit=20, required=True)
    named = [("winner", data["winner"]), ("narrator", data["narrator"])]
    named += [(f"bidders[{n}]", pid) for n, pid in enumerate(data["bidders"])]
    named += [(f"bids[{n}]", bid[0]) for n, bid in enumerate(data["bids"])]
    named += [(f"owed[{n}].pid", owed["pid"]) for n, owed in enumerate(data["owed"])]
    if data["recovery"]:
        named.append(("recovery[0]", data["recovery"][0]))
    for where, pid in named:
        if pid is not None and (not isinstance(pid, str) or pid not in pids):
            c.fail(f"{path}.{where}", f"must be the pid of a hand, got {_shown(pid)}")
    return data if len(c.problems) == before else None


def _plain(c: _Checker, value: Any, path: str) -> None:
    """No number beyond the database's whole numbers, no NUL character, in a state."""
    if isinstance(value, dict):
        for key, item in value.items():
            _plain(c, item, _name(path, str(key)))
    elif isinstance(value, list | tuple):
        for n, item in enumerate(value):
            _plain(c, item, f"{path}[{n}]")
    elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > DB_INT_MAX:
        c.fail(path, f"must be at most {DB_INT_MAX:,} either way, got {_shown(value)}")
    elif isinstance(value, str) and "\x00" in value:
        c.fail(path, "must not contain the NUL character (\\u0000)")


def _conflict(
    c: _Checker, raw: Any, path: str, index: int, kinds: dict[str, str], sessions: set[int]
) -> PlannedConflict:
    obj = c.fields(raw, path, _CONFLICT, optional=_CONFLICT_OPTIONAL)
    phase = c.choice_at(obj, "phase", path, Conflict.Phase.values)
    version = c.number_at(obj, "version", path, 0) or 0
    session = c.number_at(obj, "session", path, 1, nullable=True)
    if session is not None and session not in sessions:
        c.fail(f"{path}.session", f"there is no session {session} in sessions")
    previous = c.number_at(obj, "previous", path, 0, nullable=True)
    if previous is not None and previous >= index:
        wanted = f"must be the place of an earlier conflict (0–{index - 1}), got {previous}"
        c.fail(f"{path}.previous", wanted if index else "the first conflict has no previous one")
        previous = None
    state = _state(c, obj["state"], f"{path}.state") if "state" in obj else None
    pids: list[str] = []
    hand_kinds: dict[str, str] = {}
    if state is not None:
        pids = [p["pid"] for p in state["participants"]]
        hand_kinds = {p["pid"]: p["kind"] for p in state["participants"]}
        if phase and state["phase"] != phase:
            c.fail(f"{path}.phase", f"is {_shown(phase)}, but the state's phase is "
                   f"{_shown(state['phase'])}")  # fmt: skip

    seats: list[tuple[str, str | None, str]] = []
    for n, seat_raw in enumerate(c.list_at(obj, "seats", path)):
        where = f"{path}.seats[{n}]"
        seat = c.fields(seat_raw, where, _SEAT)
        pid = c.text_at(seat, "pid", where, limit=20, required=True)
        if pid and pid in (p for p, _, _ in seats):
            c.fail(f"{where}.pid", f"{_shown(pid)} has two seats")
            continue
        if pid and state is not None and pid not in pids:
            c.fail(f"{where}.pid", f"{_shown(pid)} is not a hand in the state")
        key = seat.get("character")
        if key is not None:
            key = c.text(key, f"{where}.character", limit=200, required=True)
            if key and key not in kinds:
                c.fail(f"{where}.character", f"no character has the key {_shown(key)}")
        hand = hand_kinds.get(pid)
        if hand == "stud" and key is not None:
            c.fail(f"{where}.character", "the Dealer's stud hand has no character")
        elif hand in ("pc", "npc") and key is None:
            c.fail(f"{where}.character", f"the hand {_shown(pid)} is a character's: name it")
        elif hand in ("pc", "npc") and key in kinds and kinds[key] != hand:
            label = Character.Kind(hand).label.lower()
            c.fail(f"{where}.character", f"the hand {_shown(pid)} is a {label}'s")
        seats.append((pid, key or None, c.text_at(seat, "goal", where, limit=300)))
    if state is not None and "seats" in obj:
        missing = [pid for pid in pids if pid not in {p for p, _, _ in seats}]
        if missing:
            c.fail(f"{path}.seats", f"the state's hands {', '.join(missing)} have no seat")

    timeline: list[PlannedLine] = []
    for n, line_raw in enumerate(c.list_at(obj, "timeline", path)):
        where = f"{path}.timeline[{n}]"
        line = _line(c, line_raw, where, _LINE)
        fields = line_raw if isinstance(line_raw, dict) else {}
        line.seq = c.number_at(fields, "seq", where, 1) or 0
        line.version = c.number_at(fields, "version", where, 0) or 0
        if line.seq and line.seq in (t.seq for t in timeline):
            c.fail(f"{where}.seq", f"line {line.seq} is given twice")
        timeline.append(line)

    snapshots: list[tuple[int, dict[str, Any]]] = []
    for n, snap_raw in enumerate(c.list_at(obj, "snapshots", path)):
        where = f"{path}.snapshots[{n}]"
        snap = c.fields(snap_raw, where, ("version", "state"))
        at = c.number_at(snap, "version", where, 0, version)
        if at is not None and at in (v for v, _ in snapshots):
            c.fail(f"{where}.version", f"version {at} is given twice")
            continue
        snap_state = _state(c, snap["state"], f"{where}.state") if "state" in snap else None
        if at is not None and snap_state is not None:
            snapshots.append((at, snap_state))

    return PlannedConflict(
        values={
            "title": " ".join(c.text_at(obj, "title", path, limit=160, required=True).split()),
            "phase": phase,
            "version": version,
            "state": state or {},
            "abandoned_at": c.moment_at(obj, "abandoned_at", path),
        },
        created_at=c.moment_at(obj, "created_at", path),
        session=session,
        previous=previous,
        seats=seats,
        timeline=timeline,
        snapshots=snapshots,
    )
