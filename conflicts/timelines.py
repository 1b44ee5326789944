"""A conflict's timeline, and the lines each process has already read of it.

Events are only ever appended: a move writes its lines under the conflict's row lock, numbered
on from the last (``seq``), and commits them together, so whoever reads the lines after line n
gets n + 1, n + 2, … with no gap. A busy table is read at every move (the mover's answer, and
every other process's screens); keeping the lines read so far turns each read of a timeline of
fifty lines into a read of the one or two a move added.
"""

from __future__ import annotations

import json
import threading
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime


@dataclass(frozen=True)
class TimelineEntry:
    """One line of a conflict's timeline, as the screens show it (public words only: the
    events never name a hidden card)."""

    seq: int
    version: int
    text: str
    created_at: datetime
    actor_name: str  # the display name of who made the move, "" for the app itself


Lines = tuple[TimelineEntry, ...]


def lines_from_json(text: str) -> Lines:
    """The lines of ``services.read_conflict_row``'s ``events_json``: ``[[seq, version, text,
    created_at, actor name], …]``, times as PostgreSQL's JSON writes them (ISO 8601)."""
    return tuple(
        TimelineEntry(seq, version, line, datetime.fromisoformat(at).astimezone(UTC), actor)
        for seq, version, line, at, actor in json.loads(text)
    )


class Timelines:
    """The lines this process has read per conflict (the most recent ``KEEP`` conflicts).

    Only what was committed goes in: a read's lines, or a move's own once it has committed.
    An actor renamed later (in the admin; players cannot rename themselves) keeps the old
    name in lines already read until the conflict drops out of the ``KEEP`` most recent."""

    KEEP = 1024

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._lines: OrderedDict[int, Lines] = OrderedDict()

    def last_seq(self, conflict_id: int) -> int:
        """The number of the last line known (0 when none: read them all)."""
        with self._lock:
            known = self._lines.get(conflict_id)
        return known[-1].seq if known else 0

    def merge(
        self, conflict_id: int, after: int, lines: Sequence[TimelineEntry], *, keep: bool = True
    ) -> Lines | None:
        """The whole timeline as a read of the lines after ``after`` saw it: the known lines up
        to ``after``, then ``lines``; kept (unless ``keep`` is false: lines not committed yet)
        if it goes further than what was known. None when this process no longer knows the
        lines up to ``after`` (forgotten since): read them all."""
        with self._lock:
            known = self._lines.get(conflict_id, ())
            if after and (not known or known[-1].seq < after):
                return None
            whole = known[: bisect_right(known, after, key=_seq)] + tuple(lines)
            if keep and whole and (not known or whole[-1].seq > known[-1].seq):
                self._lines[conflict_id] = whole
            if conflict_id in self._lines:
                self._lines.move_to_end(conflict_id)
                while len(self._lines) > self.KEEP:
                    self._lines.popitem(last=False)
            return whole

    def clear(self) -> None:
        """Forget every line (tests: a flushed test database hands out conflict ids again)."""
        with self._lock:
            self._lines.clear()


def _seq(line: TimelineEntry) -> int:
    return line.seq


timelines = Timelines()


def entries(rows: Iterable[tuple[int, int, str, datetime, str | None, str | None]]) -> Lines:
    """Lines from the ORM's rows: (seq, version, text, created_at, first name, username)."""
    return tuple(
        TimelineEntry(seq, version, text, created_at, first_name or username or "")
        for seq, version, text, created_at, first_name, username in rows
    )
