"""A character's history across sessions, for the sheet: a small chart drawn on the server (SVG,
no front-end library) of the attributes as each session ended and the chips held then, and the
list of what changed them — Difficulty taken (R9), points restored in play (R16, R22), the
recovery at each session's end (R22) and chips spent (R15).

The chart's points are the ``SessionSnapshot`` rows written as each session ends; the list is
the ``AttributeChange`` rows and the chip ledger. Geometry is computed here, in plain numbers;
``templates/characters/_history.html`` only writes them into the SVG.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from math import ceil

from characters.models import AttributeChange, Character, ChipEntry, SessionSnapshot
from characters.rules import ATTRIBUTE_LABELS, ATTRIBUTE_MAX, ATTRIBUTE_SUITS, ATTRIBUTES

# The chart's coordinate system (the SVG's viewBox); it scales to the width it is given.
WIDTH = 320
LEFT = 70  # labels
RIGHT = 28  # the last value
TOP = 6
BAND = 40  # one attribute's strip
BAND_GAP = 8
CHIPS_BAND = 64
AXIS = 18  # session labels under the strips
MAX_LABELS = 10
RED_SUITS = {"♦", "♥"}


@dataclass(frozen=True)
class Dot:
    x: float
    y: float
    value: int
    session: int
    zero: bool = False


@dataclass(frozen=True)
class Strip:
    """One attribute: its current value at each session's end, and its rating (dashed)."""

    name: str
    label: str
    suit: str
    red: bool
    top: float
    height: float
    dots: list[Dot]
    line: str  # SVG points of the current values
    rating_line: str  # SVG points of the ratings
    last: int
    label_y: float


@dataclass(frozen=True)
class Bar:
    x: float
    center: float
    y: float
    width: float
    height: float
    value: int
    session: int


@dataclass(frozen=True)
class Tick:
    x: float
    label: str


@dataclass(frozen=True)
class Chart:
    width: int
    height: float
    left: int
    plot_width: int
    right_x: float
    strips: list[Strip]
    bars: list[Bar]
    chips_top: float
    chips_bottom: float
    chips_max: int
    ticks: list[Tick]
    axis_y: float
    description: str


@dataclass(frozen=True)
class Entry:
    at: datetime
    kind: str  # difficulty | restore | recovery | spend
    text: str
    amount: int  # + or − points or chips
    suit: str = ""
    detail: str = ""

    @property
    def signed(self) -> str:
        """+3 or −3 (a true minus sign)."""
        return f"+{self.amount}" if self.amount > 0 else f"−{-self.amount}"


@dataclass
class SessionGroup:
    number: int | None  # None: outside any session
    entries: list[Entry] = field(default_factory=list)

    @property
    def title(self) -> str:
        return f"Session {self.number}" if self.number is not None else "Between sessions"


@dataclass(frozen=True)
class History:
    chart: Chart | None  # None until a session has ended with this character in it
    snapshots: list[SessionSnapshot]
    groups: list[SessionGroup]

    @property
    def empty(self) -> bool:
        return self.chart is None and not self.groups


def character_history(character: Character) -> History:
    """The character's history, oldest session first in the chart, newest first in the list."""
    snapshots = list(
        SessionSnapshot.objects.filter(character=character)
        .select_related("session")
        .order_by("session__number")
    )
    return History(
        chart=history_chart(snapshots) if snapshots else None,
        snapshots=snapshots,
        groups=_groups(character),
    )


def _x_positions(n: int) -> list[float]:
    plot = WIDTH - LEFT - RIGHT
    return [LEFT + (i + 0.5) * plot / n for i in range(n)]


def _points(xs: list[float], ys: list[float]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in zip(xs, ys, strict=True))


def history_chart(snapshots: list[SessionSnapshot]) -> Chart:
    """Small multiples: one strip per attribute (0–5), then the chips as bars, one column per
    ended session. Plain numbers for the template to write into the SVG."""
    xs = _x_positions(len(snapshots))
    numbers = [s.session.number for s in snapshots]
    strips = []
    top = float(TOP)
    for a in ATTRIBUTES:
        inner_top, inner_bottom = top + 4, top + BAND - 4

        def y(v: int, t: float = inner_top, b: float = inner_bottom) -> float:
            return b - (b - t) * v / ATTRIBUTE_MAX

        currents = [s.current(a) for s in snapshots]
        ratings = [s.rating(a) for s in snapshots]
        dots = [
            Dot(x, y(v), v, n, zero=v == 0) for x, v, n in zip(xs, currents, numbers, strict=True)
        ]
        strips.append(
            Strip(
                name=a,
                label=ATTRIBUTE_LABELS[a],
                suit=ATTRIBUTE_SUITS[a],
                red=ATTRIBUTE_SUITS[a] in RED_SUITS,
                top=top,
                height=BAND,
                dots=dots,
                line=_points(xs, [y(v) for v in currents]),
                rating_line=_points(xs, [y(v) for v in ratings]),
                last=currents[-1],
                label_y=top + BAND / 2 + 4,
            )
        )
        top += BAND + BAND_GAP
    chips_top, chips_bottom = top + 12, top + CHIPS_BAND
    chips = [s.chips for s in snapshots]
    chips_max = max(max(chips), 1)
    column = (WIDTH - LEFT - RIGHT) / len(snapshots)
    bar_width = min(22.0, column * 0.6)
    bars = []
    for x, value, n in zip(xs, chips, numbers, strict=True):
        height = (chips_bottom - chips_top) * value / chips_max
        bars.append(Bar(x - bar_width / 2, x, chips_bottom - height, bar_width, height, value, n))
    every = max(1, ceil(len(snapshots) / MAX_LABELS))
    ticks = [
        Tick(x, f"S{n}")
        for i, (x, n) in enumerate(zip(xs, numbers, strict=True))
        if i % every == 0 or i == len(xs) - 1
    ]
    axis_y = chips_bottom + 14
    return Chart(
        width=WIDTH,
        height=axis_y + AXIS - 12,
        left=LEFT,
        plot_width=WIDTH - LEFT - RIGHT,
        right_x=WIDTH - RIGHT + 6,
        strips=strips,
        bars=bars,
        chips_top=chips_top,
        chips_bottom=chips_bottom,
        chips_max=chips_max,
        ticks=ticks,
        axis_y=axis_y,
        description=_describe(snapshots),
    )


def _describe(snapshots: list[SessionSnapshot]) -> str:
    """The chart in words, for screen readers (the table under it has every number)."""
    first, last = snapshots[0], snapshots[-1]
    parts = [f"{ATTRIBUTE_LABELS[a]} {last.current(a)} of {last.rating(a)}" for a in ATTRIBUTES]
    span = (
        f"session {first.session.number}"
        if first is last
        else f"sessions {first.session.number} to {last.session.number}"
    )
    latest = ", ".join(parts)
    return f"Attributes and chips at the end of {span}. Latest: {latest}; {last.chips} chips."


def _groups(character: Character) -> list[SessionGroup]:
    entries: list[tuple[int | None, Entry]] = []
    changes = AttributeChange.objects.filter(character=character).select_related(
        "session", "conflict"
    )
    for change in changes:
        label = ATTRIBUTE_LABELS[change.attribute]
        entries.append(
            (
                change.session.number if change.session else None,
                Entry(
                    at=change.at,
                    kind=change.reason,
                    text=f"{label} {change.before} → {change.after}",
                    amount=change.points,
                    suit=ATTRIBUTE_SUITS[change.attribute],
                    detail=(
                        change.conflict.title if change.conflict else change.get_reason_display()
                    ),
                ),
            )
        )
    spends = ChipEntry.objects.filter(character=character, amount__lt=0).select_related("session")
    for spend in spends:
        n = -spend.amount
        entries.append(
            (
                spend.session.number if spend.session else None,
                Entry(
                    at=spend.created_at,
                    kind="spend",
                    text=f"{n} chip{'s' if n != 1 else ''}: {spend.get_reason_display()}",
                    amount=spend.amount,
                    detail=spend.note,
                ),
            )
        )
    groups: dict[int | None, SessionGroup] = {}
    for number, entry in sorted(entries, key=lambda e: e[1].at, reverse=True):
        groups.setdefault(number, SessionGroup(number)).entries.append(entry)
    # Newest session first; what happened outside any session after them.
    return sorted(groups.values(), key=lambda g: -1 if g.number is None else g.number, reverse=True)
