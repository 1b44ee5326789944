"""Saloon Showdown's rules: ``new_game`` and ``apply(state, move, rng) -> Outcome``.

Every refusal is an ``IllegalMove`` in plain words. The ruling ids (SS1–SS22) are registered
on the Rulings page by ``showdown.apps``; ``READINGS`` below is their text. The team's R37
settles three of them: the Law's jailed threatener skips their next turn too (SS9), one knocked
out of a standoff by the Bottle cannot join it again (SS10), and of two end triggers in one move
the first in turn order from the player whose turn it is counts (SS13).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from cards.dice import dice_spec, roll
from cards.errors import IllegalMove
from cards.words import Said, gettext_noop, ngettext, said

from . import moves as m
from .state import (
    BOTTLE,
    COUNTDOWN_MS,
    EVENT_NAMES,
    EVENTS,
    MAX_BULLETS,
    MAX_SYMBOLS,
    MAX_WOUNDS,
    NOISES,
    PISTOL_WORDS,
    PISTOLS,
    STEAL,
    TARGET_LOOT,
    ZONES,
    Bluff,
    Claim,
    Event,
    Fight,
    Kind,
    Options,
    Phase,
    Player,
    State,
    Threat,
)

MIN_PLAYERS, MAX_PLAYERS = 2, 7


@dataclass(frozen=True)
class Entry:
    """A line of the public timeline: never a number still hidden."""

    kind: str  # "rule" (what happened), "turn", "money", "end"
    text: str  # English; a ``cards.words.Said`` keeps its message and values for the reader
    pid: str = ""


@dataclass(frozen=True)
class Outcome:
    state: State
    entries: tuple[Entry, ...]


def new_game(seats: Sequence[tuple[str, str]], dealer: str, options: Options) -> Outcome:
    """Seats clockwise as (pid, name); ``dealer``: who saw a western last. Play starts on the
    dealer's left (SS1: a 2-player game is always the simple game)."""
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise IllegalMove(gettext_noop("Saloon Showdown is for 2 to 7 players."))
    if len({pid for pid, _ in seats}) != len(seats):
        raise IllegalMove(gettext_noop("Each player sits at the table once."))
    if len(seats) == 2:
        options = replace(options, simple=True)
    players = tuple(Player(pid, name) for pid, name in seats)
    if dealer not in {p.pid for p in players}:
        raise IllegalMove(gettext_noop("The dealer token goes to one of the players."))
    state = State(players=players, dealer=dealer, turn="", options=options)
    state = replace(state, turn=state.after(dealer))
    lines = [
        Entry(
            "rule",
            said(
                gettext_noop(
                    "{who} saw a western last and takes the dealer token: three Duel cards "
                    "each, four public cards face up."
                ),
                who=state.player(dealer).name,
            ),
        ),
        Entry("money", said(gettext_noop("Everyone starts with 20$ loot and a 20$ bounty."))),
    ]
    if options.simple:
        rule = gettext_noop("The simple game: no Desperado, no Mexican standoff.")
        lines.append(Entry("rule", said(rule)))
    if options.roulette:
        rule = gettext_noop("Russian roulette: a called bluff is settled by the die.")
        lines.append(Entry("rule", said(rule)))
    if options.events:
        rule = gettext_noop("The five event cards are shuffled into the Duel deck.")
        lines.append(Entry("rule", said(rule)))
    turn = said(gettext_noop("{who}’s turn."), who=state.player(state.turn).name)
    lines.append(Entry("turn", turn, state.turn))
    return Outcome(state, tuple(lines))


class _Log:
    def __init__(self, state: State) -> None:
        self.state = state
        self.entries: list[Entry] = []

    def __call__(self, message: str, kind: str = "rule", pid: str = "", **values: Any) -> None:
        """A line: ``message`` (marked for the catalogue where it is written) and its values."""
        self.entries.append(Entry(kind, Said(message, values), pid))

    def name(self, pid: str) -> str:
        return self.state.player(pid).name


def apply(state: State, move: m.Move, rng: random.Random) -> Outcome:
    """One move; ``IllegalMove`` (nothing changed) when the rules do not allow it."""
    if state.over:
        raise IllegalMove(gettext_noop("The game is over."))
    if not isinstance(move, m.HostMove) and not state.has(move.pid):
        raise IllegalMove(gettext_noop("Only the players at this game make its moves."))
    log = _Log(state)
    if state.event is not None and not isinstance(
        move, (m.HostMove, m.EventCount, m.TakeBackCount)
    ):
        raise IllegalMove(
            gettext_noop("Play is held while the event is resolved: {event}."),
            event=EVENT_NAMES[state.event.name],
        )
    handler = _HANDLERS.get(type(move))
    if handler is None:
        raise IllegalMove(gettext_noop("That is not a move of this game."))
    new = handler(state, move, rng, log)
    new = _check_end(new, log)
    return Outcome(new, tuple(log.entries))


# --- Money -------------------------------------------------------------------------------------


def _gain(state: State, pid: str, loot: int = 0, bounty: int = 0, wounds: int = 0) -> State:
    p = state.player(pid)
    return state.with_player(
        pid, loot=p.loot + loot, bounty=max(0, p.bounty + bounty), wounds=max(0, p.wounds + wounds)
    )


def _take_bounty(state: State, winner: str, loser: str) -> tuple[State, int]:
    """The loser's whole bounty into the winner's loot (SS4)."""
    amount = state.player(loser).bounty
    state = _gain(state, loser, bounty=-amount)
    return _gain(state, winner, loot=amount), amount


def _steal(state: State, thief: str, victim: str, amount: int = STEAL) -> tuple[State, int]:
    """Up to ``amount`` from the victim's loot: never from the Bank."""
    taken = min(amount, state.player(victim).loot)
    state = _gain(state, victim, loot=-taken)
    return _gain(state, thief, loot=taken), taken


# --- The turn ----------------------------------------------------------------------------------


def _my_turn(state: State, pid: str) -> None:
    if state.phase != Phase.PLAY:
        raise IllegalMove(gettext_noop("Finish what is under way first."))
    if pid != state.turn:
        raise IllegalMove(
            gettext_noop("It is {who}’s turn, not yours."), who=state.player(state.turn).name
        )


def _end_turn(state: State, log: _Log) -> State:
    """After an action: the reminder to the token holder (SS2), the bounty back to 20$ (SS5),
    the end (SS13), the next player clockwise."""
    me = state.turn
    state = replace(state, threat=None, bluff=None, fight=None, turns=state.turns + 1)
    reminder = ""
    if state.dealer == me:
        reminder = me
        log(
            gettext_noop(
                "{who} holds the dealer token: discard the four public cards and turn up four "
                "new ones."
            ),
            pid=me,
            who=log.name(me),
        )
    if state.player(me).bounty == 0:
        state = state.with_player(me, bounty=20)
        log(
            gettext_noop("{who} has no bounty left: it goes back to 20$."), "money", me,
            who=log.name(me),
        )  # fmt: skip
    state = _check_end(state, log)
    if state.end_after == me:
        return _finish(replace(state, reminder=reminder), log)
    nxt = state.after(me)
    while nxt in state.jailed:  # R37: play passes over the jailed once
        log(gettext_noop("{who} is in jail: skips this turn."), "turn", nxt, who=log.name(nxt))
        state = replace(state, jailed=tuple(p for p in state.jailed if p != nxt))
        if state.end_after == nxt:  # their turn, skipped, was the last one
            return _finish(replace(state, reminder=reminder), log)
        nxt = state.after(nxt)
    log(gettext_noop("{who}’s turn."), "turn", nxt, who=log.name(nxt))
    return replace(state, turn=nxt, reminder=reminder)


def _draw(state: State, move: m.Draw, rng: random.Random, log: _Log) -> State:
    _my_turn(state, move.pid)
    if move.public:
        log(
            gettext_noop(
                "{who} draws a public card, replaces it from the deck, takes the dealer token "
                "and discards one card."
            ),
            pid=move.pid,
            who=log.name(move.pid),
        )
        state = replace(state, dealer=move.pid)
    else:
        log(
            gettext_noop("{who} draws blind from the deck and discards one card."),
            pid=move.pid, who=log.name(move.pid),
        )  # fmt: skip
    return _end_turn(state, log)


def _cash_loot(state: State, move: m.CashLoot, rng: random.Random, log: _Log) -> State:
    _my_turn(state, move.pid)
    if not 1 <= move.cards <= 3:
        raise IllegalMove(gettext_noop("Discard 1 to 3 Malloppo cards: you hold three cards."))
    state = _gain(state, move.pid, loot=10 * move.cards)
    log(
        ngettext(
            "{who} discards {n} Malloppo card and takes {money}$ from the Bank, then draws "
            "back to three.",
            "{who} discards {n} Malloppo cards and takes {money}$ from the Bank, then draws "
            "back to three.",
            move.cards,
        ),
        "money",
        move.pid,
        who=log.name(move.pid), n=move.cards, money=10 * move.cards,
    )  # fmt: skip
    return _end_turn(state, log)


def _cash_bounty(state: State, move: m.CashBounty, rng: random.Random, log: _Log) -> State:
    _my_turn(state, move.pid)
    if move.victim == move.pid or not state.has(move.victim):
        raise IllegalMove(gettext_noop("A trio of Taglia da vivo cashes another player’s bounty."))
    state, amount = _take_bounty(state, move.pid, move.victim)
    log(
        gettext_noop(
            "{who} shows three Taglia da vivo and cashes {victim}’s whole bounty: {money}$."
        ),
        "money",
        move.pid,
        who=log.name(move.pid), victim=log.name(move.victim), money=amount,
    )  # fmt: skip
    return _end_turn(state, log)


def _threaten(state: State, move: m.Threaten, rng: random.Random, log: _Log) -> State:
    _my_turn(state, move.pid)
    if move.target == move.pid or not state.has(move.target):
        raise IllegalMove(gettext_noop("Point the pistol at another player."))
    if move.pistol not in PISTOLS:
        raise IllegalMove(gettext_noop("Take one of the four pistols: red, blue, yellow or green."))
    if move.second:
        if state.options.simple:
            raise IllegalMove(gettext_noop("There is no Desperado in the simple game."))
        if move.second in (move.pid, move.target) or not state.has(move.second):
            raise IllegalMove(gettext_noop("The Desperado threatens two different other players."))
        log(
            gettext_noop(
                "{who}: “Non ho niente da perdere.” Two pistols, at {target} and {second}: a "
                "triello!"
            ),
            pid=move.pid,
            who=log.name(move.pid), target=log.name(move.target), second=log.name(move.second),
        )  # fmt: skip
        fight = Fight(Kind.TRIELLO, (move.pid, move.target, move.second), desperado=move.pid)
        return replace(state, fight=fight)
    log(
        gettext_noop("{who} takes the {pistol} pistol: “Ti senti fortunato, {target}?”"),
        pid=move.pid,
        who=log.name(move.pid), pistol=PISTOL_WORDS[move.pistol], target=log.name(move.target),
    )  # fmt: skip
    return replace(state, threat=Threat(move.pid, move.target, move.pistol, move.target))


# --- Answers to a threat -----------------------------------------------------------------------


def _threatened(state: State, pid: str, *, special: bool = True) -> Threat:
    threat = state.threat
    if state.phase != Phase.THREAT or threat is None:
        raise IllegalMove(gettext_noop("Nobody is being threatened now."))
    if threat.standoff:
        raise IllegalMove(gettext_noop("A standoff has begun: only the Bottle interrupts it now."))
    if pid != threat.target:
        raise IllegalMove(
            gettext_noop("Only {who}, who is threatened, answers."),
            who=state.player(threat.target).name,
        )
    if special and threat.forced:
        raise IllegalMove(
            gettext_noop(
                "After two escapes there is no way out: call the bluff or say “E tu?” (SS8)."
            )
        )
    return threat


def _call_bluff(state: State, move: m.CallBluff, rng: random.Random, log: _Log) -> State:
    threat = _threatened(state, move.pid, special=False)
    log(
        gettext_noop("{who}: “Stai bluffando!” Both count the bullets on their cards."),
        pid=move.pid, who=log.name(move.pid),
    )  # fmt: skip
    return replace(state, bluff=Bluff(threat.threatener, threat.target))


def _bullets(state: State, move: m.Bullets, rng: random.Random, log: _Log) -> State:
    bluff = state.bluff
    if state.phase != Phase.BLUFF or bluff is None:
        raise IllegalMove(gettext_noop("No bluff is being called now."))
    roulette = state.options.roulette
    counting = (bluff.threatener,) if roulette else (bluff.threatener, bluff.target)
    if move.pid not in counting:
        if roulette:
            raise IllegalMove(
                gettext_noop("Only the threatener counts the bullets in Russian roulette.")
            )
        raise IllegalMove(gettext_noop("Only the two players of the bluff count their bullets."))
    if not 0 <= move.count <= MAX_BULLETS:
        raise IllegalMove(gettext_noop("Three cards hold 0 to 9 bullets."))
    if any(pid == move.pid for pid, _ in bluff.counts):
        raise IllegalMove(gettext_noop("Your count is in already."))
    counts = (*bluff.counts, (move.pid, move.count))
    if len(counts) < len(counting):
        log(gettext_noop("{who} has entered their count."), pid=move.pid, who=log.name(move.pid))
        return replace(state, bluff=replace(bluff, counts=counts))
    got = dict(counts)
    t, v = bluff.threatener, bluff.target
    if roulette:
        die = roll(dice_spec(1, 6), rng).dice[0].faces[0]  # the die as it lands (SS7)
        log(
            ngettext(
                "{who} shows {n} bullet and rolls the die: {die}.",
                "{who} shows {n} bullets and rolls the die: {die}.",
                got[t],
            ),
            pid=t,
            who=log.name(t), n=got[t], die=die,
        )  # fmt: skip
        if die > got[t]:
            state, taken = _steal(state, v, t)
            log(
                gettext_noop("Click: the pistol was empty. {who} gives {other} {money}$."),
                "money", who=log.name(t), other=log.name(v), money=taken,
            )  # fmt: skip
        else:  # SS7: a die equal to the bullets is a live round
            state, taken = _steal(state, t, v)
            log(
                gettext_noop("Bang: a live round. {who} takes {money}$ from {other}."),
                "money", who=log.name(t), other=log.name(v), money=taken,
            )  # fmt: skip
    else:
        log(
            gettext_noop("The hands are shown: {who} {n} bullets, {other} {m}."),
            who=log.name(t), n=got[t], other=log.name(v), m=got[v],
        )  # fmt: skip
        if got[v] > got[t]:
            state, taken = _steal(state, v, t)
            log(
                gettext_noop("{who} had more bullets and takes {money}$ of {other}’s loot."),
                "money", who=log.name(v), money=taken, other=log.name(t),
            )  # fmt: skip
        else:  # seed: "In caso di pareggio di Proiettili, vince il giocatore che ha minacciato"
            state, taken = _steal(state, t, v)
            log(
                gettext_noop("{who} wins the bluff and takes {money}$ of {other}’s loot."),
                "money", who=log.name(t), money=taken, other=log.name(v),
            )  # fmt: skip
    log(gettext_noop("Both discard their cards and draw three from the deck."))
    return _end_turn(state, log)


_TAKES_BACK = gettext_noop("{who} takes back their count, to enter it again.")


def _take_back_count(state: State, move: m.TakeBackCount, rng: random.Random, log: _Log) -> State:
    """SS20: a count mistyped is taken back while another is still awaited (once every count is
    in, they are shown and settled at once: nothing is left to take back)."""
    if state.event is not None and state.event.name in ("rain", "robbery"):
        event = state.event
        if not any(pid == move.pid for pid, _ in event.counts):
            raise IllegalMove(gettext_noop("You have no count in to take back."))
        counts = tuple((pid, n) for pid, n in event.counts if pid != move.pid)
        log(_TAKES_BACK, pid=move.pid, who=log.name(move.pid))
        return replace(state, event=replace(event, counts=counts))
    bluff = state.bluff
    if state.phase != Phase.BLUFF or bluff is None:
        raise IllegalMove(gettext_noop("No count is being entered now."))
    if not any(pid == move.pid for pid, _ in bluff.counts):
        raise IllegalMove(gettext_noop("You have no count in to take back."))
    counts = tuple((pid, n) for pid, n in bluff.counts if pid != move.pid)
    log(_TAKES_BACK, pid=move.pid, who=log.name(move.pid))
    return replace(state, bluff=replace(bluff, counts=counts))


def _and_you(state: State, move: m.AndYou, rng: random.Random, log: _Log) -> State:
    threat = _threatened(state, move.pid, special=False)
    log(
        gettext_noop("{who}: “E tu?” A duel! Swap your hands without looking."),
        pid=move.pid, who=log.name(move.pid),
    )  # fmt: skip
    return replace(state, fight=Fight(Kind.DUEL, (threat.threatener, threat.target)))


def _bounty_trio(state: State, move: m.BountyTrio, rng: random.Random, log: _Log) -> State:
    threat = _threatened(state, move.pid)
    state, amount = _take_bounty(state, move.pid, threat.threatener)
    log(
        gettext_noop(
            "{who} shows three Taglia da vivo and cashes {other}’s bounty: {money}$. Their turn "
            "is over."
        ),
        "money",
        move.pid,
        who=log.name(move.pid), other=log.name(threat.threatener), money=amount,
    )  # fmt: skip
    return _end_turn(state, log)


def _horse(state: State, move: m.Horse, rng: random.Random, log: _Log) -> State:
    threat = _threatened(state, move.pid)
    me, t = log.name(move.pid), threat.threatener
    if len(state.players) == 2:  # seed: "In una partita a 2 giocatori … annulla il Duello e basta"
        log(
            gettext_noop("{who}: “Ci vediamo!” and rides away: the threat is off."),
            pid=move.pid, who=me,
        )  # fmt: skip
        return _end_turn(state, log)
    if threat.escaped:  # SS8: the second escape sends it back to the first, with no way out
        first = threat.escaped[0]
        log(
            gettext_noop("{who}: “Ci vediamo!” too. {other} must call the bluff or say “E tu?”."),
            pid=move.pid, who=me, other=log.name(first),
        )  # fmt: skip
        return replace(
            state,
            threat=replace(threat, target=first, forced=True, escaped=(*threat.escaped, move.pid)),
        )
    if move.new_target in (move.pid, t) or not state.has(move.new_target):
        raise IllegalMove(
            gettext_noop("Name a new target for the threat: another player, not the threatener.")
        )
    log(
        gettext_noop(
            "{who}: “Ci vediamo!” and rides away; {other} now points the pistol at {target}."
        ),
        pid=move.pid, who=me, other=log.name(t), target=log.name(move.new_target),
    )  # fmt: skip
    return replace(state, threat=replace(threat, target=move.new_target, escaped=(move.pid,)))


def _law(state: State, move: m.Law, rng: random.Random, log: _Log) -> State:
    threat = _threatened(state, move.pid)
    amount = state.player(threat.threatener).bounty
    state = _gain(state, move.pid, loot=amount)
    log(
        gettext_noop(
            "{who}: “Io sono la Legge.” {other} goes to jail: the threat ends with nothing "
            "done, and they skip their next turn; {who} takes {money}$ from the Bank, the value "
            "of their bounty."
        ),
        "money",
        move.pid,
        who=log.name(move.pid), other=log.name(threat.threatener), money=amount,
    )  # fmt: skip
    jailed = (*state.jailed, threat.threatener)  # R37
    return _end_turn(replace(state, jailed=jailed), log)


def _desperado(state: State, move: m.Desperado, rng: random.Random, log: _Log) -> State:
    threat = _threatened(state, move.pid)
    if state.options.simple:
        raise IllegalMove(gettext_noop("There is no Desperado in the simple game."))
    if move.other in (move.pid, threat.threatener) or not state.has(move.other):
        raise IllegalMove(gettext_noop("Name a third player for the triello."))
    log(
        gettext_noop("{who} holds three Desperado: a triello with {other} and {third}!"),
        pid=move.pid,
        who=log.name(move.pid), other=log.name(threat.threatener), third=log.name(move.other),
    )  # fmt: skip
    fight = Fight(Kind.TRIELLO, (move.pid, threat.threatener, move.other), desperado=move.pid)
    return replace(state, fight=fight)


def _standoff(state: State, move: m.Standoff, rng: random.Random, log: _Log) -> State:
    threat = state.threat
    if state.phase != Phase.THREAT or threat is None:
        raise IllegalMove(gettext_noop("A standoff starts only when someone threatens."))
    if state.options.simple:
        raise IllegalMove(gettext_noop("There is no Mexican standoff in the simple game."))
    if move.pid in (threat.threatener, threat.first, *threat.standoff):
        raise IllegalMove(gettext_noop("You are in this threat already."))
    if move.pid in threat.knocked:  # R37: "elimina dallo Stallo il giocatore che colpisce"
        raise IllegalMove(
            gettext_noop("The Bottle knocked you out of this standoff: you cannot join it again.")
        )
    if len(threat.standoff) + 1 >= len(PISTOLS):
        raise IllegalMove(gettext_noop("No pistol is left on the table."))
    last = threat.standoff[-1] if threat.standoff else threat.threatener
    log(
        gettext_noop("{who}: “Non credo proprio!” and points a pistol at {other}."),
        pid=move.pid, who=log.name(move.pid), other=log.name(last),
    )  # fmt: skip
    return replace(state, threat=replace(threat, standoff=(*threat.standoff, move.pid)))


def _close_standoff(state: State, move: m.CloseStandoff, rng: random.Random, log: _Log) -> State:
    threat = state.threat
    if state.phase != Phase.THREAT or threat is None or not threat.standoff:
        raise IllegalMove(gettext_noop("There is no standoff to close."))
    if move.pid != threat.first:
        raise IllegalMove(
            gettext_noop("{who}, the first threatened, closes the standoff."),
            who=log.name(threat.first),
        )
    members = (threat.threatener, *threat.standoff)
    log(
        gettext_noop("{who} walks out unharmed and referees the standoff of {names}."),
        pid=move.pid, who=log.name(move.pid), names=", ".join(log.name(p) for p in members),
    )  # fmt: skip
    return replace(state, fight=Fight(Kind.STANDOFF, members, referee=move.pid))


def _bottle(state: State, move: m.Bottle, rng: random.Random, log: _Log) -> State:
    threat, fight = state.threat, state.fight
    if threat is None:
        raise IllegalMove(
            gettext_noop("The Bottle answers a threat (with three cards of its pistol’s colour).")
        )
    if fight is not None and fight.kind == Kind.TRIELLO:
        raise IllegalMove(gettext_noop("Nobody interrupts a triello."))
    if fight is not None and fight.claim is not None:
        raise IllegalMove(gettext_noop("Too late for the Bottle: a shot is claimed."))
    if move.pid == threat.threatener:
        raise IllegalMove(gettext_noop("The Bottle is for someone else to swing."))
    me = log.name(move.pid)
    state = _gain(state, move.pid, loot=20)
    standoff = fight.members if fight is not None else (threat.threatener, *threat.standoff)
    if threat.standoff:  # in a standoff: one player out of it
        if move.hit not in standoff or move.hit == move.pid:
            raise IllegalMove(gettext_noop("Name who the Bottle knocks out of the standoff."))
        log(
            gettext_noop(
                "{who}: “Crash!” {other} is out of the standoff; {who} takes 20$ from the Bank."
            ),
            "money", move.pid, who=me, other=log.name(move.hit),
        )  # fmt: skip
        left = tuple(p for p in standoff if p != move.hit)
        if len(left) < 2:  # SS10: one gunman left standing is no standoff
            log(gettext_noop("Nobody is left to shoot at: the standoff is over."))
            return _end_turn(state, log)
        knocked = (*threat.knocked, move.hit)  # R37: out for good, the first threatener too
        if fight is None:  # seed: "il gioco continua con i giocatori rimasti ancora nello Stallo"
            return replace(
                state,
                threat=replace(threat, threatener=left[0], standoff=left[1:], knocked=knocked),
            )
        return replace(
            state,
            threat=replace(threat, knocked=knocked),
            fight=replace(fight, members=left, ready=(), go_at=None),
        )
    log(
        gettext_noop(
            "{who}: “Crash!” on {other} with the Bottle: the threat is off; {who} shows three "
            "{pistol} cards, draws three new ones and takes 20$ from the Bank."
        ),
        "money",
        move.pid,
        who=me, other=log.name(threat.threatener), pistol=PISTOL_WORDS[threat.pistol],
    )  # fmt: skip
    return _end_turn(state, log)


# --- Fights ------------------------------------------------------------------------------------


def _fighting(state: State, pid: str) -> Fight:
    fight = state.fight
    if state.phase != Phase.FIGHT or fight is None:
        raise IllegalMove(gettext_noop("Nobody is fighting now."))
    if pid not in fight.members:
        raise IllegalMove(gettext_noop("Only the gunmen in this fight take part in it."))
    return fight


def _ready(state: State, move: m.Ready, rng: random.Random, log: _Log) -> State:
    fight = _fighting(state, move.pid)
    if move.pid in fight.ready:
        raise IllegalMove(gettext_noop("You are ready already: wait for “Via!”."))
    ready = (*fight.ready, move.pid)
    go_at = move.at + COUNTDOWN_MS if len(ready) == len(fight.members) else None
    if go_at is not None:
        log(gettext_noop("Everyone is ready: “Via!” in three seconds, on every phone at once."))
    return replace(state, fight=replace(fight, ready=ready, go_at=go_at))


def _fire(state: State, move: m.Fire, rng: random.Random, log: _Log) -> State:
    fight = _fighting(state, move.pid)
    if fight.go_at is None or move.at < fight.go_at:
        raise IllegalMove(gettext_noop("Too soon: wait for “Via!”."))
    if fight.disputed:
        raise IllegalMove(
            gettext_noop("A claim is disputed: the dealer token’s holder settles it.")
        )
    if move.pid in (*(p for p, _ in fight.late), fight.claim.shooter if fight.claim else ""):
        raise IllegalMove(gettext_noop("You fired already."))
    if fight.kind == Kind.DUEL or (fight.kind == Kind.TIEBREAK and len(fight.members) == 2):
        target = next(p for p in fight.members if p != move.pid)
    else:
        target = move.target
    if target == move.pid or target not in fight.members:
        raise IllegalMove(gettext_noop("Shoot one of the others in this fight."))
    if fight.kind == Kind.TRIELLO and move.pid != fight.desperado and target != fight.desperado:
        raise IllegalMove(gettext_noop("In the triello, shoot the Desperado."))
    pistol = move.pistol
    if pistol not in (*PISTOLS, BOTTLE) or move.zone not in ZONES:
        raise IllegalMove(gettext_noop("Say the pistol (or the Bottle) and where you hit."))
    if pistol != BOTTLE and move.noise not in NOISES:
        raise IllegalMove(gettext_noop("Say the noise: Bang, Blam or Boom."))
    claim = Claim(
        move.pid,
        target,
        move.at,
        pistol,
        move.zone,
        "Crash" if pistol == BOTTLE else move.noise,
        move.law,
    )
    first = fight.claim
    if first is not None and move.at >= first.at:  # first claim by the server's clock wins (SS6)
        _fired_too(move.pid, move.at - first.at, log)
        return replace(state, fight=replace(fight, late=(*fight.late, (move.pid, move.at))))
    if first is not None:
        log(
            gettext_noop("{who}’s shot reached the server first."),
            pid=move.pid, who=log.name(move.pid),
        )  # fmt: skip
    shout = f"{claim.noise} {_zone_it(claim.zone)}"
    if pistol == BOTTLE:
        log(
            gettext_noop("{who}: “{shout}!” at {target} (the Bottle)."),
            pid=move.pid, who=log.name(move.pid), shout=shout, target=log.name(target),
        )  # fmt: skip
    else:
        log(
            gettext_noop("{who}: “{shout}!” at {target} (the {pistol} pistol)."),
            pid=move.pid, who=log.name(move.pid), shout=shout, target=log.name(target),
            pistol=PISTOL_WORDS[pistol],
        )  # fmt: skip
    late = fight.late
    if first is not None:  # the claim it beat lost the race: its lag is kept all the same
        _fired_too(first.shooter, first.at - move.at, log)
        late = (*late, (first.shooter, first.at))
    return replace(state, fight=replace(fight, claim=claim, late=late))


def _fired_too(pid: str, lag: int, log: _Log) -> None:
    """A shot that lost the race (SS6) stays on the timeline with its lag (issue 36): "Zeke
    fired too, 2 ms later" settles the argument at the table."""
    if lag == 0:
        log(
            gettext_noop(
                "{who} fired too, in the same millisecond: the first shot to reach the server "
                "counts."
            ),
            pid=pid, who=log.name(pid),
        )  # fmt: skip
        return
    log(
        gettext_noop("{who} fired too, {lag} ms later: the first shot to reach the server counts."),
        pid=pid, who=log.name(pid), lag=lag,
    )  # fmt: skip


def _zone_it(zone: str) -> str:
    return {"head": "alla testa", "arm": "al braccio", "chest": "al petto", "leg": "alla gamba"}[
        zone
    ]


def _judge(fight: Fight) -> str:
    """Who confirms or disputes a claim (SS6): the one shot; in a duel, the other duellist."""
    assert fight.claim is not None
    return fight.claim.target


_WHO_WAS_SHOT = gettext_noop("{who}, who was shot, confirms or disputes.")


def _confirm(state: State, move: m.Confirm, rng: random.Random, log: _Log) -> State:
    fight = _fighting(state, move.pid)
    if fight.claim is None or fight.disputed:
        raise IllegalMove(gettext_noop("There is no claim to confirm."))
    if move.pid != _judge(fight):
        raise IllegalMove(_WHO_WAS_SHOT, who=log.name(fight.claim.target))
    log(gettext_noop("{who} confirms the shot."), pid=move.pid, who=log.name(move.pid))
    return _resolve(state, fight, fight.claim, log)


def _dispute(state: State, move: m.Dispute, rng: random.Random, log: _Log) -> State:
    fight = _fighting(state, move.pid)
    if fight.claim is None or fight.disputed:
        raise IllegalMove(gettext_noop("There is no claim to dispute."))
    if move.pid != _judge(fight):
        raise IllegalMove(_WHO_WAS_SHOT, who=log.name(fight.claim.target))
    log(
        gettext_noop("{who} disputes the shot: {dealer}, with the dealer token, settles it."),
        pid=move.pid, who=log.name(move.pid), dealer=log.name(state.dealer),
    )  # fmt: skip
    return replace(state, fight=replace(fight, disputed=True))


def _settle(state: State, move: m.Settle, rng: random.Random, log: _Log) -> State:
    fight = state.fight
    if fight is None or not fight.disputed or fight.claim is None:
        raise IllegalMove(gettext_noop("There is no disputed shot to settle."))
    if move.pid != state.dealer:
        raise IllegalMove(
            gettext_noop("{who}, who holds the dealer token, settles it."),
            who=log.name(state.dealer),
        )
    if move.upheld:
        log(gettext_noop("{who} rules the shot good."), pid=move.pid, who=log.name(move.pid))
        return _resolve(state, fight, fight.claim, log)
    log(
        gettext_noop("{who} rules the shot no good: ready again, and fire on “Via!”."),
        pid=move.pid, who=log.name(move.pid),
    )  # fmt: skip
    return replace(
        state, fight=replace(fight, claim=None, disputed=False, ready=(), go_at=None, late=())
    )


def _resolve(state: State, fight: Fight, claim: Claim, log: _Log) -> State:
    """A fight won: the tie-break ends the game; any other pays out and ends the turn."""
    if fight.kind == Kind.TIEBREAK:
        log(
            gettext_noop("{who} wins the tie-break."), "end", claim.shooter,
            who=log.name(claim.shooter),
        )  # fmt: skip
        return replace(state, fight=None, over=True, winner=claim.shooter)
    state = _payout(state, fight, claim, log)
    log(gettext_noop("The fighters discard their cards and draw three from the deck."))
    return _end_turn(replace(state, fight=None), log)


def _payout(state: State, fight: Fight, claim: Claim, log: _Log) -> State:
    """The money and wounds of a fight (seed: "Esito del Duello", the triello, the standoff)."""
    s, h = claim.shooter, claim.target
    if fight.kind == Kind.DUEL:
        state = _gain(state, h, wounds=1)
        state, amount = _take_bounty(state, s, h)
        state = _gain(state, s, bounty=10)
        log(
            gettext_noop(
                "{who} wins the duel: {other} takes a wound; {who} takes their bounty ({money}$) "
                "and raises their own by 10$."
            ),
            "money",
            s,
            who=log.name(s), other=log.name(h), money=amount,
        )  # fmt: skip
        if claim.law and amount:
            state = _gain(state, s, loot=amount)
            log(
                gettext_noop("{who} is the Law: {money}$ more from the Bank."), "money", s,
                who=log.name(s), money=amount,
            )  # fmt: skip
    elif fight.kind == Kind.TRIELLO:
        d = fight.desperado
        others = [p for p in fight.members if p != d]
        if s == d:
            total = 0
            for p in others:
                state, amount = _take_bounty(state, d, p)
                state = _gain(state, p, wounds=1)
                total += amount
            log(
                gettext_noop(
                    "{who}, the Desperado, wins the triello and cashes both bounties ({money}$); "
                    "{names} take a wound each."
                ),
                "money",
                d,
                who=log.name(d), money=total, names=[log.name(p) for p in others],
            )  # fmt: skip
        else:
            each = state.player(d).bounty // 2 // 2
            state = _gain(state, d, bounty=-2 * each, wounds=1)
            for p in others:
                state = _gain(state, p, loot=each)
            log(
                gettext_noop(
                    "The Desperado {who} is hit and takes a wound; {names} share half the "
                    "bounty: {money}$ each."
                ),
                "money",
                who=log.name(d), names=[log.name(p) for p in others], money=each,
            )  # fmt: skip
    else:  # the standoff
        state = _gain(state, h, wounds=1)
        state, amount = _take_bounty(state, s, h)
        for p in fight.members:
            if p not in (s, h):
                state, taken = _take_from_bounty(state, s, p)
                amount += taken
        state = _gain(state, s, bounty=10)
        log(
            gettext_noop(
                "{who} wins the standoff: {other} takes a wound; {who} cashes {money}$ of "
                "bounties and raises their own by 10$."
            ),
            "money",
            s,
            who=log.name(s), other=log.name(h), money=amount,
        )  # fmt: skip
    return state


def _take_from_bounty(state: State, thief: str, victim: str) -> tuple[State, int]:
    taken = min(10, state.player(victim).bounty)
    state = _gain(state, victim, bounty=-taken)
    return _gain(state, thief, loot=taken), taken


# --- Events (SS12) --------------------------------------------------------------------------------


def _reveal(state: State, move: m.RevealEvent, rng: random.Random, log: _Log) -> State:
    if not state.options.events:
        raise IllegalMove(gettext_noop("This game is played without the event cards."))
    if state.event is not None:
        raise IllegalMove(gettext_noop("One event at a time: finish this one first."))
    if move.name not in EVENTS:
        raise IllegalMove(gettext_noop("Pick the event card that was drawn."))
    if move.name in state.events_seen:
        raise IllegalMove(
            gettext_noop("That event card was played already and is out of the game.")
        )
    if not state.has(move.drawer):
        raise IllegalMove(gettext_noop("Say who drew the event card."))
    log(
        gettext_noop("{who} draws an event: {event}. Play is held."),
        pid=move.drawer, who=log.name(move.drawer), event=EVENT_NAMES[move.name],
    )  # fmt: skip
    fight = state.fight
    if fight is not None and fight.claim is None and fight.ready:
        # SS12: a race is not run while play is held: its gunmen get Ready again after.
        fight = replace(fight, ready=(), go_at=None)
    return replace(
        state,
        fight=fight,
        event=Event(move.name, move.drawer),
        events_seen=(*state.events_seen, move.name),
    )


def _event(state: State, name: str) -> Event:
    if state.event is None or state.event.name != name:
        raise IllegalMove(gettext_noop("That is not the event being resolved."))
    return state.event


def _turkey(state: State, move: m.Turkey, rng: random.Random, log: _Log) -> State:
    event = _event(state, "turkey")
    if move.shooter and (move.shooter == event.drawer or not state.has(move.shooter)):
        raise IllegalMove(gettext_noop("The turkey is shot by one of the others."))
    for pid in (event.drawer, move.shooter) if move.shooter else ():
        state = _gain(state, pid, loot=10, wounds=-1)
        log(
            gettext_noop("{who} takes 10$ and drops a wound, if any."), "money", pid,
            who=log.name(pid),
        )  # fmt: skip
    if not move.shooter:
        log(gettext_noop("Nobody shot the turkey."))
    return replace(state, event=None)


def noon_fighters(state: State) -> tuple[str, ...]:
    """SS12: the highest bounties; when only one player holds it, the next highest join."""
    bounties = sorted({p.bounty for p in state.players}, reverse=True)
    top = tuple(p.pid for p in state.players if p.bounty == bounties[0])
    if len(top) == 1 and len(bounties) > 1:
        top += tuple(p.pid for p in state.players if p.bounty == bounties[1])
    return top


def _noon(state: State, move: m.Noon, rng: random.Random, log: _Log) -> State:
    _event(state, "noon")
    fighters = noon_fighters(state)
    if move.shooter not in fighters or move.hit not in fighters or move.shooter == move.hit:
        raise IllegalMove(gettext_noop("Say who of the highest bounties shot whom."))
    kind = Kind.DUEL if len(fighters) == 2 else Kind.STANDOFF
    claim = Claim(move.shooter, move.hit, 0, "", "", "")
    # The event's fight pays as a duel or a standoff; nobody's turn ends (SS12).
    return _payout(replace(state, event=None), Fight(kind, fighters), claim, log)


def _count(state: State, move: m.EventCount, rng: random.Random, log: _Log) -> State:
    event = state.event
    if event is None or event.name not in ("rain", "robbery"):
        raise IllegalMove(gettext_noop("No event is counting the cards now."))
    if not 0 <= move.count <= MAX_SYMBOLS:
        raise IllegalMove(gettext_noop("Your cards show 0 to 12 symbols."))
    if any(pid == move.pid for pid, _ in event.counts):
        raise IllegalMove(gettext_noop("Your count is in already."))
    counts = (*event.counts, (move.pid, move.count))
    if len(counts) < len(state.players):
        log(gettext_noop("{who} has entered their count."), pid=move.pid, who=log.name(move.pid))
        return replace(state, event=replace(event, counts=counts))
    got = dict(counts)
    shown = ", ".join(f"{log.name(p)} {got[p]}" for p in state.pids)
    if event.name == "rain":
        top = max(got.values())
        log(gettext_noop("Everyone shows their bullets: {counts}."), counts=shown)
        for pid in state.pids:
            if got[pid] == top:
                state = _gain(state, pid, loot=20)
                log(
                    gettext_noop("{who} has the most bullets and takes 20$."), "money", pid,
                    who=log.name(pid),
                )  # fmt: skip
    else:
        poorest = min(p.loot for p in state.players)
        log(gettext_noop("Everyone shows their loot symbols: {counts}."), counts=shown)
        for p in state.players:
            if p.loot == poorest:
                others = sum(n for pid, n in got.items() if pid != p.pid)
                state = _gain(state, p.pid, loot=10 * others)
                log(
                    gettext_noop("{who}, the poorest, takes {money}$."), "money", p.pid,
                    who=p.name, money=10 * others,
                )  # fmt: skip
    return replace(state, event=None)


def _take_back_event(state: State, move: m.TakeBackEvent, rng: random.Random, log: _Log) -> State:
    """SS20: the wrong card picked: the event goes back, still to come, before anyone counted
    for it (a race it stopped is readied again, as after any event)."""
    event = state.event
    if event is None:
        raise IllegalMove(gettext_noop("No event is being resolved."))
    if event.counts:
        raise IllegalMove(gettext_noop("Counts are in for this event already: resolve it."))
    seen = tuple(e for e in state.events_seen if e != event.name)
    log(
        gettext_noop("The host takes back the event: {event} was not drawn. Play goes on."),
        event=EVENT_NAMES[event.name],
    )
    return replace(state, event=None, events_seen=seen)


def _event_done(state: State, move: m.EventDone, rng: random.Random, log: _Log) -> State:
    if state.event is None or state.event.name != "other":
        raise IllegalMove(gettext_noop("This event is settled by its own moves."))
    log(gettext_noop("The event card’s instructions are done: play goes on."))
    return replace(state, event=None)


# --- Putting a mistake right (SS21) -------------------------------------------------------------

MAX_MONEY = 9999


def _correct(state: State, move: m.Correct, rng: random.Random, log: _Log) -> State:
    """SS21: the host sets a player's loot, bounty and wounds after a mistake (a move tapped
    wrong, money the table recounted). The timeline says what changed. A correction that undoes
    the end's trigger (SS13) undoes the end it set."""
    if not state.has(move.who):
        raise IllegalMove(gettext_noop("Say whose money to put right."))
    if not (0 <= move.loot <= MAX_MONEY and 0 <= move.bounty <= MAX_MONEY):
        raise IllegalMove(gettext_noop("Loot and bounty are 0 to {most}$."), most=MAX_MONEY)
    if not 0 <= move.wounds <= MAX_WOUNDS:
        raise IllegalMove(gettext_noop("Wounds are 0 to {most}."), most=MAX_WOUNDS)
    p = state.player(move.who)
    new = (move.loot, move.bounty, move.wounds)
    if (p.loot, p.bounty, p.wounds) == new:
        raise IllegalMove(gettext_noop("That is what {who} has already."), who=p.name)
    state = state.with_player(move.who, loot=move.loot, bounty=move.bounty, wounds=move.wounds)
    log(
        gettext_noop(
            "The host puts {who}’s money right: loot {loot}$ → {new_loot}$, bounty {bounty}$ → "
            "{new_bounty}$, wounds {wounds} → {new_wounds}."
        ),
        "money",
        move.who,
        who=p.name, loot=p.loot, new_loot=move.loot, bounty=p.bounty, new_bounty=move.bounty,
        wounds=p.wounds, new_wounds=move.wounds,
    )  # fmt: skip
    if state.trigger == move.who and move.loot < TARGET_LOOT and move.wounds < MAX_WOUNDS:
        log(gettext_noop("That undoes the end it had set."), "end")
        state = replace(state, trigger="", end_after="")
    return state


# --- The end (SS13, SS14) ------------------------------------------------------------------------


def _check_end(state: State, log: _Log) -> State:
    """SS13, R37: of several who reach 130$ or a third wound in one move, the first in turn
    order counting from the player whose turn it is sets the end."""
    if state.trigger or state.over:
        return state
    pids = state.pids
    start = pids.index(state.turn)
    for pid in pids[start:] + pids[:start]:
        p = state.player(pid)
        if p.loot >= TARGET_LOOT or p.wounds >= MAX_WOUNDS:
            right = state.before(p.pid)
            log(
                gettext_noop(
                    "{who} has {target}$ of loot: the game ends at the end of {other}’s turn."
                )
                if p.loot >= TARGET_LOOT
                else gettext_noop(
                    "{who} has a third wound: the game ends at the end of {other}’s turn."
                ),
                "end",
                p.pid,
                who=p.name, target=TARGET_LOOT, other=state.player(right).name,
            )  # fmt: skip
            return replace(state, trigger=p.pid, end_after=right)
    return state


def standings(state: State) -> list[Player]:
    """Best first: the score, then the bounty (SS14)."""
    return sorted(state.players, key=lambda p: (-p.score, -p.bounty))


def _finish(state: State, log: _Log) -> State:
    ranked = standings(state)
    best = ranked[0]
    tied = tuple(p.pid for p in ranked if (p.score, p.bounty) == (best.score, best.bounty))
    scores = ", ".join(f"{p.name} {p.score}$" for p in ranked)
    log(
        gettext_noop("The game is over. Loot + bounty − 10$ a wound: {scores}."),
        "end",
        scores=scores,
    )
    if len(tied) == 1:
        log(gettext_noop("{who} wins!"), "end", best.pid, who=best.name)
        return replace(state, over=True, winner=best.pid, threat=None, bluff=None, fight=None)
    log(
        gettext_noop("{names} are tied, bounty and all: a tie-break fight decides it."),
        "end", names=[state.player(p).name for p in tied],
    )  # fmt: skip
    return replace(state, fight=Fight(Kind.TIEBREAK, tied), threat=None, bluff=None)


Handler = Callable[[State, Any, random.Random, _Log], State]

_HANDLERS: dict[type[m.Move], Handler] = {
    m.Draw: _draw, m.CashLoot: _cash_loot, m.CashBounty: _cash_bounty, m.Threaten: _threaten,
    m.CallBluff: _call_bluff, m.Bullets: _bullets, m.AndYou: _and_you,
    m.TakeBackCount: _take_back_count,
    m.BountyTrio: _bounty_trio, m.Horse: _horse, m.Law: _law, m.Desperado: _desperado,
    m.Standoff: _standoff, m.CloseStandoff: _close_standoff, m.Bottle: _bottle,
    m.Ready: _ready, m.Fire: _fire, m.Confirm: _confirm, m.Dispute: _dispute,
    m.Settle: _settle, m.RevealEvent: _reveal, m.Turkey: _turkey, m.Noon: _noon,
    m.EventCount: _count, m.EventDone: _event_done, m.Correct: _correct,
    m.TakeBackEvent: _take_back_event,
}  # fmt: skip


# --- Who must act (SS19) -------------------------------------------------------------------------


def pending(state: State, pid: str) -> frozenset[str]:
    """What seat ``pid`` must do for play to go on, as the forms name the moves: the host
    offers these for a phone that is gone (SS19). The interrupts anyone *may* make (a standoff,
    the Bottle) are not here: nobody waits for them."""
    if state.over or not state.has(pid):
        return frozenset()
    threat, bluff, fight, event = state.threat, state.bluff, state.fight, state.event
    can: set[str] = set()
    if event is not None:
        if event.name in ("rain", "robbery") and pid not in dict(event.counts):
            can.add("count")
    elif fight is not None:
        if fight.disputed:
            can.update({"settle"} if pid == state.dealer else ())
        elif fight.claim is not None:
            can.update({"confirm", "dispute"} if pid == fight.claim.target else ())
        elif pid in fight.members:
            can.add(
                "fire" if fight.go_at is not None else "ready" if pid not in fight.ready else ""
            )
    elif bluff is not None:
        counting = (
            (bluff.threatener,) if state.options.roulette else (bluff.threatener, bluff.target)
        )
        if pid in counting and pid not in dict(bluff.counts):
            can.add("bullets")
    elif threat is not None:
        if threat.standoff:
            can.update({"close-standoff"} if pid == threat.first else ())
        elif pid == threat.target:
            can.update({"bluff", "and-you"})
            if not threat.forced:
                can.update({"bounty-trio", "law", "horse"})
                if not state.options.simple:
                    can.add("desperado")
    elif pid == state.turn:
        can.update({"draw", "cash", "cash-bounty", "threaten"})
    return frozenset(can - {""})


# --- Who sees what (SS15) ------------------------------------------------------------------------


@dataclass(frozen=True)
class View:
    """A viewer's state: the bluff's and the event's counts stripped but the viewer's own
    (``mine``), and who has entered one (``counted``). THE choke point for hidden numbers: a
    count reaches a screen only through here, and only its owner's, until all are in (and then
    the move that completes them reveals them in the timeline)."""

    state: State
    counted: tuple[str, ...]
    mine: int | None


def visible_state(state: State, viewer: str | None) -> View:
    """Both kinds of count are stripped (an event can be drawn while a bluff's counts wait);
    ``counted`` and ``mine`` are the event's while one holds play, else the bluff's."""
    bluff = state.bluff.counts if state.bluff is not None else ()
    event = state.event.counts if state.event is not None else ()
    if state.bluff is not None:
        state = replace(state, bluff=replace(state.bluff, counts=()))
    if state.event is not None:
        state = replace(state, event=replace(state.event, counts=()))
    counts = event if state.event is not None else bluff
    mine = next((n for pid, n in counts if viewer and pid == viewer), None)
    return View(state, tuple(pid for pid, _ in counts), mine)
