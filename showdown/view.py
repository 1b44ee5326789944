"""Saloon Showdown's screens. ``showdown_screen`` is the one place a screen's own context is
made, from ``visible_state`` (showdown.engine.game) for that viewer: a bullet count (or an
event's count) reaches a screen only as its owner's own, until all are in (SS15)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from showdown.engine import game as g
from showdown.engine.state import (
    EVENT_NAMES,
    EVENTS,
    NOISES,
    PISTOLS,
    ZONES,
    Kind,
    Phase,
    State,
)
from tables.clock import Clock, now_ms
from tables.moves import basis_of

VIA_LABELS = (_("Turn your cards on “Via!” in"), _("Via!"))
ZONE_NAMES = {
    "head": _("the head"),
    "arm": _("the arm"),
    "chest": _("the chest"),
    "leg": _("the leg"),
}


def seat_basis(state: State, pid: str) -> str:
    """What a move of seat ``pid`` is based on, as that seat sees it (``visible_state``: the
    fingerprint travels in its forms, and a hash of a 0–9 count is no secret): the phase, whose
    turn, the dealer token, that player's money, the threat, the bluff's players and their own
    count, the fight's kind, gunmen, "Via!" and their own readiness, the event. Not what others
    do meanwhile — their counts, their Ready, a shot claimed — so taps made at once all arrive
    (a late shot is then refused by the engine, which keeps the first by the server's clock)."""
    if not state.has(pid):
        return ""
    view = g.visible_state(state, pid)
    seen, fight, event = view.state, view.state.fight, view.state.event
    return basis_of(
        seen.phase.value, seen.turn, seen.dealer, repr(seen.player(pid)), repr(seen.threat),
        repr(seen.bluff), view.mine,
        None if fight is None else (fight.kind.value, fight.members, fight.go_at,
                                    pid in fight.ready),
        None if event is None else (event.name, event.drawer),
    )  # fmt: skip


def _names(state: State, pids: tuple[str, ...] | list[str]) -> list[dict[str, str]]:
    return [{"pid": p, "name": state.player(p).name} for p in pids]


def showdown_screen(full: State, me: str | None) -> dict[str, Any]:
    """Saloon Showdown's own part of one viewer's screen (``tables.game.Game.view`` makes the
    rest): the seat ``me``'s view of the ``full`` state (None: a watcher, or the shared screen).
    From here on, only the scrubbed state is read."""
    view = g.visible_state(full, me)
    state = view.state
    name = {p.pid: p.name for p in state.players}
    context: dict[str, Any] = {
        "mine": state.player(me) if me else None,
        "turn": {"pid": state.turn, "name": name[state.turn]},
        "my_turn": bool(me) and me == state.turn and state.phase == Phase.PLAY,
        "dealer": {"pid": state.dealer, "name": name[state.dealer]},
        "options": state.options,
        "players": [
            {
                "pid": p.pid,
                "name": p.name,
                "loot": p.loot,
                "bounty": p.bounty,
                "wounds": p.wounds,
                "score": p.score,
                "me": p.pid == me,
                "turn": p.pid == state.turn,
                "dealer": p.pid == state.dealer,
                "jailed": p.pid in state.jailed,  # R37: skips their next turn
            }
            for p in state.players
        ],
        "others": [{"pid": p.pid, "name": p.name} for p in state.players if p.pid != me],
        "reminder": state.reminder == me and bool(me),
        "reminder_name": name.get(state.reminder, ""),
        "end_after": name.get(state.end_after, ""),
        "trigger": name.get(state.trigger, ""),
        "winner": name.get(state.winner, ""),
        "standings": g.standings(state) if state.over else [],
        "pistols": PISTOLS,
        "zones": [(z, ZONE_NAMES[z]) for z in ZONES],
        "noises": NOISES,
        "counted": [name[p] for p in view.counted],
        "i_counted": bool(me) and me in view.counted,
        "my_count": view.mine,
    }
    context.update(_threat(state, me, name))
    context.update(_fight(state, me, name))
    context.update(_event(state, name))
    return context


def proxies(full: State, me: str | None) -> list[dict[str, Any]]:
    """SS19: for the host, each other player who must act now, and what (``g.pending``, read
    from the full state: whether a count is in is public, the count is never read here). Their
    forms carry no basis (a seat's basis may hash its own count): a stale one is refused."""
    out = []
    for p in full.players:
        can = g.pending(full, p.pid) if p.pid != me else frozenset()
        if can:
            others = _names(full, [q for q in full.pids if q != p.pid])
            threat, fight = full.threat, full.fight
            shoot = fight.members if fight else ()
            if fight is not None and fight.kind == Kind.TRIELLO and p.pid != fight.desperado:
                shoot = (fight.desperado,)
            out.append({
                "pid": p.pid, "name": p.name, "can": can, "others": others,
                "away": _names(full, [q for q in full.pids
                                      if threat is None or q not in (p.pid, threat.threatener)]),
                "horse_target": threat is not None and not threat.escaped
                and len(full.players) > 2,
                "shoot": _names(full, [q for q in shoot if q != p.pid]),
            })  # fmt: skip
    return out


def _threat(state: State, me: str | None, name: dict[str, str]) -> dict[str, Any]:
    threat, bluff = state.threat, state.bluff
    out: dict[str, Any] = {"threat": None, "bluff": None}
    if threat is not None:
        out["threat"] = {
            "threatener": name[threat.threatener], "target": name[threat.target],
            "target_pid": threat.target, "pistol": threat.pistol, "forced": threat.forced,
            "standoff": [name[p] for p in threat.standoff], "first": name[threat.first],
            "escaped": bool(threat.escaped),
        }  # fmt: skip
        involved = (threat.threatener, threat.first, *threat.standoff, *threat.knocked)  # R37
        out["i_am_threatened"] = state.phase == Phase.THREAT and me == threat.target
        out["may_standoff"] = (
            state.phase == Phase.THREAT and bool(me) and me not in involved
            and not state.options.simple and len(threat.standoff) + 1 < len(PISTOLS)
        )  # fmt: skip
        out["may_close"] = state.phase == Phase.THREAT and me == threat.first and threat.standoff
        fight = state.fight
        out["may_bottle"] = (
            bool(me) and me != threat.threatener
            and not (fight is not None and (fight.kind == Kind.TRIELLO or fight.claim))
        )  # fmt: skip
        chain = fight.members if fight else (threat.threatener, *threat.standoff)
        out["bottle_hits"] = _names(state, [p for p in chain if p != me]) if threat.standoff else []
        out["horse_targets"] = [
            {"pid": p.pid, "name": p.name}
            for p in state.players
            if p.pid not in (me, threat.threatener)
        ]
    if bluff is not None:
        counting = (
            (bluff.threatener,) if state.options.roulette else (bluff.threatener, bluff.target)
        )
        out["bluff"] = {"threatener": name[bluff.threatener], "target": name[bluff.target]}
        out["i_count_bullets"] = me in counting
    return out


def _fight(state: State, me: str | None, name: dict[str, str]) -> dict[str, Any]:
    fight = state.fight
    if fight is None:
        return {"fight": None}
    now = now_ms()
    claim = fight.claim
    targets = [p for p in fight.members if p != me]
    if fight.kind == Kind.TRIELLO and me != fight.desperado:
        targets = [fight.desperado]
    return {
        "fight": {
            "kind": fight.kind.value,
            "members": [name[p] for p in fight.members],
            "i_fight": me in fight.members,
            "i_am_ready": me in fight.ready,
            "waiting": [name[p] for p in fight.members if p not in fight.ready],
            "go_at": fight.go_at,
            # "Via!" on every phone at once (the kit's table clock), the Fire form revealed then.
            "clock": None
            if fight.go_at is None
            else Clock(start=fight.go_at, edges=(0,), labels=VIA_LABELS),
            "go_now": fight.go_at is not None and now >= fight.go_at,
            "claim": None
            if claim is None
            else {
                "shooter": name[claim.shooter],
                "target": name[claim.target],
                "target_pid": claim.target,
                "pistol": claim.pistol,
                "zone": ZONE_NAMES.get(claim.zone, claim.zone),
                "noise": claim.noise,
                "law": claim.law,
            },
            "disputed": fight.disputed,
            "desperado": name.get(fight.desperado, ""),
            "referee": name.get(fight.referee, ""),
            "targets": _names(state, targets),
            "one_target": len(targets) == 1,
            "i_judge": claim is not None and me == claim.target and not fight.disputed,
            "i_settle": fight.disputed and me == state.dealer,
        }
    }


def _event(state: State, name: dict[str, str]) -> dict[str, Any]:
    event = state.event
    out: dict[str, Any] = {
        "event": None,
        "events_left": [
            (e, EVENT_NAMES[e]) for e in EVENTS if e not in state.events_seen
        ] if state.options.events and not state.over else [],
    }  # fmt: skip
    if event is not None:
        out["event"] = {"name": event.name, "title": EVENT_NAMES[event.name],
                        "drawer": name[event.drawer], "drawer_pid": event.drawer}  # fmt: skip
        out["noon_fighters"] = _names(state, g.noon_fighters(state))
        out["turkey_shooters"] = _names(state, [p for p in state.pids if p != event.drawer])
    return out
