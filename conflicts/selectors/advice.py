"""The odds meter and the discard advisor (R13), against the table as it is: every other hand
still in play, at its size now, with the cards of it this viewer may see.

What the odds are made from is the viewer's ``TableView``, built by ``conflict_view`` from the
same R10 set that decides every card it shows: the hands' sizes (public), the cards of each
hand this viewer may see, and the other cards this viewer may see (their discards). No hidden
card is in it, so two viewers who may see the same cards get the same odds input, whatever the
hidden cards are. The opponents' model is stated on the Rulings page (R10, ``cards.odds``).
Values are kept in the shared cache while the input stays the same, under an HMAC of the input
(the conflict and the seat within it) and holding no card: the advice's discards are kept as
places in the hand (issue 28)."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from math import comb
from typing import Any

import numpy as np
from django.core.cache import cache
from django.utils.crypto import salted_hmac

from cards.deck import FULL_DECK, Card, format_cards
from cards.odds import Opponent, Table, discard_advice, win_probability
from conflicts.engine import conflict as engine
from conflicts.selectors.rows import Odds
from dustdevils.memo import Found

ODDS_DEALS = 20_000


ODDS_WORK = 80_000  # deals × opposing hands: bounds a crowded table's meter to ~0.1 s


ODDS_MIN_DEALS = 2_000


ADVICE_DEALS = 2_500


ADVICE_MIN_DEALS = 300


ADVICE_WORK = 400_000  # choices × deals: bounds a big hand's advice to a fraction of a second


CACHE_SECONDS = 600


@dataclass(frozen=True)
class SeatView:
    """One hand at the table as this viewer may know it: its size (public) and the cards of it
    this viewer may see."""

    pid: str
    name: str
    kind: engine.Kind
    size: int
    folded: bool
    known: tuple[Card, ...]


@dataclass(frozen=True)
class TableView:
    """The table as this viewer may know it: every hand, and the other cards this viewer may
    see (their discards). What the odds meter and the advisor are made from (R10)."""

    seats: tuple[SeatView, ...]
    out: tuple[Card, ...]

    def seat(self, pid: str) -> SeatView:
        return next(s for s in self.seats if s.pid == pid)


def table_view(state: engine.ConflictState, seen: Iterable[Card]) -> TableView:
    """The viewer's ``TableView`` from ``seen``, the cards ``visible_cards`` lets them see."""
    visible = set(seen)
    in_hands = {c for p in state.participants for c in p.hand}
    seats = tuple(
        SeatView(p.pid, p.name, p.kind, len(p.hand), p.folded, _known(p.hand, visible))
        for p in state.participants
    )
    out = tuple(c for c in FULL_DECK if c in visible and c not in in_hands)
    return TableView(seats, out)


def _known(cards: Iterable[Card], visible: set[Card]) -> tuple[Card, ...]:
    return tuple(c for c in cards if c in visible)


def odds_table(view: TableView, pid: str) -> Table:
    """The odds input for the viewer's hand ``pid``: that hand against every other hand still
    in play (its size now, its cards this viewer may see), the viewer's other cards out."""
    mine = view.seat(pid)
    opponents = tuple(
        Opponent(s.size, s.known) for s in view.seats if s.pid != pid and not s.folded
    )
    return Table(mine.known, opponents, view.out)


def reckons_against(view: TableView, pid: str) -> str:
    """What the meter reckons against, in words: "against Long Tom's 8 cards and two other
    hands"."""
    others = [s for s in view.seats if s.pid != pid and not s.folded]
    if not others:
        return "with no other hand in play"
    if len(others) <= 2:
        return "against " + " and ".join(_hand_words(s) for s in others)
    biggest = max(others, key=lambda s: s.size)
    rest = len(others) - 1
    return f"against {_hand_words(biggest)} and {_NUMBERS.get(rest, str(rest))} other hands"


_NUMBERS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


def _hand_words(seat: SeatView) -> str:
    if seat.kind == engine.Kind.STUD:
        owner = seat.name.removesuffix(" stud")  # "The Dealer's stud": the Dealer's
        if owner.startswith("The "):
            owner = "the " + owner.removeprefix("The ")
        return f"{_possessive(owner)} {seat.size}-card stud"
    return f"{_possessive(seat.name)} {seat.size} card{'' if seat.size == 1 else 's'}"


def _possessive(name: str) -> str:
    return name if name.endswith("'s") else f"{name}'" if name.endswith("s") else f"{name}'s"


def _table_key(conflict_id: int, pid: str, table: Table) -> str:
    # An HMAC under the secret key, not a plain hash: whoever can list the cache's keys (a
    # shared Redis) cannot test guesses of a hand against them (issue 19 #4). The text is the
    # whole odds input: a value is only ever that input's.
    # The conflict and the seat are inside the HMAC too: a key names neither (issue 28).
    opponents = ";".join(f"{o.size}:{format_cards(o.known)}" for o in table.opponents)
    texts = f"{conflict_id}|{pid}|{format_cards(table.hand)}|{format_cards(table.out)}|{opponents}"
    digest = salted_hmac("conflicts.odds", texts, algorithm="sha256").hexdigest()[:32]
    return f"conflict-odds:{digest}"


def hand_odds(
    conflict_id: int, p: engine.Participant, opposing: TableView, show: Any, *,
    compute: bool = True,
) -> Odds:  # fmt: skip
    """The odds meter for this viewer's hand ``p``, cached while its odds input stays the
    same. Only what this viewer may see goes in (R10). Without ``compute`` (a move's screens:
    its answer, the live streams) only what is already known: otherwise the meter is
    ``pending`` and the screen asks the advisor's own fragment for it (issue 38: the odds never
    hold up a move's screens)."""
    table = odds_table(opposing, p.pid)
    hands = max(1, len(table.opponents))
    deals = min(ODDS_DEALS, max(ODDS_MIN_DEALS, ODDS_WORK // hands))
    found = _estimate(_table_key(conflict_id, p.pid, table), table, deals, compute=compute)
    percent, deals = found if found is not None else (0, 0)
    return Odds(
        percent=percent,
        deals=deals,
        opposing=len(table.opponents),
        against=reckons_against(opposing, p.pid),
        pending=found is None,
    )


def _rng() -> np.random.Generator:
    return np.random.default_rng(secrets.randbits(64))  # seeded from the OS


def in_event_loop() -> bool:
    """Whether this code runs in an event loop's thread (a live screen's render): there, no
    call may wait on the network — it would hold up every stream of the process (issue 29)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


# Remembered in the process too: a live screen is rendered in the event loop at every move of
# its table, and asking Redis there would make every screen of the process wait on the network
# (and on a Redis outage's timeout): in the loop the shared cache is neither read nor written,
# and nothing is worked out (25-40 ms of numpy: issue 38). The key holds the whole odds input,
# which holds only cards this viewer may see (R10).
_ODDS: Found[tuple[int, int]] = Found(4096)


def _estimate(key: str, table: Table, deals: int, *, compute: bool) -> tuple[int, int] | None:
    found = _ODDS.get(key)
    loop = in_event_loop()
    if found is None and not loop:
        found = cache.get(key)
    if found is None and compute and not loop:
        estimate = win_probability(table, deals=deals, rng=_rng())
        found = (estimate.percent, estimate.deals)
        cache.set(key, found, CACHE_SECONDS)
    if found is None:
        return None
    _ODDS.put(key, (int(found[0]), int(found[1])))
    return (int(found[0]), int(found[1]))


def remember_known_odds(conflict_id: int, pid: str, opposing: TableView) -> None:
    """Hand ``pid``'s odds against ``opposing``, remembered here if the shared cache holds
    them (never worked out: outside the event loop, after a move's screens went out)."""
    table = odds_table(opposing, pid)
    key = _table_key(conflict_id, pid, table)
    if _ODDS.get(key) is None and not in_event_loop():
        found = cache.get(key)
        if found is not None:
            _ODDS.put(key, (int(found[0]), int(found[1])))


# The advice found in the shared cache (or worked out here), remembered in the process: in the
# event loop only this is asked (issue 29). A miss is not remembered: the advice endpoint may
# work it out later; the screen says it is on its way, and the page asks that endpoint.
_ADVICE: Found[list[tuple[list[int], int]]] = Found(4096)


def hand_advice(
    conflict_id: int, p: engine.Participant, opposing: TableView, limit: int, *, compute: bool
) -> list[tuple[list[Card], int]] | None:
    """The discard advisor's top three for this hand and limit (R13), against the same
    opponents as the meter, or None when it is not cached and ``compute`` is off."""
    table = odds_table(opposing, p.pid)
    key = f"{_table_key(conflict_id, p.pid, table)}:advice:{limit}"
    # Each option's discards as places in the hand, never as cards (issue 28): the shared
    # cache holds no card of anyone's hand.
    cached = _ADVICE.get(key)
    if cached is None and not in_event_loop():
        cached = cache.get(key)
        if cached is not None:
            _ADVICE.put(key, cached)
    if cached is None and compute:
        # R10: a deck run dry is refilled from the discards; the estimate draws only unseen
        # cards, so it weighs at most as many discards as there are unseen cards to spare.
        capped = max(0, min(limit, len(table.hand), len(table.unseen()) - table.unknown))
        n_choices = sum(comb(len(table.hand), k) for k in range(capped + 1))
        deals = max(ADVICE_MIN_DEALS, min(ADVICE_DEALS, ADVICE_WORK // n_choices))
        options = discard_advice(table, capped, deals=deals, rng=_rng())
        place = {c: n for n, c in enumerate(table.hand)}
        cached = [([place[c] for c in o.discards], o.estimate.percent) for o in options[:3]]
        cache.set(key, cached, CACHE_SECONDS)
        _ADVICE.put(key, cached)
    if cached is None:
        return None
    hand = table.hand
    return [([hand[n] for n in places if 0 <= n < len(hand)], pct) for places, pct in cached]
