"""Saloon Showdown in a campaign file (issue 37): what a file may carry of a game, and how it
comes back. Pure: no Django.

The only values the app hides are the counts entered for a bluff or for an event (rain,
robbery) before every count is in (SS15: ``visible_state``): who has entered one is public (the
timeline says so), the number is its player's alone. So:

- ``sealed``: the state as a file writes it: each count's number is left out; who entered one
  stays, in ``counted``.
- ``unsealed``: the state a restore writes: no count is in (a file may carry none, and one that
  did could choose a bluff's outcome); whoever had entered one enters it again, and the words of
  the timeline line that says so. A file's ``counts`` are ignored, whatever they hold.
"""

from __future__ import annotations

import copy
from typing import Any

from .state import state_from_data, state_to_data

HELD = ("bluff", "event")  # where counts wait to be shown


def sealed(data: dict[str, Any]) -> dict[str, Any]:
    """The state as a file writes it (see the module docstring)."""
    out = state_to_data(state_from_data(data))
    for name in HELD:
        held = out[name]
        if held is not None:
            held["counted"] = [pid for pid, _ in held["counts"]]
            held["counts"] = []
    return out


def unsealed(data: Any) -> tuple[dict[str, Any], str]:
    """The state a restore writes and the words of its timeline line ("" when no count was
    waiting); raises what the engine's loader raises on a state it cannot read."""
    if not isinstance(data, dict):
        raise TypeError("a state is an object")
    filled = copy.deepcopy(data)
    waiting: list[str] = []
    for name in HELD:
        held = filled.get(name)
        if isinstance(held, dict):
            counted = held.pop("counted", [])
            waiting += [str(pid) for pid in counted] if isinstance(counted, list) else []
            waiting += [str(pair[0]) for pair in held.get("counts") or () if pair]
            held["counts"] = []
    state = state_from_data(filled)
    names = {p.pid: p.name for p in state.players}
    if any(pid not in names for pid in waiting):
        raise ValueError("a count is entered by someone not at the table")
    if not waiting:
        return state_to_data(state), ""
    who = sorted(set(waiting), key=list(names).index)
    return state_to_data(state), (
        "Restored from a campaign file while counts were being entered. No file carries a "
        "count before it is shown (SS15): "
        + ", ".join(names[pid] for pid in who)
        + (" enters theirs again." if len(who) == 1 else " enter theirs again.")
    )
