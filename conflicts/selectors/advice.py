"""The odds meter and the discard advisor (R13): worked out from the viewer's own hand and its
own discards alone — never another hand (R10) — and kept in the shared cache while the hand
stays the same."""

from __future__ import annotations

import random
import secrets
from math import comb
from typing import Any

from django.core.cache import cache
from django.utils.crypto import salted_hmac

from cards.deck import Card, format_cards
from cards.odds import discard_advice, win_probability
from conflicts.engine import conflict as engine
from conflicts.selectors.rows import Odds
from dustdevils.memo import bounded

ODDS_DEALS = 3_000


ADVICE_DEALS = 1_500


ADVICE_MIN_DEALS = 300


ADVICE_WORK = 120_000  # choices × deals: bounds a big hand's advice to a few seconds


CACHE_SECONDS = 600


def opposing_size(state: engine.ConflictState) -> int:
    """The odds meter plays against the Dealer's stud as dealt, or a 5-card stud."""
    for p in state.participants:
        if p.kind == engine.Kind.STUD and not p.folded:
            return max(1, engine.deal_size(p)[0])
    return 5


def _hand_key(conflict_id: int, p: engine.Participant, opposing: int) -> str:
    # An HMAC under the secret key, not a plain hash: whoever can list the cache's keys (a
    # shared Redis) cannot test guesses of a hand against them (issue 19 #4).
    texts = f"{format_cards(p.hand)}|{format_cards(p.discarded)}"
    digest = salted_hmac("conflicts.odds", texts, algorithm="sha256").hexdigest()[:32]
    return f"conflict-odds:{conflict_id}:{p.pid}:{digest}:{opposing}"


def hand_odds(conflict_id: int, p: engine.Participant, opposing: int, show: Any) -> Odds:
    """The odds meter, cached while the hand stays the same. Only this hand and its own
    discards go in — never another hand (R10)."""
    percent, deals = _estimate(_hand_key(conflict_id, p, opposing), p.hand, p.discarded, opposing)
    return Odds(percent=percent, deals=deals, opposing=opposing)


# Remembered in the process too: a live screen is rendered in the event loop at every move of
# its table, and asking Redis there would make every screen of the process wait on the network
# (and on a Redis outage's timeout). The key holds the hand's own cards: a value is only ever
# that hand's (R10).
@bounded(4096)
def _estimate(
    key: str, hand: tuple[Card, ...], known: tuple[Card, ...], opposing: int
) -> tuple[int, int]:
    cached: tuple[int, int] | None = cache.get(key)
    if cached is None:
        rng = random.Random(secrets.randbits(64))  # seeded from the OS
        estimate = win_probability(
            hand, opposing_cards=opposing, deals=ODDS_DEALS, rng=rng, known=known
        )
        cached = (estimate.percent, estimate.deals)
        cache.set(key, cached, CACHE_SECONDS)
    return (int(cached[0]), int(cached[1]))


def hand_advice(
    conflict_id: int, p: engine.Participant, opposing: int, limit: int, *, compute: bool
) -> list[tuple[list[Card], int]] | None:
    """The discard advisor's top three for this hand and limit (R13), or None when it is not
    cached and ``compute`` is off. ~1,500 deals, fewer for a big hand with a big limit."""
    key = f"{_hand_key(conflict_id, p, opposing)}:advice:{limit}"
    cached: list[tuple[list[str], int]] | None = cache.get(key)
    if cached is None and compute:
        capped = min(limit, len(p.hand))
        n_choices = sum(comb(len(p.hand), k) for k in range(capped + 1))
        deals = max(ADVICE_MIN_DEALS, min(ADVICE_DEALS, ADVICE_WORK // n_choices))
        rng = random.Random(secrets.randbits(64))  # seeded from the OS
        options = discard_advice(
            p.hand, capped, opposing_cards=opposing, deals=deals, rng=rng, known=p.discarded
        )
        cached = [([c.text for c in o.discards], o.estimate.percent) for o in options[:3]]
        cache.set(key, cached, CACHE_SECONDS)
    if cached is None:
        return None
    by_text = {c.text: c for c in p.hand}
    return [([by_text[t] for t in texts], pct) for texts, pct in cached]
