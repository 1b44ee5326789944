"""Reads for The Gunfighter's screens. ``gunfight_view`` is the one place a screen's context is
made, from the engine's one per-viewer view (``gunfighter.engine.game.visible``, GF10)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Count, Exists, OuterRef
from django.urls import reverse

from campaigns.models import Campaign, Membership
from gunfighter.engine import game as g
from gunfighter.engine.serial import state_from_data
from gunfighter.engine.state import (
    BANDOLIER,
    COLOURS,
    COUNTDOWN_MS,
    LIVES,
    MAX_POINTS,
    PLAY_MS,
    GunfightState,
)  # fmt: skip
from gunfighter.models import Gunfight, GunfightLine, GunfightSeat
from gunfighter.services import seat_basis
from tables.clock import Clock, now_ms
from tables.errors import readable

CLOCK_LABELS = ("The showdown starts", "Countdown", "Draw! Play your bandolier", "Time! Hands off")


@dataclass(frozen=True)
class Game:
    """A game in a table's list: how many play, and whether the viewer has a seat."""

    gunfight: Gunfight
    players: int
    mine: bool


def gunfights_of(campaign: Campaign, user: User | None = None) -> list[Game]:
    """The table's gunfights, newest first, each with its number of gunfighters and whether
    ``user`` has a seat in it (two annotations: one query)."""
    viewer = user.pk if user is not None else 0
    rows = Gunfight.objects.filter(campaign=campaign).annotate(
        n=Count("seats"),
        seated=Exists(GunfightSeat.objects.filter(gunfight=OuterRef("pk"), user_id=viewer)),
    )
    return [Game(gunfight=row, players=row.n, mine=row.seated) for row in rows]


def lobby_members(campaign: Campaign) -> list[Membership]:
    """Who sits at the table, the host first, then in the order they came."""
    members = Membership.objects.filter(campaign=campaign).select_related("user")
    return sorted(members, key=lambda m: (not m.is_dealer, m.joined_at, m.pk))


def seat_of(gunfight: Gunfight, user: User | None) -> GunfightSeat | None:
    if user is None or not user.is_authenticated:
        return None
    return GunfightSeat.objects.filter(gunfight=gunfight, user=user).first()


def clock_of(state: GunfightState) -> Clock | None:
    if state.clock_at is None:
        return None
    edges = (0, COUNTDOWN_MS, COUNTDOWN_MS + PLAY_MS)
    return Clock(start=state.clock_at, edges=edges, labels=CLOCK_LABELS)


def gunfight_view(gunfight: Gunfight, user: User | None) -> dict[str, Any]:
    """The context of one viewer's screen (a seated gunfighter's phone, or a watcher's)."""
    state = readable(state_from_data, gunfight.state)  # 409 if it cannot be read
    seat = seat_of(gunfight, user)
    me = seat.pid if seat is not None else None
    view = g.visible(state, me)
    names = {f.pid: f.name for f in state.gunfighters}
    clock = clock_of(state)
    rows = []
    for f in view["gunfighters"]:
        rows.append(
            {
                "f": f,
                "colour": COLOURS.get(f.deck, ""),
                "hearts": range(f.lives),
                "lost": range(LIVES - f.lives),
                "me": f.pid == me,
                "waiting": f.pid in view["waiting"],
                "western": f.pid == state.western,
                "killer": names.get(f.killed_by, ""),
            }
        )
    return {
        "gunfight": gunfight,
        "campaign": gunfight.campaign,
        "version": gunfight.version,
        "move_base": _move_base(gunfight),
        "scope_field": "pid",
        "bases": {me: seat_basis(state, me)} if me else {},
        "me": me,
        "mine": view["mine"],
        "mine_colour": COLOURS.get(view["mine"].deck, "") if view["mine"] else "",
        "can": view["can"],
        "phase": view["phase"],
        "is_over": view["phase"] == "over",
        "showdown": view["showdown"],
        "rows": rows,
        "others": [f for f in state.gunfighters if f.standing],
        "waiting_names": [names[p] for p in view["waiting"]],
        "reviewing": names.get(view["reviewing"], ""),
        "western": names[state.western],
        "winner": names.get(view["winner"], ""),
        "free_decks": [(d, COLOURS[d]) for d in view["free_decks"]],
        "rebuild_now": view["rebuild_now"],
        "covert_discard": view["covert_discard"],
        "clock": clock,
        # The review waits, hidden, for the clock to hit zero on this phone (table_clock.js).
        "clock_running": clock is not None and not clock.over(now_ms()),
        "bandolier": BANDOLIER,
        "max_points": MAX_POINTS,
        "story": story(state),
        "lines": list(GunfightLine.objects.filter(gunfight=gunfight).order_by("-seq")[:60]),
    }


def _move_base(gunfight: Gunfight) -> str:
    return reverse(
        "gunfighter:move",
        kwargs={"slug": gunfight.campaign.slug, "gunfighter_id": gunfight.pk, "action": "ACTION"},
    )


def story(state: GunfightState) -> list[dict[str, Any]]:
    """Who shot whom, showdown by showdown (the seed's "the app writes" of issue 31)."""
    names = {f.pid: f.name for f in state.gunfighters}
    out = []
    for s in state.history:
        shots = [
            f"{names[h.shooter]} shot themself for {h.points}"
            if h.shooter == h.target
            else f"{names[h.shooter]} shot {names[h.target]} for {h.points}"
            for h in s.hits
        ]
        fallen = [
            f"{names[v]} fell to {names[k]}"
            if k and k != v
            else f"{names[v]} fell by their own card"
            for v, k in s.fallen
        ]
        out.append({"number": s.number, "shots": shots or ["Nobody was hit."], "fallen": fallen})
    return out
