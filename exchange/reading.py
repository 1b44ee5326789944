"""Reading a campaign file: its bytes into JSON data (``campaign_file_parse``, or why it cannot
be: cut off, not JSON, a field given twice...), and the words for its problems, each with its
place in the file: ``characters[2].attributes.hand.rating: must be 0–5, got 7``. The file's
structure is ``structure.py``'s (the JSON Schema); ``checks.campaign_plan`` checks the rest with
a ``Checker``.

No database access here.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable
from typing import Any

from django.conf import settings

FORMAT = "dustdevils.campaign"
VERSION = 3  # 3: every game (fights, saloon, Saloon Showdown, The Gunfighter: ``games``)
# 2: conflicts (state, seats, timeline, replay states) and each session's log
READS = (1, 2, 3)  # a version 1 file has no conflicts nor session logs; 1 and 2 have no games
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
            given = json.dumps(name, ensure_ascii=False)
            raise ImportRefused(
                [f"The file gives {given} twice in one object; each name may appear only once."]
            )
        found[name] = value
    return found


def _no_constant(word: str) -> Any:
    """NaN, Infinity and -Infinity, which Python's reader takes but JSON has not: no campaign
    holds one, and the database would refuse it half-way through the writing (issue 37, B6)."""
    raise ImportRefused(
        [f"The file holds {word}, which is not a number JSON knows: is it a campaign export?"]
    )


def max_file_bytes() -> int:
    return int(settings.IMPORT_MAX_BYTES)


def too_big() -> str:
    limit = max_file_bytes()
    size = f"{limit / (1024 * 1024):g} MB" if limit >= 1024 * 1024 else f"{limit // 1024} kB"
    return f"The file is larger than {size}, the most this table imports."


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
        data = json.loads(raw, object_pairs_hook=_fields_once, parse_constant=_no_constant)
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


# --- Saying where and what ---------------------------------------------------------------------


def shown(value: Any) -> str:
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


def name_at(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def entry_at(path: str, key: str) -> str:
    return f"{path}[{json.dumps(key, ensure_ascii=False)}]"


def range_words(low: int, high: int) -> str:
    """``0–5``; ``0 to 2,147,483,647`` up to the database's limit."""
    return f"{low}–{high}" if high < DB_INT_MAX else f"{low} to {high:,}"


class Checker:
    """Collects problems, each prefixed with its place in the file, and reads the values the
    schema leaves as text (times, dates) or to the engine (a conflict state's names)."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def fail(self, path: str, message: str) -> None:
        self.problems.append(f"{path}: {message}")

    def text(self, value: Any, path: str, *, limit: int, required: bool = False) -> str:
        if not isinstance(value, str):
            self.fail(path, f"must be text, got {shown(value)}")
        elif "\x00" in value:  # PostgreSQL text cannot hold it; no campaign needs it
            self.fail(path, "must not contain the NUL character (\\u0000)")
        elif required and not value.strip():
            self.fail(path, "must not be empty")
        elif len(value) > limit:
            self.fail(path, f"must be at most {limit} characters, got {len(value)}")
        else:
            return value
        return ""

    def moment(self, value: str | None, path: str) -> dt.datetime | None:
        """A time the file gives (``None`` for null), in UTC."""
        if value is None:
            return None
        try:
            moment = dt.datetime.fromisoformat(value)
        except ValueError:
            self.fail(
                path, f"must be a date and time like 2026-11-22T20:15:00+00:00, got {shown(value)}"
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
                path,
                f"must be a date and time between the years {EARLIEST.year} and "
                f"{LATEST.year - 1}, got {shown(value)}",
            )
            return None
        return in_utc

    def day(self, value: str | None, path: str) -> dt.date | None:
        if value is None:
            return None
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            self.fail(path, f"must be a date like 2026-11-22, got {shown(value)}")
            return None
