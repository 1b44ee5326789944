"""The state to and from JSON-able data (the table row's ``state``). ``state_from_data``
refuses what it cannot read (``ValueError``/``KeyError``/``TypeError``): the app answers 409."""

from __future__ import annotations

from dataclasses import asdict, fields
from typing import Any

from gunfighter.engine.state import Gunfighter, GunfightState, Hit, Phase, Showdown


def state_to_data(state: GunfightState) -> dict[str, Any]:
    data = asdict(state)
    data["phase"] = state.phase.value
    return data


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"not a whole number: {value!r}")
    return value


def _gunfighter(data: dict[str, Any]) -> Gunfighter:
    known = {f.name for f in fields(Gunfighter)}
    if set(data) - known:
        raise KeyError(f"unknown fields {sorted(set(data) - known)}")
    g = Gunfighter(**data)
    for name in ("lives", "covert", "stock", "bandolier", "pocket", "discard", "out"):
        if _int(getattr(g, name)) < 0:
            raise ValueError(f"{name} below 0")
    return g


def _hit(data: Any) -> Hit:
    target, shooter, points = data["target"], data["shooter"], _int(data["points"])
    return Hit(str(target), str(shooter), points)


def state_from_data(data: dict[str, Any]) -> GunfightState:
    history = tuple(
        Showdown(
            _int(s["number"]),
            tuple(_hit(h) for h in s["hits"]),
            tuple((str(v), str(k)) for v, k in s["fallen"]),
        )
        for s in data["history"]
    )
    clock = data["clock_at"]
    state = GunfightState(
        phase=Phase(data["phase"]),
        gunfighters=tuple(_gunfighter(g) for g in data["gunfighters"]),
        western=str(data["western"]),
        showdown=_int(data["showdown"]),
        clock_at=None if clock is None else _int(clock),
        covert_discard=_int(data["covert_discard"]),
        covert_stock=_int(data["covert_stock"]),
        history=history,
        hits=tuple(_hit(h) for h in data["hits"]),
        winner=str(data["winner"]),
        rebuilt=_int(data.get("rebuilt", 0)),
    )
    if not state.has(state.western):
        raise ValueError("who saw a western last is not at the table")
    return state
