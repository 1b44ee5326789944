"""Turns: the face-down draw, the three cases, follow-ups, the duel, and what can happen at any
time (telling, leaving, the Unwanted card) (see ``game``)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

from cards.deck import BLACK_JOKER, Card
from cards.errors import IllegalMove

from . import tables
from .state import (
    ENDING_TEXT,
    MAX_NAME,
    MAX_TEXT,
    Answer,
    Draw,
    Duel,
    Ending,
    Entry,
    FollowUp,
    Leave,
    LowerUnwanted,
    Outcome,
    Pass,
    Phase,
    Player,
    Prompt,
    RaiseUnwanted,
    SaloonState,
    Shoot,
    Step,
    Strike,
    Tell,
    Turn,
    _need,
)

# --- Turns ---------------------------------------------------------------------------------


def _next_drawer(state: SaloonState, after: str) -> str:
    """The next player clockwise from ``after`` who still holds cards, not the Doomed (with
    only one such player left, ``after`` draws again)."""
    for p in (*state.clockwise_from(after), state.player(after)):
        if p.hand and p.pid != state.doomed:
            return p.pid
    raise AssertionError("nobody left to draw")  # the endings come first (see _end_turn)


def _duel_due(state: SaloonState) -> bool:
    """The third ending: two players still in, three cards between them."""
    left = state.in_game()
    return len(left) == 2 and sum(len(p.hand) for p in left) == 3


def _start_turn(state: SaloonState, drawer: str) -> Outcome:
    if _duel_due(state):
        other = next(p for p in state.in_game() if p.pid != state.doomed)
        doomed = state.player(state.doomed)
        state = replace(
            state, phase=Phase.DUEL, turn=None, duel=Duel(target=doomed.pid, shooter=other.pid)
        )
        return Outcome(
            state,
            (
                Entry(
                    "rule",
                    f"Only {doomed.role} and {other.role} are still in, with three cards between "
                    f"them: they come out of the saloon to a gun duel. {doomed.name} lays their "
                    f"two cards face down; {other.name} shoots first.",
                ),
            ),
        )
    return Outcome(replace(state, turn=Turn(drawer=drawer)), ())


def _turn(state: SaloonState, step: Step) -> Turn:
    _need(state, Phase.PLAY)
    turn = state.turn
    assert turn is not None
    if turn.step != step:
        raise IllegalMove(_WAITING[turn.step](state, turn))
    return turn


_WAITING: dict[Step, Callable[[SaloonState, Turn], str]] = {
    Step.DRAW: lambda s, t: f"It is {s.player(t.drawer).name}’s turn to draw from the Doomed.",
    Step.ASK: lambda s, t: f"Waiting for {s.player(t.drawer).name} to point the finger.",
    Step.CLEAR: lambda s, t: f"Waiting for {s.player(t.drawer).name} to clear their name.",
    Step.ANSWER: lambda s, t: f"Waiting for {s.player(t.answerer).name} to answer.",
    Step.FOLLOW_UP: lambda s, t: (
        f"It is {s.player(t.offer).name}’s turn to ask a follow-up question or pass."
    ),
}


def _draw(state: SaloonState, move: Draw, rng: random.Random) -> Outcome:
    turn = _turn(state, Step.DRAW)
    if move.pid != turn.drawer:
        raise IllegalMove(_WAITING[Step.DRAW](state, turn))
    doomed = state.player(state.doomed)
    drawer = state.player(move.pid)
    if not 0 <= move.position < len(doomed.hand):
        raise IllegalMove(
            f"There is no card there: the Doomed holds {len(doomed.hand)} cards "
            f"(positions 1 to {len(doomed.hand)})."
        )
    card = doomed.hand[move.position]
    rest = doomed.hand[: move.position] + doomed.hand[move.position + 1 :]
    if card == BLACK_JOKER:
        return _black_joker(state, drawer, doomed, rest, rng)
    remaining = list(rest)
    rng.shuffle(remaining)  # S2
    state = replace(state, shown=(*state.shown, card), run=()).with_player(
        replace(doomed, hand=tuple(remaining))
    )
    match = next((c for c in drawer.hand if c.rank == card.rank), None)
    final = tuple(remaining) == (BLACK_JOKER,)
    if match is not None:
        drawer = replace(drawer, hand=tuple(c for c in drawer.hand if c != match))
        state = replace(state, discards=(*state.discards, match, card)).with_player(drawer)
        turn = replace(turn, step=Step.ASK, card=card, table=2, final=final)
        text = (
            f"{drawer.name} draws the {card} from {doomed.name}: it pairs with their {match}. "
            f"They discard the pair and point the finger at the Doomed."
        )
    else:
        drawer = replace(drawer, hand=(*drawer.hand, card))
        state = state.with_player(drawer)
        turn = replace(turn, step=Step.CLEAR, card=card, table=3, final=final)
        text = (
            f"{drawer.name} draws the {card} from {doomed.name}: no pair. They keep it and clear "
            f"their name in the eyes of Death."
        )
    entries = [Entry("rule", text, drawer.pid)]
    if not drawer.hand:
        entries.append(
            Entry(
                "rule",
                f"{drawer.name} has no cards left: {drawer.role} escapes Death and is safe "
                "(no more draws; follow-up questions still welcome).",
                drawer.pid,
            )
        )
    if final:
        entries.append(
            Entry(
                "rule",
                f"{doomed.name} is left with only the black joker: Death has decided. The last "
                "interaction is played normally.",
                doomed.pid,
            )
        )
    return Outcome(replace(state, turn=turn), tuple(entries))


def _black_joker(
    state: SaloonState, drawer: Player, doomed: Player, rest: tuple[Card, ...], rng: random.Random
) -> Outcome:
    hand = [*drawer.hand, BLACK_JOKER]
    rng.shuffle(hand)  # S2
    run = (*(state.run or (doomed.pid,)), drawer.pid)
    state = (
        replace(state, doomed=drawer.pid, red_joker=drawer.pid, run=run)
        .with_player(replace(doomed, hand=rest))
        .with_player(replace(drawer, hand=tuple(hand)))
    )
    entries = [
        Entry(
            "rule",
            f"{drawer.name} draws the black joker: {drawer.role} is the new Doomed, and the red "
            f"joker moves in front of them. {doomed.name} says: “{tables.RITUAL}”",
            drawer.pid,
        )
    ]
    # The first ending: back to the player it was first drawn from, having passed through the
    # hands of all the players still at the table (a bounce straight back is not round it).
    if drawer.pid == run[0] and {p.pid for p in state.in_game()} <= set(run):
        state = replace(state, phase=Phase.OVER, turn=None, ending=Ending.DEATH_LEAVES)
        entries.append(Entry("rule", ENDING_TEXT[Ending.DEATH_LEAVES]))
        return Outcome(state, tuple(entries))
    started = _start_turn(state, _next_drawer(state, drawer.pid))
    return Outcome(started.state, (*entries, *started.entries))


def _subject(state: SaloonState, move: Prompt, turn: Turn) -> tuple[str, str]:
    """The words that fill "***", and the player whose character they are (if any)."""
    if not tables.needs_subject(turn.table, _rank(turn)):
        return "", ""
    if move.subject_pid:
        if not state.has(move.subject_pid):
            raise IllegalMove("That player is not at this table.")
        if move.subject_pid == turn.drawer:
            raise IllegalMove("Fill the gap with another character than your own.")
        if turn.table == 2 and move.subject_pid == state.doomed:
            raise IllegalMove("The question is for the Doomed: fill the gap with someone else.")
        return state.player(move.subject_pid).role, move.subject_pid
    subject = " ".join(move.subject.split())[:MAX_NAME]
    if not subject:
        raise IllegalMove(
            "Fill the “***” with a character: another player’s, a secondary character from "
            "table 1, or a new one."
        )
    return subject, ""


def _rank(turn: Turn) -> int:
    assert turn.card is not None
    return turn.card.rank


def _text(text: str) -> str:
    return text.strip()[:MAX_TEXT]


def _prompt(state: SaloonState, move: Prompt, rng: random.Random) -> Outcome:
    _need(state, Phase.PLAY)
    turn = state.turn
    assert turn is not None
    if turn.step not in (Step.ASK, Step.CLEAR):
        raise IllegalMove(_WAITING[turn.step](state, turn))
    if move.pid != turn.drawer:
        raise IllegalMove(_WAITING[turn.step](state, turn))
    subject, subject_pid = _subject(state, move, turn)
    brought_up = _brought_up(state, move.brought_up, turn, by_cue=True)
    cue = tables.filled(turn.table, _rank(turn), subject)
    drawer = state.player(turn.drawer)
    turn = replace(turn, subject=subject, subject_pid=subject_pid, brought_up=brought_up)
    if turn.table == 2:
        doomed = state.player(state.doomed)
        entry = Entry("question", f"{drawer.name} asks {doomed.name}: “{cue}”", drawer.pid)
        turn = replace(turn, step=Step.ANSWER, asker=drawer.pid, answerer=doomed.pid)
        return Outcome(replace(state, turn=turn), (replace(entry, said=_text(move.text)),))
    entry = Entry("cue", f"{drawer.name} clears their name: “{cue}”", drawer.pid, _text(move.text))
    turn = replace(turn, answerer=drawer.pid)
    return _offer_next(replace(state, turn=turn), (entry,))


def _answer(state: SaloonState, move: Answer, rng: random.Random) -> Outcome:
    turn = _turn(state, Step.ANSWER)
    if move.pid != turn.answerer:
        raise IllegalMove(_WAITING[Step.ANSWER](state, turn))
    who = state.player(move.pid)
    entry = Entry("answer", f"{who.name} answers.", who.pid, _text(move.text))
    if move.brought_up:
        if turn.asked:
            raise IllegalMove(
                "Only the answer to the initial question brings a character up for the extra "
                "question; follow-ups do not."
            )
        added = _brought_up(state, move.brought_up, turn, by_cue=False)
        state = replace(state, turn=replace(turn, brought_up=(*turn.brought_up, *added)))
        named = state.player(move.brought_up)
        entry = replace(entry, text=f"{who.name} answers, bringing up {named.role}.")
    return _offer_next(state, (entry,))


def _brought_up(state: SaloonState, pid: str, turn: Turn, *, by_cue: bool) -> tuple[str, ...]:
    """R34: a player whose character the cue (without "***") or the answer brings up."""
    if not pid:
        return ()
    if not state.has(pid):
        raise IllegalMove("That player is not at this table.")
    if by_cue and tables.needs_subject(turn.table, _rank(turn)):
        raise IllegalMove("The “***” names the character this brings up.")
    if pid in (turn.drawer, turn.answerer, state.doomed if turn.table == 2 else ""):
        raise IllegalMove("Bring up another player’s character than the ones speaking.")
    return (pid,)


def _eligible(state: SaloonState, turn: Turn, pid: str) -> bool:
    p = state.player(pid)
    return pid not in (turn.drawer, turn.answerer) and not p.left


def _offer_next(state: SaloonState, entries: tuple[Entry, ...]) -> Outcome:
    """S3: the next follow-up offer, the extra question, or the end of the turn."""
    turn = state.turn
    assert turn is not None
    if not turn.extra and len(turn.asked) < 2:
        for p in state.clockwise_from(turn.drawer):
            if _eligible(state, turn, p.pid) and p.pid not in turn.offered:
                turn = replace(turn, step=Step.FOLLOW_UP, offer=p.pid)
                return Outcome(replace(state, turn=turn), entries)
    # R34: the extra question (up to three in all) for a player whose character was brought
    # up and who has not asked one — a pass is not a question asked.
    if len(turn.asked) < 3:
        for pid in dict.fromkeys(p for p in (turn.subject_pid, *turn.brought_up) if p):
            if pid not in turn.asked and pid not in turn.declined and _eligible(state, turn, pid):
                turn = replace(turn, step=Step.FOLLOW_UP, offer=pid, extra=True)
                return Outcome(replace(state, turn=turn), entries)
    ended = _end_turn(state)
    return Outcome(ended.state, entries + ended.entries)


def _follow_up(state: SaloonState, move: FollowUp, rng: random.Random) -> Outcome:
    turn = _turn(state, Step.FOLLOW_UP)
    if move.pid != turn.offer:
        if move.pid in turn.asked:
            raise IllegalMove("You have already asked your follow-up question this turn.")
        raise IllegalMove(_WAITING[Step.FOLLOW_UP](state, turn))
    who = state.player(move.pid)
    answerer = state.player(turn.answerer)
    kind = "an extra" if turn.extra else "a follow-up"
    turn = replace(
        turn,
        step=Step.ANSWER,
        asker=who.pid,
        asked=(*turn.asked, who.pid),
        offered=turn.offered if turn.extra else (*turn.offered, who.pid),
    )
    entry = Entry("follow_up", f"{who.name} asks {answerer.name} {kind} question.", who.pid)
    return Outcome(replace(state, turn=turn), (replace(entry, said=_text(move.text)),))


def _pass(state: SaloonState, move: Pass, rng: random.Random) -> Outcome:
    turn = _turn(state, Step.FOLLOW_UP)
    if move.pid != turn.offer:
        raise IllegalMove(_WAITING[Step.FOLLOW_UP](state, turn))
    if turn.extra:
        turn = replace(turn, declined=(*turn.declined, move.pid), offer="")
        passed = Entry("rule", f"{state.player(move.pid).name} passes.")
        return _offer_next(replace(state, turn=turn), (passed,))
    turn = replace(turn, offered=(*turn.offered, move.pid), offer="")
    return _offer_next(replace(state, turn=turn), ())


def _end_turn(state: SaloonState) -> Outcome:
    turn = state.turn
    assert turn is not None
    if turn.final:
        doomed = state.player(state.doomed)
        state = replace(state, phase=Phase.OVER, turn=None, ending=Ending.TAKEN, dead=doomed.pid)
        return Outcome(state, (Entry("rule", ENDING_TEXT[Ending.TAKEN], doomed.pid),))
    return _start_turn(state, _next_drawer(state, turn.drawer))


# --- The duel ------------------------------------------------------------------------------


def _shoot(state: SaloonState, move: Shoot, rng: random.Random) -> Outcome:
    _need(state, Phase.DUEL)
    duel = state.duel
    assert duel is not None
    shooter, target = state.player(duel.shooter), state.player(duel.target)
    if move.pid != shooter.pid:
        raise IllegalMove(f"It is {shooter.name}’s shot.")
    if not 0 <= move.position < len(target.hand):
        raise IllegalMove("Choose one of the two cards face down.")
    card = target.hand[move.position]
    rest = target.hand[: move.position] + target.hand[move.position + 1 :]
    state = replace(state, shown=(*state.shown, card))
    if card != BLACK_JOKER:
        match = next(c for c in shooter.hand if c.rank == card.rank)
        state = (
            replace(
                state,
                phase=Phase.OVER,
                ending=Ending.SHOT,
                dead=target.pid,
                discards=(*state.discards, match, card),
            )
            .with_player(replace(shooter, hand=tuple(c for c in shooter.hand if c != match)))
            .with_player(replace(target, hand=rest))
        )
        text = (
            f"{shooter.name} draws the {card}, which pairs with their {match}: the shot hits "
            f"{target.role}. They discard the last pair of the game."
        )
        return Outcome(
            state, (Entry("rule", text, shooter.pid), Entry("rule", ENDING_TEXT[Ending.SHOT]))
        )
    hand = [*shooter.hand, BLACK_JOKER]
    rng.shuffle(hand)  # S2: the cards are shuffled and laid face down
    state = (
        replace(state, doomed=shooter.pid, red_joker=shooter.pid)
        .with_player(replace(target, hand=rest))
        .with_player(replace(shooter, hand=tuple(hand)))
    )
    text = f"{shooter.name} draws the black joker: the shot misses. {shooter.name} describes how."
    entries = [Entry("rule", text, shooter.pid)]
    if duel.shots + 1 >= 2:
        state = replace(state, phase=Phase.OVER, ending=Ending.VANISHED)
        entries.append(Entry("rule", ENDING_TEXT[Ending.VANISHED]))
        return Outcome(state, tuple(entries))
    state = replace(state, duel=Duel(target=shooter.pid, shooter=target.pid, shots=1))
    entries.append(
        Entry(
            "rule",
            f"The roles are reversed: {shooter.name} lays their two cards face down and "
            f"{target.name} shoots.",
        )
    )
    return Outcome(state, tuple(entries))


# --- At any time ---------------------------------------------------------------------------


def _tell(state: SaloonState, move: Tell, rng: random.Random) -> Outcome:
    p = state.player(move.pid)
    text = _text(move.text)
    if not text:
        raise IllegalMove("Write what you tell the table.")
    duel = state.duel
    duelists = () if duel is None else (duel.target, duel.shooter)
    if state.ending in (Ending.SHOT, Ending.VANISHED) and move.pid not in duelists:
        # The duellists describe their shots (and the one hit says farewell); nobody else.
        raise IllegalMove("The game ends without anyone adding anything else.")
    return Outcome(state, (Entry("tell", f"{p.name} tells.", p.pid, text),))


def _leave(state: SaloonState, move: Leave, rng: random.Random) -> Outcome:
    _need(state, Phase.PLAY, Phase.DUEL)
    p = state.player(move.pid)
    if p.hand:
        raise IllegalMove("Only a safe character (no cards left) can leave the game.")
    if p.left:
        raise IllegalMove("You have already left the saloon.")
    state = state.with_player(replace(p, left=True))
    turn = state.turn
    if turn is not None and turn.step == Step.FOLLOW_UP and turn.offer == p.pid:
        passed = _pass(state, Pass(p.pid), rng)
        state = passed.state
        return Outcome(
            state,
            (Entry("rule", f"{p.role.capitalize()} leaves the saloon.", p.pid), *passed.entries),
        )
    return Outcome(state, (Entry("rule", f"{p.role.capitalize()} leaves the saloon.", p.pid),))


def _raise(state: SaloonState, move: RaiseUnwanted, rng: random.Random) -> Outcome:
    p = state.player(move.pid)
    if state.unwanted:
        raise IllegalMove(f"The Unwanted card is already up: {state.player(state.unwanted).name}.")
    return Outcome(
        replace(state, unwanted=p.pid),
        (
            Entry(
                "rule",
                f"{p.name} raises the Unwanted card. Play pauses: talk together about how to "
                "change or delete what was said so that it is acceptable to everyone.",
                p.pid,
            ),
        ),
    )


def _lower(state: SaloonState, move: LowerUnwanted, rng: random.Random) -> Outcome:
    if not state.unwanted:
        raise IllegalMove("The Unwanted card is not up.")
    raiser = state.player(state.unwanted)
    if move.host:  # R34: the host may lower it too, and the timeline says so
        text = (
            f"{move.host}, the host, lowers the Unwanted card raised by {raiser.name}: "
            "play goes on."
        )
        return Outcome(replace(state, unwanted=""), (Entry("rule", text, move.pid),))
    if move.pid != state.unwanted:
        raise IllegalMove(
            f"Only {raiser.name}, who raised it, lowers it (or the host, for the table)."
        )
    return Outcome(
        replace(state, unwanted=""),
        (Entry("rule", f"{raiser.name} lowers the Unwanted card: play goes on.", raiser.pid),),
    )


def _strike(state: SaloonState, move: Strike, rng: random.Random) -> Outcome:
    """S4: the seed raises the card "to change or delete what was said"; while it is up, the
    one who raised it (for the table) or whoever said the words strikes them."""
    p = state.player(move.pid)
    if not state.unwanted:
        raise IllegalMove(
            "Words are struck from the story only while the Unwanted card is up: raise it first."
        )
    if move.pid not in (state.unwanted, move.author):
        raise IllegalMove(
            f"Only {state.player(state.unwanted).name}, who raised the Unwanted card, or whoever "
            "said these words can strike them."
        )
    turn = state.turn
    entries = [Entry("rule", f"{p.name} strikes words from the story.", p.pid)]
    if move.prompt and turn is not None and turn.table:
        # R34: the turn's own question or cue struck is asked again, with a new "***": the
        # answers and follow-ups that hung on it go with it.
        again = Turn(
            drawer=turn.drawer, step=Step.ASK if turn.table == 2 else Step.CLEAR,
            card=turn.card, table=turn.table, final=turn.final,
        )  # fmt: skip
        state = replace(state, turn=again)
        who = state.player(turn.drawer).name
        entries.append(Entry("rule", f"{who} asks again, with a new “***”.", turn.drawer))
    return Outcome(state, tuple(entries))
