"""A game's part in a campaign file (issue 37): its *codec*, which the coming ``tables.Game``
declaration will carry as the game's ``codec``.

A codec does three things for one kind of game, in the export/import pipeline's shape (bytes →
JSON → a checked plan → one transaction; ``exchange``):

- ``export(campaign, refs)``: the campaign's games of that kind as plain JSON data, oldest
  first — each with its seats (a member's username, or for a fight a character's key), its
  public timeline lines and its state *sealed*: no value a viewer may not see (a hidden card,
  the deck's order, a count not yet shown) is ever written, whatever the game's phase.
- ``check(data, path, refs)``: the file's list read back into ``PlannedGame`` rows, each state
  read by its engine's own loader; a problem is said in plain words at its place in the file
  through ``refs.checker`` (the importer refuses the whole file then, writing nothing). A
  running game's hidden values come back dealt or hidden again here, by the server's
  randomness, whatever the file says they are: no file can stack a deck or choose a count.
- ``write(plans, campaign, refs)``: inside the importer's one transaction, the rows, seats and
  lines (at the file's times), and one sentence per game saying what the restore did with it.

Each game's codec lives in ``<game>/codec.py`` and registers itself (``register``); the pipeline
finds them with Django's ``autodiscover_modules("codec")``, as the admin finds ``admin.py``:
neither ``exchange`` nor a game's ``apps.py`` imports the other by hand.
``tables.seated.SeatedCodec`` is the codec of a game whose seats are members (the saloon,
Saloon Showdown, The Gunfighter): such a game gives its models and its engine's ``seal.py``.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from django.db import models
from django.db.models import Case, DateTimeField, Value, When
from django.utils.module_loading import autodiscover_modules

T = TypeVar("T")
DB_INT_MAX = 2_147_483_647  # the database's whole numbers (PostgreSQL integer)
RESTORER = "\x00restorer"  # a line's actor: whoever writes the file in (no username is it)


class Checker(Protocol):
    """What a codec needs of the importer's checker (``exchange.reading.Checker``)."""

    problems: list[str]

    def fail(self, path: str, message: str) -> None: ...

    def text(self, value: Any, path: str, *, limit: int, required: bool = False) -> str: ...

    def moment(self, value: str | None, path: str) -> dt.datetime | None: ...


@dataclass(frozen=True)
class ExportRefs:
    """What an export knows besides the campaign: each character's key in the file."""

    keys: dict[int, str]


@dataclass(frozen=True)
class CheckRefs:
    """What a check knows of the rest of the file: its checker, its characters (key → kind),
    its session numbers and its members' usernames."""

    checker: Checker
    characters: dict[str, str]
    sessions: set[int]
    members: set[str]


@dataclass(frozen=True)
class WriteRefs:
    """What a write needs: the importing Dealer; who is seated at the campaign here (username →
    user); whom a line may be credited to; the characters and sessions just written."""

    dealer: Any
    seated: dict[str, Any]
    credited: dict[str, Any]
    characters: dict[str, Any] = field(default_factory=dict)
    sessions: dict[int, Any] = field(default_factory=dict)


@dataclass
class PlannedLine:
    """A timeline line: its number, the table's version then, when, who, what; ``fields``: the
    game's own (a saloon line's kind and words, a fight line's round...)."""

    seq: int
    version: int
    at: dt.datetime
    actor: str | None
    text: str
    fields: dict[str, Any] = field(default_factory=dict)


@dataclass
class PlannedGame:
    """One game as the file brings it back, checked: the row's fields (title, phase, version,
    the state as it will be written), its seats, its lines, and ``restored``: what the restore
    did with it, in words (a running game's hidden values dealt again...)."""

    values: dict[str, Any]
    created_at: dt.datetime | None
    seats: list[dict[str, Any]]
    lines: list[PlannedLine]
    restored: str
    session: int | None = None
    again: list[PlannedLine] = field(default_factory=list)  # the restore's own lines


class Codec(Protocol):
    """One kind of game in a campaign file (see the module docstring)."""

    kind: str  # its list's name in the file's ``games``: "fights", "saloons"...
    noun: str  # how the restore's words call one: "fight", "Saloon Showdown"...

    def seal(self, state: dict[str, Any]) -> dict[str, Any]:
        """A game's state (its row's) as a file writes it: nothing a viewer may not see."""
        ...

    def export(self, campaign: Any, refs: ExportRefs) -> list[dict[str, Any]]: ...

    def check(self, data: list[Any], path: str, refs: CheckRefs) -> list[PlannedGame]: ...

    def clear(self, campaign: Any) -> None: ...

    def write(self, plans: list[PlannedGame], campaign: Any, refs: WriteRefs) -> list[str]:
        """The games, and one sentence each saying what was done; ``Unshowable`` when a game
        written cannot be shown to some viewer (``shown``)."""
        ...


class Unshowable(ValueError):
    """A game a write made whose page some viewer cannot be shown: the importer refuses the
    file with these words, and its transaction writes nothing (no file leaves a page that
    answers 500)."""


def shown(screens: Iterable[tuple[str, Callable[[], dict[str, Any]]]], where: str) -> None:
    """Each screen (a template and the function making its context) rendered, or
    ``Unshowable`` naming the game's place in the file and what the page tripped on."""
    from django.template.loader import render_to_string

    for template, context in screens:
        try:
            render_to_string(template, context())
        except Exception as error:
            reason = f"{type(error).__name__}: {error}"[:200]
            raise Unshowable(
                f"{where}.state: the engine loads it, but its page cannot be shown ({reason})"
            ) from error


_CODECS: dict[str, Codec] = {}


def register(codec: Codec) -> Codec:
    """A game's ``codec.py`` registers its codec (once: a second with the same kind replaces
    it, as a module imported again would)."""
    _CODECS[codec.kind] = codec
    return codec


def codecs() -> list[Codec]:
    """Every installed game's codec, in the order of their kinds (the file's order)."""
    autodiscover_modules("codec")
    return [_CODECS[kind] for kind in sorted(_CODECS)]


# --- What the games share ----------------------------------------------------------------------


def q(value: Any) -> str:
    """A value as a message quotes it (as the importer's ``shown``): "p1", 3."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 42 else text[:39] + "..."


def when(value: dt.datetime | None) -> str | None:
    return value.astimezone(dt.UTC).isoformat() if value else None


def lines_data(lines: Iterable[Any], extra: Sequence[str]) -> list[dict[str, Any]]:
    """A table's timeline lines as the file writes them, in order."""
    return [
        {
            "seq": line.seq,
            "version": line.version,
            "at": when(line.created_at),
            "actor": line.actor.get_username() if line.actor else None,
            "text": line.text,
            **{name: getattr(line, name) for name in extra},
        }
        for line in sorted(lines, key=lambda line: line.seq)
    ]


def lines_checked(
    c: Checker, raw: list[dict[str, Any]], path: str, extra: Sequence[str]
) -> list[PlannedLine]:
    """A game's timeline from the file (the schema checked its fields' types)."""
    out: list[PlannedLine] = []
    seqs: set[int] = set()
    for n, line in enumerate(raw):
        where = f"{path}.timeline[{n}]"
        if line["seq"] in seqs:
            c.fail(f"{where}.seq", f"line {line['seq']} is given twice")
        seqs.add(line["seq"])
        missing = [name for name in extra if name not in line]
        if missing:
            c.fail(f"{where}.{missing[0]}", "is missing")
        out.append(
            PlannedLine(
                seq=line["seq"],
                version=line["version"],
                at=c.moment(line["at"], f"{where}.at") or dt.datetime(1800, 1, 1, tzinfo=dt.UTC),
                actor=line["actor"],
                text=line["text"],
                fields={name: line[name] for name in extra if name in line},
            )
        )
    return out


def restored_words(again: str, running: bool) -> str:
    """What a restore did with one game, in words: a running game's line (its hidden values
    dealt or hidden again), or that it came back as the file has it."""
    if again and running:
        return again
    if again:
        return ("finished: restored as the file has it; what it still hid, never shown, was "
                "dealt afresh")  # fmt: skip
    return "restored as the file has it" + ("" if running else " (finished)")


def again_line(plan: PlannedGame, text: str, at: dt.datetime, **fields: Any) -> None:
    """The restore's line on a game's timeline (after the file's last, at a new version)."""
    plan.values["version"] += 1
    seq = max((line.seq for line in (*plan.lines, *plan.again)), default=0) + 1
    plan.again.append(PlannedLine(seq, plan.values["version"], at, RESTORER, text, fields))


def write_lines(
    line_model: type[models.Model], fk: str, row: models.Model, lines: Sequence[PlannedLine],
    refs: WriteRefs,
) -> None:  # fmt: skip
    """A table's lines, credited to people seated here (the restore's own to the Dealer), at
    the file's times: ``created_at`` is stamped by the model, so it is set after, in chunks."""
    manager = line_model._default_manager
    manager.bulk_create(
        line_model(
            **{fk: row},
            seq=line.seq,
            version=line.version,
            actor=refs.dealer if line.actor == RESTORER else refs.credited.get(line.actor or ""),
            text=line.text,
            **line.fields,
        )
        for line in lines
    )
    set_times(manager.filter(**{fk: row}), [(line.seq, line.at) for line in lines])


def set_times(rows: models.QuerySet[Any], times: Sequence[tuple[int, dt.datetime]]) -> None:
    """Each line's ``created_at`` (by its ``seq``), a CASE of 200 lines a query."""
    for start in range(0, len(times), 200):
        chunk = times[start : start + 200]
        rows.filter(seq__in=[seq for seq, _ in chunk]).update(
            created_at=Case(
                *(When(seq=seq, then=Value(at)) for seq, at in chunk),
                output_field=DateTimeField(),
            )
        )


def state_loaded(c: Checker, path: str, load: Callable[[], T], noun: str) -> T | None:
    """The state an engine's loader makes of the file's (``load``), or ``None`` and a problem
    in words: whatever the loader trips on refuses the file, never a 500."""
    try:
        return load()
    except RecursionError:
        c.fail(path, f"is nested too deeply to be a {noun}'s state")
    except Exception as error:  # noqa: BLE001 — whatever the loader trips on, it is refused
        reason = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
        c.fail(path, f"is not a {noun}'s state the engine can load ({reason[:200]})")
    return None


def dated(row: models.Model, created_at: dt.datetime | None) -> None:
    """The row's creation time as the file has it (the model stamps its own on create)."""
    if created_at is not None:
        type(row)._default_manager.filter(pk=row.pk).update(
            created_at=created_at, last_move_at=created_at
        )


def typed(value: Any, path: str) -> None:
    """Raises ``TypeError`` where an engine's state holds a value of another type than its
    dataclass field says (``int``, ``str``, ``bool``, optional or not; nested dataclasses and
    tuples of them too): an engine's loader takes what a file gives, the screens would not."""
    if isinstance(value, tuple):
        for n, item in enumerate(value):
            typed(item, f"{path}[{n}]")
        return
    if not dataclasses.is_dataclass(value) or isinstance(value, type):
        return
    for f in dataclasses.fields(value):
        item, where = getattr(value, f.name), f"{path}.{f.name}"
        kind = str(f.type).removesuffix(" | None")
        if item is None and str(f.type).endswith(" | None"):
            continue
        wanted = _TYPES.get(kind)
        if wanted is not None and (
            not isinstance(item, wanted) or (wanted is int and isinstance(item, bool))
        ):
            raise TypeError(f"{where} must be {kind}, got {item!r}"[:200])
        typed(item, where)


_TYPES: dict[str, type] = {"int": int, "str": str, "bool": bool}
