"""The Gunfighter's rules as the app keeps them (seed 003): ``new_game``, ``apply`` (a move to
a new state and the timeline's events, or ``IllegalMove`` in plain words) and ``visible`` (the
one per-viewer view). Randomness is injected (``rng``), time is given by the moves (the server's
clock): no clock, no globals here. Readings GF1–GF12: gunfighter/rulings.py, with the team's
R38 (covert cards after the bandoliers; the clock waits for every covert card or "no covert
card", the host may start it anyway; a kill eliminates after the reviews) and R39 (whoever saw a
western last starts the clock and reviews first, every showdown)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from cards.errors import IllegalMove
from gunfighter.engine.state import (
    BANDOLIER,
    COLOURS,
    COUNTDOWN_MS,
    COVERT_CARDS,
    COVERT_HAND,
    DECK_SIZE,
    DECKS,
    MAX_PLAYERS,
    MAX_POINTS,
    MIN_PLAYERS,
    PLAY_MS,
    POCKET_MAX,
    BandolierSet,
    ChooseDeck,
    DrawAtRandom,
    EnterMat,
    Event,
    Gunfighter,
    GunfightState,
    Hit,
    Move,
    NoCovert,
    Phase,
    PlayCovert,
    Showdown,
    StartClock,
    TakeBack,
    TakeBackCovert,
)

Outcome = tuple[GunfightState, tuple[Event, ...]]


def new_game(
    seats: Sequence[tuple[str, str]], *, western: str, rng: random.Random, choose: bool = False
) -> Outcome:
    """A table of ``seats`` (pid, name), clockwise. Decks dealt at random (the seed's first
    way), or chosen (``choose``: the second way, "if all players agree", GF2). Each takes three
    lives and five covert cards."""
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise IllegalMove(f"The Gunfighter is for {MIN_PLAYERS} to {MAX_PLAYERS} gunfighters.")
    if len({pid for pid, _ in seats}) != len(seats):
        raise IllegalMove("Each gunfighter sits at the table once.")
    if western not in {pid for pid, _ in seats}:
        raise IllegalMove("Say who saw a western last: one of the gunfighters.")
    dealt = COVERT_HAND * len(seats)
    state = GunfightState(
        phase=Phase.CHOOSE,
        gunfighters=tuple(Gunfighter(pid, name) for pid, name in seats),
        western=western,
        covert_stock=COVERT_CARDS - dealt,
    )
    events = [
        Event(
            f"{len(seats)} gunfighters meet at high noon. Each takes three lives and is dealt "
            f"five covert cards; {state.gunfighter(western).name} saw a western last."
        )
    ]
    if choose:
        events.append(Event("Each gunfighter chooses a character deck (everyone agreed)."))
        return state, tuple(events)
    return _deal_at_random(state, rng, events)


def _deal_at_random(state: GunfightState, rng: random.Random, events: list[Event]) -> Outcome:
    """The seed's first way, done by the app: one card of each deck, shuffled, one each."""
    decks = list(DECKS)
    rng.shuffle(decks)
    gunfighters = tuple(replace(g, deck=d) for g, d in zip(state.gunfighters, decks, strict=False))
    state = replace(state, gunfighters=gunfighters)
    events.append(Event("The app deals the character decks at random."))
    events += [Event(f"{g.name} plays the {_deck(g.deck)}.", g.pid) for g in gunfighters]
    return _next_showdown(state, events)


def _deck(deck: str) -> str:
    return f"{deck} ({COLOURS[deck]})"


def apply(state: GunfightState, move: Move, rng: random.Random | None = None) -> Outcome:
    """One move; ``IllegalMove`` in plain words when it is not allowed now (nothing changes).
    GF11: a mat keeps the table as it was before it (``before``); any other move forgets it."""
    if isinstance(move, TakeBack):
        return _take_back(state, move.pid)
    after, events = _apply(state, move, rng)
    return replace(after, before=state if isinstance(move, EnterMat) else None), events


def _take_back(state: GunfightState, pid: str) -> Outcome:
    """GF11: back to before ``pid``'s mat of this showdown; the mats entered after it are
    reviewed again too. Allowed to its gunfighter even if it eliminated them or ended the game,
    until the table's next move."""
    if not state.has(pid):
        raise IllegalMove("Only the gunfighters at this table play.")
    level, again = state.before, []
    while level is not None:
        again.append(reviewing(level))
        if again[-1] == pid:
            break
        level = level.before
    name = state.gunfighter(pid).name
    if level is None:
        raise IllegalMove(
            f"Nothing of {name}'s to take back: a mat can be taken back only until the table's "
            "next move after the review."
        )
    later = [state.gunfighter(p).name for p in reversed(again[:-1])]
    text = f"{name} takes back their mat: it is reviewed again"
    if later:
        text += f", and so {'is' if len(later) == 1 else 'are'} {_names(later)}'s after it"
    return level, (Event(text + ".", pid),)


def _apply(state: GunfightState, move: Move, rng: random.Random | None) -> Outcome:
    if isinstance(move, StartClock) and move.anyway:
        # R38: the host's move (the app lets only the host make it), seated or not.
        if state.phase == Phase.OVER:
            raise IllegalMove("This gunfight is over.")
        if state.phase == Phase.CHOOSE:
            raise IllegalMove("First every gunfighter needs a character deck.")
        return _clock(state, move.pid, move.at_ms, anyway=True)
    if not state.has(move.pid):
        raise IllegalMove("Only the gunfighters at this table play.")
    me = state.gunfighter(move.pid)
    if state.phase == Phase.OVER:
        raise IllegalMove("This gunfight is over.")
    if not me.standing:
        raise IllegalMove(f"{me.name} was eliminated in showdown {me.out}: watch the rest.")
    if isinstance(move, ChooseDeck):
        return _choose(state, me, move.deck)
    if isinstance(move, DrawAtRandom):
        if state.phase != Phase.CHOOSE:
            raise IllegalMove("The decks are dealt already.")
        return _deal_at_random(state, rng or random.Random(), [
            Event(f"{me.name} does not agree to choosing: every deck is drawn at random.", me.pid)
        ])  # fmt: skip
    if state.phase == Phase.CHOOSE:
        raise IllegalMove("First every gunfighter needs a character deck.")
    if isinstance(move, PlayCovert):
        return _covert(state, me)
    if isinstance(move, NoCovert):
        return _no_covert(state, me)
    if isinstance(move, TakeBackCovert):
        return _uncovert(state, me)
    if isinstance(move, BandolierSet):
        return _ready(state, me)
    if isinstance(move, StartClock):
        return _clock(state, me.pid, move.at_ms, anyway=False)
    if isinstance(move, EnterMat):
        return _mat(state, me, move)
    raise IllegalMove("No such move.")


def _put(state: GunfightState, g: Gunfighter) -> GunfightState:
    return replace(state, gunfighters=tuple(g if x.pid == g.pid else x for x in state.gunfighters))


def _choose(state: GunfightState, me: Gunfighter, deck: str) -> Outcome:
    if state.phase != Phase.CHOOSE:
        raise IllegalMove("The decks are dealt already.")
    if deck not in DECKS:
        raise IllegalMove("Pick one of the six character decks.")
    if me.deck:
        raise IllegalMove(f"You play the {_deck(me.deck)} already.")
    taken = [g for g in state.gunfighters if g.deck == deck]
    if taken:
        raise IllegalMove(f"{taken[0].name} plays the {_deck(deck)}: pick another.")
    state = _put(state, replace(me, deck=deck))
    events = [Event(f"{me.name} chooses the {_deck(deck)}.", me.pid)]
    if all(g.deck for g in state.gunfighters):
        return _next_showdown(state, events)
    return state, tuple(events)


def _bandoliers_first(state: GunfightState) -> None:
    """R38: "Once each gunfighter's bandolier is laid out, each gunfighter is now free to play
    one covert card": not before every living gunfighter's bandolier is set."""
    if state.phase != Phase.PREPARE:
        raise IllegalMove("Too late: covert cards are played before the clock starts.")
    waiting = [g.name for g in state.standing if not g.ready]
    if waiting:
        raise IllegalMove(
            "Not yet: covert cards come once every bandolier is set; waiting for "
            f"{_names(waiting)} to set their bandolier."
        )


def has_chosen(g: Gunfighter) -> bool:
    """R38: played their covert card, said "no covert card", or holds none (said so)."""
    return g.covert_played or g.no_covert or g.covert == 0


def covert_waiting(state: GunfightState) -> tuple[str, ...]:
    """R38: once every bandolier is set, who the clock still waits for: their covert card or
    "no covert card" (none before the bandoliers: the table waits for those first)."""
    if state.phase != Phase.PREPARE or any(not g.ready for g in state.standing):
        return ()
    return tuple(g.pid for g in state.standing if not has_chosen(g))


def starter(state: GunfightState) -> str:
    """R39/GF3: who starts the clock, every showdown: whoever saw a western last (once they
    are out, the next one standing after them); the same one reviews first."""
    order = review_order(state)
    return order[0] if order else ""


def _covert(state: GunfightState, me: Gunfighter) -> Outcome:
    _bandoliers_first(state)
    if me.covert_played:
        raise IllegalMove("You played your one covert card for this showdown already.")
    if me.covert < 1:
        raise IllegalMove("You hold no covert card.")
    me = replace(me, covert=me.covert - 1, covert_played=True, no_covert=False)
    state = replace(_put(state, me), covert_discard=state.covert_discard + 1)
    return state, (Event(f"{me.name} plays a covert card ({me.covert} left in hand).", me.pid),)


def _no_covert(state: GunfightState, me: Gunfighter) -> Outcome:
    """R38: the gunfighter plays no covert card this showdown (until the clock, they may still
    change their mind and play one)."""
    _bandoliers_first(state)
    if me.covert_played:
        raise IllegalMove("You played a covert card for this showdown: take it back first.")
    if me.covert < 1:
        raise IllegalMove("You hold no covert card: the table need not wait for one.")
    if me.no_covert:
        raise IllegalMove("You said “no covert card” already.")
    state = _put(state, replace(me, no_covert=True))
    return state, (Event(f"{me.name} plays no covert card this showdown.", me.pid),)


def _uncovert(state: GunfightState, me: Gunfighter) -> Outcome:
    """GF11: the count put right before the clock: the card comes back from the discard pile."""
    if state.phase != Phase.PREPARE:
        raise IllegalMove("Too late: the clock has started, and the covert card was played.")
    if not me.covert_played:
        raise IllegalMove("You played no covert card for this showdown.")
    me = replace(me, covert=me.covert + 1, covert_played=False)
    state = replace(_put(state, me), covert_discard=state.covert_discard - 1)
    return state, (Event(f"{me.name} takes their covert card back ({me.covert} in hand).", me.pid),)


def _ready(state: GunfightState, me: Gunfighter) -> Outcome:
    if state.phase != Phase.PREPARE:
        raise IllegalMove("Too late: the clock has started.")
    if me.ready:
        raise IllegalMove("Your bandolier is set already.")
    state = _put(state, replace(me, ready=True))
    return state, (Event(f"{me.name}'s bandolier is set.", me.pid),)


def _clock(state: GunfightState, pid: str, at_ms: int, *, anyway: bool) -> Outcome:
    """GF4, R38, R39: once every bandolier is set and every covert card played or passed, the
    one who saw a western last starts the clock; the host may start it without waiting for the
    covert cards of a phone gone quiet (``anyway``)."""
    if state.phase == Phase.SHOWDOWN:
        raise IllegalMove("The clock is running already.")
    waiting = [g.name for g in state.standing if not g.ready]
    if waiting:
        raise IllegalMove(f"Not yet: waiting for {_names(waiting)} to set their bandolier.")
    quiet = [state.gunfighter(p).name for p in covert_waiting(state)]
    if anyway:
        state = replace(state, phase=Phase.SHOWDOWN, clock_at=at_ms)
        why = f" without waiting for {_names(quiet)}'s covert card" if quiet else ""
        text = f"The host starts the clock{why}: showdown {state.showdown}!"
        return state, (Event(text, pid),)
    first = starter(state)
    if pid != first:
        western = state.gunfighter(state.western).name
        why = "they saw a western last" if first == state.western else (
            f"they are the next one standing after {western}, who saw a western last"
        )  # fmt: skip
        raise IllegalMove(f"{state.gunfighter(first).name} starts the clock: {why}.")
    if quiet:
        raise IllegalMove(
            f"Not yet: waiting for {_names(quiet)} to play a covert card or say “no covert card”."
        )
    state = replace(state, phase=Phase.SHOWDOWN, clock_at=at_ms)
    text = f"{state.gunfighter(pid).name} starts the clock: showdown {state.showdown}!"
    return state, (Event(text, pid),)


def _names(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def review_order(state: GunfightState) -> tuple[str, ...]:
    """GF3: the mats of this showdown's gunfighters, clockwise from whoever saw a western last
    (from the next one still standing after them, once they are out)."""
    pids = [g.pid for g in state.gunfighters]
    start = pids.index(state.western)
    turned = pids[start:] + pids[:start]
    now = state.showdown
    return tuple(p for p in turned if (g := state.gunfighter(p)).standing or g.out == now)


def reviewing(state: GunfightState) -> str:
    """Whose mat is reviewed now ("" before the clock ends, or when none)."""
    if state.phase != Phase.SHOWDOWN:
        return ""
    for pid in review_order(state):
        if not state.gunfighter(pid).reviewed:
            return pid
    return ""


def _mat(state: GunfightState, me: Gunfighter, move: EnterMat) -> Outcome:
    if state.phase != Phase.SHOWDOWN or state.clock_end is None:
        raise IllegalMove("No showdown to review yet: start the clock first.")
    if move.now_ms < state.clock_end:
        raise IllegalMove("The showdown is still on: mats are reviewed when the clock hits zero.")
    turn = reviewing(state)
    if turn != me.pid:
        raise IllegalMove(f"Not your mat yet: {state.gunfighter(turn).name}'s mat is reviewed now.")
    points: dict[str, int] = {}
    in_showdown = set(review_order(state))  # one fallen earlier in this review shot too
    for shooter, n in move.hits:
        if shooter not in in_showdown:
            raise IllegalMove("Only gunfighters in this showdown dealt damage.")
        if not 0 <= n <= MAX_POINTS or shooter in points:
            raise IllegalMove(f"Damage from one gunfighter is a number from 0 to {MAX_POINTS}.")
        points[shooter] = n
    if not 0 <= move.left <= me.bandolier:
        raise IllegalMove(f"Cards left in your bandolier: a number from 0 to {me.bandolier}.")
    total = sum(points.values())
    dealt = [p for p, n in points.items() if n]
    killed = total >= me.lives
    killer = ""
    if killed:
        killer = move.last or (dealt[0] if len(dealt) == 1 else "")
        if killer not in dealt:
            raise IllegalMove("That damage kills: say who dealt the last point (the top one).")
    hits = tuple(Hit(me.pid, p, n) for p, n in points.items() if n)
    events = [_mat_line(state, me, hits)]
    pocket = min(POCKET_MAX, me.pocket + move.left)
    discard = me.discard + (me.bandolier - move.left) + (me.pocket + move.left - pocket)
    me = replace(
        me, lives=max(0, me.lives - total), reviewed=True, bandolier=0, pocket=pocket,
        discard=discard,
    )  # fmt: skip
    state = replace(_put(state, me), hits=(*state.hits, *hits))
    if killed:
        # R38: the dead are eliminated once every mat is reviewed (``_close``).
        state = _put(state, replace(me, killed_by=killer))
        by = "their own card" if killer == me.pid else state.gunfighter(killer).name
        events.append(
            Event(f"{me.name} is shot down by {by}: eliminated once every mat is reviewed.", me.pid)
        )
    if not reviewing(state):
        return _close(state, events)
    return state, tuple(events)


def _mat_line(state: GunfightState, me: Gunfighter, hits: tuple[Hit, ...]) -> Event:
    if not hits:
        return Event(f"{me.name}'s mat: no damage.", me.pid)
    parts = [
        f"{'their own cards' if h.shooter == me.pid else state.gunfighter(h.shooter).name} "
        f"{h.points}"
        for h in hits
    ]
    total = sum(h.points for h in hits)
    return Event(
        f"{me.name}'s mat: {total} damage ({', '.join(parts)}); "
        f"{max(0, me.lives - total)} {'life' if me.lives - total == 1 else 'lives'} left.",
        me.pid,
    )


def _eliminate_the_dead(state: GunfightState, events: list[Event]) -> GunfightState:
    """R38: every mat reviewed, the dead are eliminated, in the order of the review; each one's
    covert cards are the ones they held when the review ended (all claimed at once)."""
    dead = [state.gunfighter(p) for p in review_order(state)]
    dead = [d for d in dead if d.standing and d.lives == 0]
    for d in dead:
        state = _put(state, replace(d, out=state.showdown, covert=0, ready=False))
    for d in dead:
        state, fell = _eliminate(state, d, d.killed_by, d.covert)
        events += fell
    return state


def _eliminate(
    state: GunfightState, me: Gunfighter, killer: str, taken: int
) -> tuple[GunfightState, list[Event]]:
    """GF5: the last point's dealer claims the fallen's covert cards; dealt by their own card,
    the cards go to the covert discard pile."""
    if killer and killer != me.pid:
        k = state.gunfighter(killer)
        state = _put(state, replace(k, covert=k.covert + taken))
        return state, [
            Event(
                f"{me.name} is shot down by {k.name} and eliminated. {k.name} takes "
                f"{me.name}'s {taken} covert card{'s' * (taken != 1)}.",
                me.pid,
            )
        ]
    state = replace(state, covert_discard=state.covert_discard + taken)
    return state, [
        Event(
            f"{me.name} falls to their own card and is eliminated; their {taken} covert "
            f"card{'s' * (taken != 1)} go to the covert discard pile.",
            me.pid,
        )
    ]


def _close(state: GunfightState, events: list[Event]) -> Outcome:
    """Every mat reviewed: the dead are eliminated (R38), the showdown goes into the story; the
    last one standing wins (GF9), else the next showdown begins."""
    state = _eliminate_the_dead(state, events)
    fallen = tuple((g.pid, g.killed_by) for g in state.gunfighters if g.out == state.showdown)
    record = Showdown(state.showdown, state.hits, fallen)
    state = replace(state, history=(*state.history, record), hits=())
    standing = state.standing
    if len(standing) <= 1:
        winner = standing[0].pid if standing else ""
        state = replace(state, phase=Phase.OVER, winner=winner, clock_at=None)
        if winner:
            events.append(Event(f"{standing[0].name} is the last gunfighter standing!", winner))
        else:
            events.append(Event("Nobody is left standing: the last of them fell together."))
        return state, tuple(events)
    return _next_showdown(state, events)


def must_rebuild(state: GunfightState) -> list[Gunfighter]:
    """The standing gunfighters who cannot draw six showdown cards (GF7)."""
    return [g for g in state.standing if g.stock < BANDOLIER]


def _next_showdown(state: GunfightState, events: list[Event]) -> Outcome:
    """Leading up to a showdown: if anyone cannot draw six, every deck is rebuilt (GF7); then
    each standing gunfighter draws six into their bandolier."""
    short = must_rebuild(state)
    rebuilt = state.rebuilt
    if short:
        rebuilt = state.showdown + 1
        events.append(
            Event(
                f"{_names([g.name for g in short])} cannot draw 6 showdown cards: rebuild the "
                "decks! Every gunfighter shuffles their discard pile and pocket back into their "
                "showdown deck."
            )
        )
    gunfighters = []
    for g in state.gunfighters:
        if g.standing:
            stock = DECK_SIZE if short else g.stock
            g = replace(
                g, stock=stock - BANDOLIER, bandolier=BANDOLIER,
                pocket=0 if short else g.pocket, discard=0 if short else g.discard,
                ready=False, covert_played=False, no_covert=False, reviewed=False,
            )  # fmt: skip
        gunfighters.append(g)
    number = state.showdown + 1
    state = replace(
        state, phase=Phase.PREPARE, gunfighters=tuple(gunfighters), showdown=number,
        clock_at=None, rebuilt=rebuilt,
    )  # fmt: skip
    events.append(
        Event(
            f"Showdown {number}: each gunfighter draws 6 showdown cards and lays their "
            "bandolier face down; each may play one covert card."
        )
    )
    return state, tuple(events)


def whose_move(state: GunfightState) -> tuple[str, ...]:
    """Who the table waits for."""
    if state.phase == Phase.CHOOSE:
        return tuple(g.pid for g in state.gunfighters if not g.deck)
    if state.phase == Phase.PREPARE:
        unset = tuple(g.pid for g in state.standing if not g.ready)
        return unset or covert_waiting(state) or (starter(state),)
    turn = reviewing(state)
    return (turn,) if turn else ()


def taken_back(state: GunfightState) -> tuple[str, ...]:
    """GF11: whose mats of this showdown can be taken back now, the last entered first."""
    out, level = [], state.before
    while level is not None:
        out.append(reviewing(level))
        level = level.before
    return tuple(out)


def conserved(state: GunfightState) -> bool:
    """Every standing deck's 30 cards are somewhere; the 42 covert cards too."""
    decks = all(
        g.stock + g.bandolier + g.pocket + g.discard == DECK_SIZE and g.pocket <= POCKET_MAX
        for g in state.standing
    )
    covert = sum(g.covert for g in state.gunfighters) + state.covert_discard + state.covert_stock
    return decks and covert == COVERT_CARDS and all(g.lives >= 0 for g in state.gunfighters)


def visible(state: GunfightState, viewer: str | None) -> dict[str, Any]:
    """What ``viewer`` (a pid, or None for a watcher or the shared screen) sees: the ONE
    per-viewer view. GF10: nothing the app keeps is private — the covert cards and bandoliers
    are physical, the app only counts them, and counts are seen across the table anyway — so
    every viewer gets the same public facts; a seated viewer also gets ``mine`` and the moves
    open to them now."""
    me = state.gunfighter(viewer) if viewer and state.has(viewer) else None
    turn = reviewing(state)
    waiting = whose_move(state)
    can = set()
    if me is not None and me.standing and state.phase != Phase.OVER:
        if state.phase == Phase.CHOOSE:
            can |= {"random"} | ({"choose"} if not me.deck else set())
        elif state.phase == Phase.PREPARE:
            set_ = all(g.ready for g in state.standing)
            if set_ and not me.covert_played and me.covert:
                can.add("covert")
                if not me.no_covert:
                    can.add("nocovert")
            if me.covert_played:
                can.add("uncovert")
            if not me.ready:
                can.add("ready")
            elif me.pid == starter(state):
                can.add("clock")
        elif turn == me.pid:
            can.add("mat")
    back = taken_back(state)
    if me is not None and me.pid in back and (me.standing or back[0] == me.pid):
        # GF11 with issue 36: a gunfighter who is out takes back only the mat just entered, if
        # it is theirs (it may be what wrongly put them out); the fallen get no other move.
        can.add("takeback")
    return {
        "phase": state.phase.value,
        "showdown": state.showdown,
        "clock_at": state.clock_at,
        "countdown_ms": COUNTDOWN_MS,
        "play_ms": PLAY_MS,
        "reviewing": turn,
        "waiting": waiting,
        "covert_waiting": covert_waiting(state),
        "starter": starter(state),  # R39: starts the clock and reviews first
        "clock_next": state.phase == Phase.PREPARE
        and all(g.ready for g in state.standing)
        and not covert_waiting(state),
        "western": state.western,
        "winner": state.winner,
        "covert_discard": state.covert_discard,
        "free_decks": [d for d in DECKS if d not in {g.deck for g in state.gunfighters}],
        # GF7: the decks were rebuilt for this showdown: the table does it now, physically.
        "rebuild_now": state.rebuilt == state.showdown and state.phase == Phase.PREPARE,
        "gunfighters": state.gunfighters,
        "history": state.history,
        "hits": state.hits,
        "mine": me,
        "can": frozenset(can),
    }
