"""Set-up: archetypes, the deal, the initial pairs, the re-deal, the Gaze of Death; and
playing on "a year and a day" later (see ``game``)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from cards.deck import BLACK_JOKER, RED_JOKER, Card, Suit, format_cards
from cards.errors import IllegalMove

from . import tables
from .state import (
    FACE_CARDS,
    MAX_NAME,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NUMBERED,
    SUIT_ORDER,
    Continue,
    Discard,
    Entry,
    NameCharacter,
    Outcome,
    Phase,
    PickArchetype,
    Player,
    SaloonState,
    SwapWith,
    _need,
)
from .turns import _next_drawer, _start_turn

# --- Set-up --------------------------------------------------------------------------------


def new_game(
    seats: Sequence[tuple[str, str]], rng: random.Random, *, pick: bool = False
) -> Outcome:
    """A game for 3–5 players, ``seats`` clockwise as (pid, name). Face cards are shuffled and
    each player draws one (or, by the alternative rule, ``pick``s one); then the numbered cards
    are dealt out."""
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise IllegalMove("Death Enters the Saloon is for 3 to 5 players.")
    pids = [pid for pid, _ in seats]
    if len(set(pids)) != len(pids) or not all(pids):
        raise IllegalMove("Each player sits at the table once.")
    faces = list(FACE_CARDS)
    rng.shuffle(faces)
    players = [Player(pid, name) for pid, name in seats]
    entries: list[Entry] = []
    if not pick:
        players = [replace(p, archetype=faces[i]) for i, p in enumerate(players)]
        faces = faces[len(players) :]
        entries += [
            Entry("rule", f"{p.name} draws {p.archetype}: {p.role.removeprefix('the ')}.", p.pid)
            for p in players
        ]
    state = SaloonState(
        phase=Phase.ARCHETYPES,
        players=tuple(players),
        aside=(*faces, *NUMBERED, BLACK_JOKER, RED_JOKER),
    )
    if pick:
        entries.append(Entry("rule", "Each player picks the archetype they wish to play."))
        return Outcome(state, tuple(entries))
    dealt = _deal(state, rng)
    return Outcome(dealt.state, (*entries, *dealt.entries))


def _deal(state: SaloonState, rng: random.Random) -> Outcome:
    """Hand out every numbered card (A, 10…2), from the first seat round: someone may get an
    extra card. Everyone then discards their pairs."""
    cards = [c for c in state.aside if c in NUMBERED]
    cards += [c for c in state.discards if c in NUMBERED]
    for p in state.players:
        cards += [c for c in p.hand if c in NUMBERED]
    cards.sort(key=lambda c: c.index)
    rng.shuffle(cards)
    n = len(state.players)
    players = tuple(
        replace(p, hand=tuple(cards[i::n]), discarded=False) for i, p in enumerate(state.players)
    )
    aside = tuple(c for c in state.aside if c not in NUMBERED)
    jokers = tuple(c for c in (BLACK_JOKER, RED_JOKER) if c not in aside)
    dealt = replace(
        state,
        phase=Phase.DISCARD,
        players=players,
        aside=aside + jokers,
        discards=(),
        doomed="",
        red_joker="",
        turn=None,
        duel=None,
        run=(),
        shown=(),
        deal=state.deal + 1,
    )
    sizes = ", ".join(f"{p.name} {len(p.hand)}" for p in players)
    return Outcome(
        dealt,
        (Entry("rule", f"The numbered cards are dealt out ({sizes}): discard your pairs."),),
    )


def proposed_keep(hand: Sequence[Card]) -> tuple[Card, ...]:
    """Of each three of a kind, the card the seed recommends keeping: the highest suit
    (hearts > diamonds > clubs > spades)."""
    by_rank: dict[int, list[Card]] = {}
    for c in hand:
        by_rank.setdefault(c.rank, []).append(c)
    return tuple(
        max(group, key=lambda c: SUIT_ORDER[Suit(c.suit)])
        for _, group in sorted(by_rank.items())
        if len(group) == 3
    )


def after_discard(hand: Sequence[Card], keep: Sequence[Card] = ()) -> tuple[Card, ...]:
    """The hand once its pairs are discarded: a pair goes, a three of a kind keeps one card
    (``keep``'s, or the proposal), four of a kind is two pairs."""
    counts = Counter(c.rank for c in hand)
    keeping = {c.rank: c for c in proposed_keep(hand)}
    for c in keep:
        if c not in hand:
            raise IllegalMove(f"You do not hold the {c}.")
        if counts[c.rank] != 3:
            raise IllegalMove(f"The {c} is not part of a three of a kind: it is no choice to make.")
        keeping[c.rank] = c
    if len({c.rank for c in keep}) != len(keep):
        raise IllegalMove("Keep one card of each three of a kind.")
    return tuple(
        c for c in hand if counts[c.rank] == 1 or (counts[c.rank] == 3 and keeping[c.rank] is c)
    )


def lowest_card(hand: Sequence[Card]) -> Card:
    """The lowest card by the seed's order: A > 10 > … > 2, then hearts > diamonds > clubs >
    spades."""
    return min(hand, key=lambda c: (c.rank, SUIT_ORDER[Suit(c.suit)]))


def _discard(state: SaloonState, move: Discard, rng: random.Random) -> Outcome:
    _need(state, Phase.DISCARD)
    p = state.player(move.pid)
    if p.discarded:
        raise IllegalMove("You have already discarded your pairs.")
    kept = after_discard(p.hand, move.keep)
    gone = tuple(c for c in p.hand if c not in kept)
    state = replace(state, discards=state.discards + gone).with_player(
        replace(p, hand=kept, discarded=True)
    )
    what = f"discards {format_cards(gone)}" if gone else "has no pair to discard"
    entries = [Entry("rule", f"{p.name} {what}: {len(kept)} cards left.", p.pid)]
    if not kept:
        # Not named: they are dealt again at once, and may be anyone's hidden cards then.
        entries = [Entry("rule", f"{p.name} discards all {len(gone)} cards.", p.pid)]
        # The seed: whoever must discard every card causes a new deal and starts as the Doomed.
        entries.append(
            Entry(
                "rule",
                f"{p.name} discarded every card: all cards are withdrawn and dealt again, and "
                f"{p.role} will start the game as the Doomed.",
                p.pid,
            )
        )
        redealt = _deal(replace(state, appointed=p.pid), rng)
        return Outcome(redealt.state, (*entries, *redealt.entries))
    if all(q.discarded for q in state.players):
        gazed = _choose_doomed(state, rng)
        return Outcome(gazed.state, (*entries, *gazed.entries))
    return Outcome(state, tuple(entries))


def _choose_doomed(state: SaloonState, rng: random.Random) -> Outcome:
    """The Gaze of Death: the most cards; ties by the lowest card shown, then the lowest suit.
    After a re-deal the appointed player takes the hand with the most cards."""
    top = max(len(p.hand) for p in state.players)
    most = [p for p in state.players if len(p.hand) == top]
    if state.appointed:
        appointed = state.player(state.appointed)
        if len(appointed.hand) == top:
            return _gaze(state, appointed.pid, rng)
        if len(most) == 1:
            swapped = _swap(state, appointed.pid, most[0].pid)
            gazed = _gaze(swapped.state, appointed.pid, rng)
            return Outcome(gazed.state, swapped.entries + gazed.entries)
        names = " or ".join(p.name for p in most)
        return Outcome(
            replace(state, phase=Phase.SWAP),
            (Entry("rule", f"{appointed.name} chooses whose hand to take: {names}."),),
        )
    if len(most) == 1:
        return _gaze(state, most[0].pid, rng)
    lows = [(p, lowest_card(p.hand)) for p in most]
    shown = tuple(c for _, c in lows)
    doomed = min(lows, key=lambda pc: (pc[1].rank, SUIT_ORDER[Suit(pc[1].suit)]))[0]
    said = ", ".join(f"{p.name} {c}" for p, c in lows)
    entry = Entry("rule", f"Tied with {top} cards, each shows their lowest card: {said}.")
    gazed = _gaze(replace(state, shown=state.shown + shown), doomed.pid, rng)
    return Outcome(gazed.state, (entry, *gazed.entries))


def _swap(state: SaloonState, a: str, b: str) -> Outcome:
    pa, pb = state.player(a), state.player(b)
    state = state.with_player(replace(pa, hand=pb.hand)).with_player(replace(pb, hand=pa.hand))
    return Outcome(state, (Entry("rule", f"{pa.name} and {pb.name} exchange hands.", a),))


def _swap_with(state: SaloonState, move: SwapWith, rng: random.Random) -> Outcome:
    _need(state, Phase.SWAP)
    if move.pid != state.appointed:
        raise IllegalMove(f"{state.player(state.appointed).name} chooses whose hand to take.")
    top = max(len(p.hand) for p in state.players)
    if not state.has(move.other) or len(state.player(move.other).hand) != top:
        raise IllegalMove(f"Take the hand of a player with the most cards ({top}).")
    swapped = _swap(state, move.pid, move.other)
    gazed = _gaze(swapped.state, move.pid, rng)
    return Outcome(gazed.state, swapped.entries + gazed.entries)


def _gaze(state: SaloonState, pid: str, rng: random.Random) -> Outcome:
    p = state.player(pid)
    hand = [*p.hand, BLACK_JOKER]
    rng.shuffle(hand)  # S2
    state = replace(
        state,
        aside=tuple(c for c in state.aside if c not in (BLACK_JOKER, RED_JOKER)),
        doomed=pid,
        red_joker=pid,
        appointed="",
        phase=Phase.PLAY,
    ).with_player(replace(p, hand=tuple(hand)))
    entries = [
        Entry(
            "rule",
            f"{p.name} adds the black joker to their hand and places the red joker in front of "
            f"them: {p.role} is the Doomed. “{tables.RITUAL}”",
            pid,
        )
    ]
    started = _start_turn(state, _next_drawer(state, pid))
    return Outcome(started.state, (*entries, *started.entries))


def _pick_archetype(state: SaloonState, move: PickArchetype, rng: random.Random) -> Outcome:
    _need(state, Phase.ARCHETYPES)
    p = state.player(move.pid)
    if p.archetype is not None:
        raise IllegalMove("You already have your archetype.")
    if move.card not in FACE_CARDS:
        raise IllegalMove("An archetype is a face card: a king, a queen or a jack.")
    if move.card not in state.aside:
        raise IllegalMove(f"{tables.archetype_of(move.card)} is taken: pick another.")
    p = replace(p, archetype=move.card)
    state = replace(state, aside=tuple(c for c in state.aside if c != move.card)).with_player(p)
    entries = [Entry("rule", f"{p.name} picks {move.card}: {p.role.removeprefix('the ')}.", p.pid)]
    if all(q.archetype is not None for q in state.players):
        dealt = _deal(state, rng)
        return Outcome(dealt.state, (*entries, *dealt.entries))
    return Outcome(state, tuple(entries))


def _name(state: SaloonState, move: NameCharacter, rng: random.Random) -> Outcome:
    p = state.player(move.pid)
    name = " ".join(move.name.split())[:MAX_NAME]
    if name == p.character:
        raise IllegalMove("That is already your character’s name.")
    before = p.role
    p = replace(p, character=name)
    text = f"{before} is called {name}." if name else f"{before} goes by {p.role} again."
    return Outcome(state.with_player(p), (Entry("rule", text[0].upper() + text[1:], p.pid),))


def _continue(state: SaloonState, move: Continue, rng: random.Random) -> Outcome:
    """ "Continue Playing After the Ending": a new archetype for the one taken by Death (an
    unused one, picked or drawn at random), every numbered card collected and dealt out again,
    pairs discarded, and the most cards is the Doomed."""
    _need(state, Phase.OVER)
    entries = [Entry("rule", tables.YEAR_AND_A_DAY)]
    if state.dead:
        dead = state.player(state.dead)
        free = [c for c in FACE_CARDS if c in state.aside]
        if move.card is not None and move.card not in free:
            raise IllegalMove("Pick an archetype nobody plays.")
        card = move.card if move.card is not None else rng.choice(free)
        assert dead.archetype is not None
        aside = (*(c for c in state.aside if c != card), dead.archetype)
        dead = replace(dead, archetype=card, character="")
        state = replace(state, aside=aside).with_player(dead)
        entries.append(Entry("rule", f"{dead.name} now plays {dead.role}.", dead.pid))
    elif move.card is not None:
        raise IllegalMove("Nobody was taken by Death: everyone keeps their character.")
    state = replace(
        state,
        players=tuple(replace(p, left=False) for p in state.players),
        ending=None,
        dead="",
        duel=None,
        appointed="",
        year=state.year + 1,
        shown=(),
    )
    dealt = _deal(state, rng)  # the jokers go aside until the Gaze
    return Outcome(dealt.state, (*entries, *dealt.entries))
