"""A campaign file's structure: ``schema/campaign.schema.json`` (JSON Schema, draft 2020-12)
says which fields there are, their types, lengths and ranges; ``jsonschema`` checks a file
against it, and each of its ``ValidationError`` is said here in the app's words, with its place
in the file: ``characters[2].attributes.hand.rating: must be 0–5, got 7``.

What a schema cannot say (references between keys, the ledger adding up, a conflict's state as
the engine reads it) is ``checks.py``'s. No database access here.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, ValidationError, validators
from jsonschema.protocols import Validator

from exchange.reading import MAX_PROBLEMS, entry_at, name_at, range_words, shown

SCHEMA = Path(__file__).with_name("schema") / "campaign.schema.json"

# Objects whose names are the file's own (a knack's name, a character's key), written
# ``knacks["Shootin'"]`` rather than ``knacks.Shootin'``.
MAPS = ("knacks", "devil_ratings")
NAMES = {"knacks": "a knack's name must be 1–80 characters, with no NUL character"}
TYPES = {
    "integer": "a whole number",
    "string": "text",
    "boolean": "true or false",
    "object": "an object {...}",
    "array": "a list [...]",
}
FORMATS = {
    "date-time": "a date and time like 2026-11-22T20:15:00+00:00",
    "date": "a date like 2026-11-22",
}
NUL = "must not contain the NUL character (\\u0000)"  # said of any text holding it
PATTERNS = {
    r"^[^\u0000]*$": NUL,
    r"^[^\u0000]*[^\s\u0000][^\u0000]*$": "must not be empty",
    "^[-a-zA-Z0-9_]+$": "may hold only letters, digits, - and _",
}
# Words for one field's rule, by (the field's name, the keyword); {n}: how many there are.
SPECIAL = {
    ("traits", "maxItems"): "a character has at most two traits, got {n}",
    ("amount", "not"): "must add or take at least one chip, got 0",
}


def _whole_number(checker: Any, instance: object) -> bool:
    """3 is a whole number, and neither true nor 3.0 (which draft 2020-12 would take)."""
    return isinstance(instance, int) and not isinstance(instance, bool)


_Checker: type[Validator] = validators.extend(  # type: ignore[no-untyped-call]
    Draft202012Validator,
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _whole_number),
)


@cache
def schema() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(SCHEMA.read_text(encoding="utf-8"))
    return loaded


@cache
def _validator() -> Validator:
    _Checker.check_schema(schema())
    return _Checker(_inlined(schema(), schema()["$defs"]))


def _inlined(node: Any, defs: dict[str, Any]) -> Any:
    """``node`` with each ``$ref`` to a definition replaced by the definition's keywords, or by
    ``allOf`` [the definition, the keywords beside the ``$ref``] where the two share one: the
    same checks in the same order, without a look-up for each value of the file (a ledger of
    5,000 rows is checked in a quarter of the time)."""
    if isinstance(node, list):
        return [_inlined(item, defs) for item in node]
    if not isinstance(node, dict):
        return node
    out = {
        key: value if key in ("enum", "const") else _inlined(value, defs)
        for key, value in node.items()
        if key != "$defs"
    }
    ref = out.pop("$ref", None)
    if ref is None:
        return out
    target = _inlined(defs[ref.removeprefix("#/$defs/")], defs)
    beside = {key: value for key, value in out.items() if key != "description"}
    return {"allOf": [target, beside]} if set(target) & set(beside) else {**target, **beside}


def too_many(
    data: Any, rule: dict[str, Any] | None = None, path: tuple[str | int, ...] = ()
) -> list[str]:
    """Every list (and map) of ``data`` longer than the schema's ``maxItems`` (``maxProperties``)
    for it, each said with its place: counted before anything else is checked, so a file of
    100,000 notes is refused at once, not after the schema has been checked against each
    (issue 37: every list an import writes has a stated maximum)."""
    if rule is None:
        rule = _limited_schema()
    for part in rule.get("allOf", ()):
        rule = {**rule, **part}
    found: list[str] = []
    field = next((step for step in reversed(path) if isinstance(step, str)), "")
    if isinstance(data, list):
        most = rule.get("maxItems")
        if most is not None and len(data) > most and (field, "maxItems") not in SPECIAL:
            return [f"{place(path) or 'the file'}: holds {len(data):,}; this table imports "
                    f"at most {most:,}"]  # fmt: skip
        items = rule.get("items")
        if isinstance(items, dict) and _limits_in(items):
            for i, item in enumerate(data):
                found += too_many(item, items, (*path, i))
    elif isinstance(data, dict):
        most = rule.get("maxProperties")
        if most is not None and len(data) > most:
            return [f"{place(path)}: holds {len(data):,}; this table imports at most {most:,}"]
        for name, sub in rule.get("properties", {}).items():
            if name in data and _limits_in(sub):
                found += too_many(data[name], sub, (*path, name))
    return found[:MAX_PROBLEMS]


@cache
def _limited_schema() -> dict[str, Any]:
    return dict(_validator().schema)  # type: ignore[arg-type]  # the inlined schema: an object


_LIMITED: dict[int, bool] = {}


def _limits_in(rule: dict[str, Any]) -> bool:
    """Whether ``rule`` or anything inside it has a maximum count (once per rule of the schema,
    which lives as long as the process)."""
    known = _LIMITED.get(id(rule))
    if known is None:
        text = json.dumps(rule)
        known = _LIMITED[id(rule)] = "maxItems" in text or "maxProperties" in text
    return known


def structure_problems(data: dict[str, Any], limit: int = MAX_PROBLEMS) -> list[str]:
    """Each way ``data`` differs from the schema, its place first; one problem a place, the
    first ``limit`` of them (the errors come lazily: a wholly wrong file is not all read)."""
    found: dict[str, str] = {}
    for error in _validator().iter_errors(data):
        for where, message in said(error):
            found.setdefault(where, message)
        if len(found) >= limit:
            break
    return [f"{where}: {message}" for where, message in found.items()][:limit]


def place(path: Iterable[str | int]) -> str:
    """``["characters", 2, "knacks", "Ropin'"]`` → ``characters[2].knacks["Ropin'"]``."""
    where, previous = "", None
    for step in path:
        if isinstance(step, int):
            where += f"[{step}]"
        elif previous in MAPS:
            where = entry_at(where, step)
        else:
            where = name_at(where, step)
        previous = step
    return where


def said(error: ValidationError) -> Iterator[tuple[str, str]]:
    """The problems one ``ValidationError`` stands for: (place, message) pairs."""
    path = list(error.absolute_path)
    value: Any = error.instance
    rule: Any = error.schema
    expected: Any = error.validator_value
    where, keyword = place(path), str(error.validator)
    field = next((step for step in reversed(path) if isinstance(step, str)), "")
    if "propertyNames" in error.absolute_schema_path:  # ``value`` is the name
        yield entry_at(where, value), NAMES.get(field, "is not a name this object can have")
    elif keyword == "required":
        for name in expected:
            if name not in value:
                yield name_at(where, name), "is missing"
    elif keyword == "additionalProperties" and expected is False:
        for name in value:
            if name not in rule.get("properties", {}):
                yield name_at(where, name), "is not part of this format"
    elif (field, keyword) in SPECIAL:
        count = len(value) if isinstance(value, list | dict | str) else value
        yield where, SPECIAL[field, keyword].format(n=count)
    else:
        message = _message(keyword, expected, value, rule)
        yield where, message or f"does not fit the format ({error.message[:200]})"


def _message(keyword: str, expected: Any, value: Any, rule: dict[str, Any]) -> str | None:
    """The app's words for a keyword of the schema; ``None`` for one it has none for (a test
    holds that every keyword the schema uses has words)."""
    got = shown(value)
    if keyword == "type":
        wanted = next(t for t in ([expected] if isinstance(expected, str) else expected)
                      if t != "null")  # fmt: skip
        words = FORMATS.get(rule.get("format", "")) if wanted == "string" else None
        return f"must be {words or TYPES[wanted]}, got {got}" if wanted in TYPES else None
    if keyword in ("minimum", "maximum"):
        return f"must be {range_words(rule['minimum'], rule['maximum'])}, got {got}"
    if keyword in ("maxItems", "maxProperties"):
        return f"holds {len(value):,}; this table imports at most {expected:,}"
    if keyword == "maxLength":
        return f"must be at most {expected} characters, got {len(value)}"
    if keyword == "pattern":
        return NUL if isinstance(value, str) and "\x00" in value else PATTERNS.get(expected)
    if keyword == "enum":
        return f"must be one of {', '.join(json.dumps(c) for c in expected)}; got {got}"
    if keyword == "const":
        return f"must be {json.dumps(expected)}, got {got}"
    return None
