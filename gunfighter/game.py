"""The Gunfighter (seed 003) at the table: its declaration (``tables.game.Game``). The rules
live in ``gunfighter.engine``; the decks, pistols and mats stay on the table. Every move is one
Django form (``MOVES``); every screen is made in ``gunfight_screen`` from the engine's one
per-viewer view (``gunfighter.engine.game.visible``, GF10)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from django import forms
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _

from gunfighter.codec import GunfighterCodec
from gunfighter.engine import game as g
from gunfighter.engine import state as s
from gunfighter.engine.serial import state_from_data, state_to_data
from gunfighter.models import Gunfight, GunfightLine, GunfightMoveKey, GunfightSeat
from gunfighter.rulings import RULINGS
from tables.clock import LEAD_MS, Clock, now_ms
from tables.forms import GameMove, NewGameForm, plain
from tables.game import Game
from tables.moves import basis_of
from tables.site import site

CLOCK_LABELS = ("The showdown starts", "Countdown", "Draw! Play your bandolier", "Time! Hands off")


class NewGunfight(NewGameForm):
    """Who saw a western last (the first player if not said); whether everyone agreed to choose
    their decks (GF2)."""

    choose = forms.BooleanField(required=False)
    western = forms.IntegerField(required=False, min_value=1, max_value=2**31 - 1)


class Choose(GameMove):
    deck = forms.CharField(max_length=20, required=False)

    def move(self, pid: str, now_ms: int) -> s.Move:
        return s.ChooseDeck(pid, self.cleaned_data["deck"])


class StartTheClock(GameMove):
    def move(self, pid: str, now_ms: int) -> s.Move:
        # The countdown starts a moment from now, so the stream reaches every phone first.
        return s.StartClock(pid, at_ms=now_ms + LEAD_MS)


class StartTheClockAnyway(StartTheClock):
    """R38: the host starts the clock without waiting for a quiet phone's covert card."""

    host_only = True
    host_refusal = "Only the host starts the clock without waiting for everyone (R38)."

    def move(self, pid: str, now_ms: int) -> s.Move:
        return s.StartClock(pid, at_ms=now_ms + LEAD_MS, anyway=True)


class Mat(GameMove):
    """``hit_<pid>``: the points each gunfighter dealt (blank is 0); ``left``: the cards left in
    the bandolier; ``last``: who dealt the last point, when the damage kills."""

    left = forms.IntegerField(
        min_value=0, max_value=s.BANDOLIER, required=False,
        error_messages=dict.fromkeys(
            ("invalid", "min_value", "max_value"), f"a number from 0 to {s.BANDOLIER}."
        ),
        label="Cards left in your bandolier",
    )  # fmt: skip
    last = forms.CharField(max_length=20, required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        hits = []
        for name in self.data:
            raw = str(self.data.get(name, "")).strip()
            if name.startswith("hit_") and raw:
                if not raw.isdigit() or int(raw) > s.MAX_POINTS:
                    raise forms.ValidationError(
                        f"Damage is a whole number from 0 to {s.MAX_POINTS}."
                    )
                hits.append((name.removeprefix("hit_")[:20], int(raw)))
        data["hits"] = tuple(hits)
        return data

    def move(self, pid: str, now_ms: int) -> s.Move:
        data = self.cleaned_data
        return s.EnterMat(
            pid, now_ms=now_ms, hits=data["hits"], left=data["left"] or 0, last=data["last"]
        )


MOVES: dict[str, type[GameMove]] = {
    "choose": Choose, "random": plain(s.DrawAtRandom), "covert": plain(s.PlayCovert),
    "ready": plain(s.BandolierSet), "clock": StartTheClock, "mat": Mat,
    "takeback": plain(s.TakeBack), "uncovert": plain(s.TakeBackCovert),
    "nocovert": plain(s.NoCovert), "clock-anyway": StartTheClockAnyway,  # R38
}  # fmt: skip


class Gunfighter(Game):
    kind = "gunfighter"
    name = "The Gunfighter"
    players = _("2–6 players")
    blurb = _("a real-time card duel: the app keeps lives, covert cards and the clock")
    order = 20
    missing = "No such gunfight at this table."
    no_seat = "No such gunfighter at this table."
    labels: ClassVar[Mapping[str, str]] = {
        s.Phase.CHOOSE.value: "choosing decks",
        s.Phase.PREPARE.value: "before a showdown",
        s.Phase.SHOWDOWN.value: "the showdown",
    }
    rulings = RULINGS
    model, seat_model, line_model, key_model = Gunfight, GunfightSeat, GunfightLine, GunfightMoveKey
    fk = "gunfight"
    codec = GunfighterCodec
    screens_query = False  # every screen is made from ``screen_row`` alone (issue 38)
    new_form = NewGunfight
    moves = MOVES
    started = "High noon. Draw your six."
    opening = "{actor} calls a gunfight."

    def new_state(
        self, seats: list[tuple[str, str]], data: Mapping[str, Any], pid_of: Mapping[int, str],
        rng: random.Random,
    ) -> tuple[s.GunfightState, Sequence[s.Event]]:  # fmt: skip
        western = pid_of.get(data.get("western") or 0, seats[0][0] if seats else "")
        return g.new_game(seats, western=western, rng=rng, choose=bool(data.get("choose")))

    def apply(self, state: Any, move: Any, rng: random.Random) -> tuple[Any, Sequence[Any]]:
        return g.apply(state, move, rng)

    def load(self, data: Any) -> s.GunfightState:
        return state_from_data(data)

    def dump(self, state: Any) -> Any:
        return state_to_data(state)

    def seat_name(self, state: Any, pid: str) -> str | None:
        return state.gunfighter(pid).name if state.has(pid) else None

    def basis(self, state: Any, pid: str) -> str:
        """That gunfighter, the phase, the showdown, the clock and whose mat is reviewed
        (others' taps in between never make a move stale)."""
        if not state.has(pid):
            return ""
        return basis_of(
            state.phase.value, state.showdown, state.clock_at, g.reviewing(state),
            repr(state.gunfighter(pid)),
        )  # fmt: skip

    def note(self, text: str, pid: str = "") -> s.Event:
        return s.Event(text, pid)

    def lines(self, events: Sequence[Any], actor: User, state: Any) -> list[dict[str, Any]]:
        return [
            {"showdown": state.showdown, "pid": e.pid, "actor": actor, "text": e.text}
            for e in events
        ]

    def screen(self, state: Any, me: str | None, context: Mapping[str, Any]) -> dict[str, Any]:
        return gunfight_screen(state, me, context["proxies"])

    def proxies(self, state: Any, me: str | None) -> list[dict[str, Any]]:
        """GF12: the moves the host may make for each other gunfighter (a phone that is gone)."""
        out = []
        for f in state.gunfighters:
            can = g.visible(state, f.pid)["can"] if f.pid != me else frozenset()
            if can:
                out.append({"pid": f.pid, "name": f.name, "f": f, "can": can})
        return out


GUNFIGHTER = site.register(Gunfighter())


def clock_of(state: s.GunfightState) -> Clock | None:
    if state.clock_at is None:
        return None
    edges = (0, s.COUNTDOWN_MS, s.COUNTDOWN_MS + s.PLAY_MS)
    return Clock(start=state.clock_at, edges=edges, labels=CLOCK_LABELS)


def gunfight_screen(
    state: s.GunfightState, me: str | None, proxies: list[dict[str, Any]]
) -> dict[str, Any]:
    """The Gunfighter's own part of one viewer's screen (``tables.game.Game.view`` makes the
    rest): a seated gunfighter's phone, or a watcher's."""
    view = g.visible(state, me)
    names = {f.pid: f.name for f in state.gunfighters}
    clock = clock_of(state)
    rows = [
        {
            "f": f,
            "colour": s.COLOURS.get(f.deck, ""),
            "hearts": range(f.lives),
            "lost": range(s.LIVES - f.lives),
            "me": f.pid == me,
            "waiting": f.pid in view["waiting"],
            "western": f.pid == state.western,
            "killer": names.get(f.killed_by, ""),
        }
        for f in view["gunfighters"]
    ]
    return {
        "bases": {p: GUNFIGHTER.basis(state, p) for p in (me, *(x["pid"] for x in proxies)) if p},
        # GF12: one "Start the clock" for the host who cannot start it themselves.
        "proxy_clock": next(
            (x["pid"] for x in proxies if "clock" in x["can"] and "clock" not in view["can"]), ""
        ),
        "mine": view["mine"],
        "mine_colour": s.COLOURS.get(view["mine"].deck, "") if view["mine"] else "",
        "can": view["can"],
        "showdown": view["showdown"],
        "rows": rows,
        "others": [f for f in state.gunfighters if f.standing],
        "waiting_names": [names[p] for p in view["waiting"]],
        # R38/R39: before the clock, who it waits for (covert cards) and who starts it.
        "covert_names": [names[p] for p in view["covert_waiting"]],
        "clock_by": names.get(view["starter"], "") if view["clock_next"] else "",
        "reviewing": names.get(view["reviewing"], ""),
        "western": names[state.western],
        "winner": names.get(view["winner"], ""),
        "free_decks": [(d, s.COLOURS[d]) for d in view["free_decks"]],
        "rebuild_now": view["rebuild_now"],
        "covert_discard": view["covert_discard"],
        "clock": clock,
        # The review waits, hidden, for the clock to hit zero on this phone (table_clock.js).
        "clock_running": clock is not None and not clock.over(now_ms()),
        "bandolier": s.BANDOLIER,
        "max_points": s.MAX_POINTS,
        "story": story(state),
    }


def story(state: s.GunfightState) -> list[dict[str, Any]]:
    """Who shot whom, showdown by showdown."""
    names = {f.pid: f.name for f in state.gunfighters}
    out = []
    for sd in state.history:
        shots = [
            f"{names[h.shooter]} shot themself for {h.points}"
            if h.shooter == h.target
            else f"{names[h.shooter]} shot {names[h.target]} for {h.points}"
            for h in sd.hits
        ]
        fallen = [
            f"{names[v]} fell to {names[k]}"
            if k and k != v
            else f"{names[v]} fell by their own card"
            for v, k in sd.fallen
        ]
        out.append({"number": sd.number, "shots": shots or ["Nobody was hit."], "fallen": fallen})
    return out
