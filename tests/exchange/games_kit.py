"""Games in every phase at a campaign's table, for the campaign file's tests (issue 37): each
game's engine walked with seeded random moves (the games' own test kits) until it reaches the
phase asked for, written into a row made by the game's service, its seats the kit's pids."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from django.contrib.auth.models import User

from campaigns.game_sessions import session_start
from cards.errors import IllegalMove
from fights.engine import action_deck as fe
from fights.engine.serial import state_from_data as fight_from_data
from fights.engine.serial import state_to_data as fight_to_data
from fights.models import Fight
from fights.services import fight_create
from gunfighter.engine.serial import state_to_data as gunfight_to_data
from gunfighter.models import Gunfight, GunfightSeat
from saloon.engine.serial import state_to_data as saloon_to_data
from saloon.models import Saloon, SaloonSeat
from showdown.engine import game as shg
from showdown.engine.state import Phase as ShowPhase
from showdown.engine.state import state_to_data as showdown_to_data
from showdown.models import Showdown, ShowdownSeat
from tests.gunfighter import kit as gun_kit
from tests.kit import new_game
from tests.saloon import kit as saloon_kit
from tests.showdown import kit as showdown_kit

PHASES = {
    "fights": ("quickness", "countdown", "sleeve", "over"),
    "gunfights": ("choose", "prepare", "showdown", "over"),
    "saloons": ("archetypes", "discard", "play", "duel", "over"),
    "showdowns": ("play", "threat", "bluff", "fight", "event", "over"),
}


def _first(states: Sequence[Any], wanted: Callable[[Any], bool]) -> Any | None:
    return next((s for s in states if wanted(s)), None)


def saloon_state(phase: str) -> Any:
    for seed in range(200):
        rng = random.Random(seed)
        start = saloon_kit.table(3, seed, pick=phase == "archetypes")
        states = saloon_kit.play_out(start, rng)
        found = _first(states, lambda s: s.phase.value == phase and not s.unwanted)
        if found is not None:
            return found
    raise AssertionError(f"no saloon game reached {phase}")


def showdown_state(phase: str) -> Any:
    """Saloon Showdown in ``phase``; a bluff and an event (rain) with one count of two in."""
    for seed in range(200):
        rng = random.Random(seed)
        state = showdown_kit.table(2, events=phase == "event")
        clock = [0]
        for _ in range(400):
            if _wanted_showdown(state, phase):
                return state
            if state.phase == ShowPhase.OVER:
                break
            try:
                state = shg.apply(state, showdown_kit.random_move(state, rng, clock), rng).state
            except IllegalMove:
                continue
    raise AssertionError(f"no Saloon Showdown reached {phase}")


def _wanted_showdown(state: Any, phase: str) -> bool:
    if state.phase.value != phase:
        return False
    if phase == "bluff":
        return len(state.bluff.counts) == 1
    if phase == "event":
        return state.event.name in ("rain", "robbery") and len(state.event.counts) == 1
    return True


def gunfight_state(phase: str) -> Any:
    for seed in range(50):
        rng = random.Random(seed)
        states = gun_kit.play_out(gun_kit.table(2, seed, choose=True), rng)
        found = _first(states, lambda s: s.phase.value == phase)
        if found is not None:
            return found
    raise AssertionError(f"no Gunfighter game reached {phase}")


def fight_state(start: fe.FightState, phase: str, seed: int = 3) -> fe.FightState:
    """A fight walked from ``start``: "quickness" (round 2, after a round), "countdown" (cards
    in hands, some played), "sleeve" (between rounds, a card up a sleeve), "over"."""
    rng = random.Random(seed)
    state = start
    for _ in range(400):
        if _wanted_fight(state, phase):
            return state
        state = fe.apply(state, _fight_move(state, rng, sleeve=phase == "sleeve"), rng).state
    raise AssertionError(f"no fight reached {phase}")


def _wanted_fight(state: fe.FightState, phase: str) -> bool:
    sleeves = any(c.sleeve is not None for c in state.combatants)
    if phase == "countdown":
        return state.phase == fe.Phase.COUNTDOWN and bool(state.table) and fe.up(state) is not None
    if phase == "sleeve":
        return state.phase == fe.Phase.QUICKNESS and sleeves
    if phase == "quickness":
        return state.phase == fe.Phase.QUICKNESS and state.round == 2
    return state.phase == fe.Phase.OVER and state.round >= 2


def _fight_move(state: fe.FightState, rng: random.Random, *, sleeve: bool) -> Any:
    if state.phase == fe.Phase.QUICKNESS:
        if state.round >= 3:
            return fe.EndFight()
        waiting = fe.quickness_needed(state)
        if not waiting:
            return fe.DealRound()
        c = waiting[0]
        return fe.Guts(c.cid, 9) if c.surprised else fe.Quickness(c.cid, rng.randint(6, 14))
    current = fe.up(state)
    if current is None:
        return fe.EndRound()
    cid = current[0].cid
    if sleeve and current[0].sleeve is None:
        return fe.Sleeve(cid)
    return fe.Act(cid, "shoots") if rng.random() < 0.7 else fe.Pass(cid)


# --- Rows -----------------------------------------------------------------------------------


def seat_kit_pids(
    model: Any, row: Any, fk: str, pids: Sequence[str], users: Sequence[User]
) -> None:
    model.objects.filter(**{fk: row}).delete()
    model.objects.bulk_create(
        model(**{fk: row}, user=user, pid=pid, position=n)
        for n, (pid, user) in enumerate(zip(pids, users, strict=False))
    )


def game_row(kind: str, phase: str, campaign: Any, users: Sequence[User], **more: Any) -> Any:
    """A game of ``kind`` in ``phase`` at ``campaign``, ``users`` in its seats (the Dealer
    first); a fight's combatants are ``more["characters"]``."""
    dealer = users[0]
    row: Any
    data: Any
    seats: Any
    if kind == "saloons":
        state: Any = saloon_state(phase)
        row = new_game("saloon", campaign=campaign, actor=dealer, players=list(users[:3]))
        data, seats = saloon_to_data(state), (Saloon, SaloonSeat, "saloon")
        pids = [p.pid for p in state.players]
    elif kind == "showdowns":
        state = showdown_state(phase)
        row = new_game(
            "showdown", campaign=campaign, actor=dealer, players=list(users[:2]),
            dealer=dealer.pk, simple=state.options.simple, roulette=state.options.roulette,
            events=state.options.events,
        )  # fmt: skip
        data, seats, pids = (
            showdown_to_data(state),
            (Showdown, ShowdownSeat, "showdown"),
            state.pids,
        )
    elif kind == "gunfights":
        state = gunfight_state(phase)
        row = new_game("gunfighter", campaign=campaign, actor=dealer, players=list(users[:2]))
        data, seats = gunfight_to_data(state), (Gunfight, GunfightSeat, "gunfight")
        pids = [g.pid for g in state.gunfighters]
    else:
        session = more.get("session") or session_start(campaign=campaign, actor=dealer)
        title, seed = more.get("title", "Shootout"), more.get("seed", 3)
        fight = fight_create(campaign=campaign, actor=dealer, session=session, title=title,
                             characters=more["characters"], rng=random.Random(seed))  # fmt: skip
        state = fight_state(fight_from_data(fight.state), phase, seed)
        Fight.objects.filter(pk=fight.pk).update(
            state=fight_to_data(state), phase=state.phase.value, round=state.round, version=7
        )
        return Fight.objects.get(pk=fight.pk)
    model, seat_model, fk = seats
    model.objects.filter(pk=row.pk).update(state=data, phase=_phase(state), version=5)
    seat_kit_pids(seat_model, row, fk, pids, users)
    return model.objects.get(pk=row.pk)


def _phase(state: Any) -> str:
    return str(state.phase.value)


def with_state(row: Any, data: dict[str, Any]) -> Any:
    """A copy of ``row`` (same title, seats and lines) holding ``data``: two games that differ
    only in what their states say."""
    model = type(row)
    seats = list(row.seats.all())
    lines = list((row.events if isinstance(row, Fight) else row.lines).all())
    fk = "fight" if isinstance(row, Fight) else model.__name__.lower()
    copy = model.objects.get(pk=row.pk)
    copy.pk = None
    copy.state = data
    copy.save()
    for seat in seats:
        seat.pk = None
        setattr(seat, fk, copy)
    type(seats[0]).objects.bulk_create(seats)
    for line in lines:
        line.pk = None
        setattr(line, fk, copy)
    type(lines[0]).objects.bulk_create(lines)
    model.objects.filter(pk=copy.pk).update(created_at=row.created_at)
    return copy
