"""Checking a campaign file's conflicts (format version 2), once the schema has checked their
shape: each one's engine state (read back by the engine itself, its 54 cards checked), the
seats' hands and characters, the timeline and the replay states; and a timeline line, which a
session's log shares."""

from __future__ import annotations

from typing import Any

from cards.deck import new_salt, system_rng
from characters.models import Character
from conflicts.engine.restore import redealt
from conflicts.engine.serial import state_from_data, state_to_data
from conflicts.models import Conflict
from exchange.plan import PlannedConflict, PlannedLine
from exchange.reading import DB_INT_MAX, EARLIEST, Checker, name_at, range_words, shown


def line_checked(c: Checker, line: dict[str, Any], path: str) -> PlannedLine:
    return PlannedLine(
        at=c.moment(line["at"], f"{path}.at") or EARLIEST,
        actor=line["actor"],
        text=line["text"],
    )


def _state(c: Checker, raw: Any, path: str, *, running: bool = False) -> dict[str, Any] | None:
    """The engine's state as its own loader reads it (conflicts.engine.serial), written back
    in its own shape; ``None`` (and a problem) if the engine cannot load it. A ``running``
    conflict's hidden cards are dealt again from a fresh shuffle under a new salt, whatever the
    file says they are (R10: ``conflicts.engine.restore``)."""
    try:
        if running:
            data = state_to_data(redealt(raw, system_rng(), new_salt()))
        else:
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
            c.fail(f"{where}.pid", f"{shown(pid)} is the pid of two hands")
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
            c.fail(f"{path}.{where}", f"must be the pid of a hand, got {shown(pid)}")
    return data if len(c.problems) == before else None


def _plain(c: Checker, value: Any, path: str) -> None:
    """No number beyond the database's whole numbers, no NUL character, in a state."""
    if isinstance(value, dict):
        for key, item in value.items():
            _plain(c, item, name_at(path, str(key)))
    elif isinstance(value, list | tuple):
        for n, item in enumerate(value):
            _plain(c, item, f"{path}[{n}]")
    elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > DB_INT_MAX:
        c.fail(path, f"must be at most {DB_INT_MAX:,} either way, got {shown(value)}")
    elif isinstance(value, str) and "\x00" in value:
        c.fail(path, "must not contain the NUL character (\\u0000)")


def conflict_checked(
    c: Checker,
    obj: dict[str, Any],
    path: str,
    index: int,
    kinds: dict[str, str],
    sessions: set[int],
) -> PlannedConflict:
    """A conflict the schema has checked the shape of: its references, and its states."""
    phase, version, session = obj["phase"], obj["version"], obj["session"]
    if session is not None and session not in sessions:
        c.fail(f"{path}.session", f"there is no session {session} in sessions")
    previous = obj["previous"]
    if previous is not None and previous >= index:
        wanted = f"must be the place of an earlier conflict (0–{index - 1}), got {previous}"
        c.fail(f"{path}.previous", wanted if index else "the first conflict has no previous one")
        previous = None
    # R10 (issue 28): a conflict still being played comes back with its hidden cards dealt
    # again. Its state says whether it is (a file whose phase says otherwise is refused below).
    raw = obj["state"]
    running = (raw.get("phase") if isinstance(raw, dict) else phase) not in Conflict.OVER
    state = _state(c, obj["state"], f"{path}.state", running=running)
    pids: list[str] = []
    hand_kinds: dict[str, str] = {}
    if state is not None:
        pids = [p["pid"] for p in state["participants"]]
        hand_kinds = {p["pid"]: p["kind"] for p in state["participants"]}
        if state["phase"] != phase:
            c.fail(f"{path}.phase", f"is {shown(phase)}, but the state's phase is "
                   f"{shown(state['phase'])}")  # fmt: skip

    seats: list[tuple[str, str | None, str]] = []
    for n, seat in enumerate(obj["seats"]):
        where = f"{path}.seats[{n}]"
        pid, key = seat["pid"], seat["character"]
        if pid in (p for p, _, _ in seats):
            c.fail(f"{where}.pid", f"{shown(pid)} has two seats")
            continue
        if state is not None and pid not in pids:
            c.fail(f"{where}.pid", f"{shown(pid)} is not a hand in the state")
        if key is not None and key not in kinds:
            c.fail(f"{where}.character", f"no character has the key {shown(key)}")
        hand = hand_kinds.get(pid)
        if hand == "stud" and key is not None:
            c.fail(f"{where}.character", "the Dealer's stud hand has no character")
        elif hand in ("pc", "npc") and key is None:
            c.fail(f"{where}.character", f"the hand {shown(pid)} is a character's: name it")
        elif hand in ("pc", "npc") and key in kinds and kinds[key] != hand:
            label = Character.Kind(hand).label.lower()
            c.fail(f"{where}.character", f"the hand {shown(pid)} is a {label}'s")
        seats.append((pid, key, seat["goal"]))
    if state is not None:
        missing = [pid for pid in pids if pid not in {p for p, _, _ in seats}]
        if missing:
            c.fail(f"{path}.seats", f"the state's hands {', '.join(missing)} have no seat")

    timeline: list[PlannedLine] = []
    for n, raw in enumerate(obj["timeline"]):
        where = f"{path}.timeline[{n}]"
        line = line_checked(c, raw, where)
        line.seq, line.version = raw["seq"], raw["version"]
        if line.seq in (t.seq for t in timeline):
            c.fail(f"{where}.seq", f"line {line.seq} is given twice")
        timeline.append(line)

    snapshots: list[tuple[int, dict[str, Any]]] = []
    # The replay: optional; a running conflict's starts again at its restore (its states would
    # hold hands no file may choose).
    for n, snap in enumerate([] if running else obj.get("snapshots", [])):
        where = f"{path}.snapshots[{n}]"
        at = snap["version"]
        if at > version:
            c.fail(f"{where}.version", f"must be {range_words(0, version)}, got {shown(at)}")
            continue
        if at in (v for v, _ in snapshots):
            c.fail(f"{where}.version", f"version {at} is given twice")
            continue
        snap_state = _state(c, snap["state"], f"{where}.state")
        if snap_state is not None:
            snapshots.append((at, snap_state))

    return PlannedConflict(
        values={
            "title": " ".join(obj["title"].split()),
            "phase": phase,
            "version": version,
            "state": state or {},
            "abandoned_at": c.moment(obj.get("abandoned_at"), f"{path}.abandoned_at"),
        },
        created_at=c.moment(obj.get("created_at"), f"{path}.created_at"),
        session=session,
        previous=previous,
        seats=seats,
        timeline=timeline,
        snapshots=snapshots,
        redealt=running and state is not None and state["deck"] is not None,
    )
