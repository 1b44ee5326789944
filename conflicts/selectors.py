"""Reads for the conflict screens. ``conflict_view`` is the ONE place a template gets cards from.

It asks the engine's choke point, ``visible_cards`` (R10), which cards this viewer may see, and
every card it puts into the context goes through that set: other hands appear as counts, the
deck never appears, and the shuffle's salt and order only once the conflict is over. The odds
meter and the discard advisor are computed from the viewer's own cards alone.
"""

from __future__ import annotations

import json
import random
import secrets
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from math import comb
from typing import Any

from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import connection
from django.db.models import QuerySet
from django.urls import reverse
from django.utils.crypto import salted_hmac
from django.utils.safestring import SafeString

from campaigns.models import Campaign, Membership
from characters.models import Character
from characters.rules import ATTRIBUTE_LABELS, ATTRIBUTE_SUITS, ATTRIBUTES
from conflicts import fragments
from conflicts.engine import conflict as engine
from conflicts.engine.cards import Card, commitment, format_cards
from conflicts.engine.hands import HandValue, evaluate, lay_choices
from conflicts.engine.odds import discard_advice, win_probability
from conflicts.engine.serial import state_from_data
from conflicts.forms import SIDE_LABELS
from conflicts.models import Conflict, Seat
from conflicts.services import (
    controlled_pids_among,
    read_conflict_row,
    read_seats_for_screens,
    with_seats_stamp,
)
from conflicts.timelines import Lines, entries, lines_from_json, timelines

Phase = engine.Phase
ODDS_DEALS = 3_000
ADVICE_DEALS = 1_500
ADVICE_MIN_DEALS = 300
ADVICE_WORK = 120_000  # choices × deals: bounds a big hand's advice to a few seconds
CACHE_SECONDS = 600

PHASE_LABELS = {
    Phase.SIZING: "Sizing the Deal",
    Phase.DRAW: "The Draw",
    Phase.LAYING: "Called: choose your lays",
    Phase.RESOLUTION: "Lays on the table",
    Phase.DONE: "Over",
    Phase.FOLDED: "Folded",
}
KIND_LABELS = {
    engine.Kind.PC: "Player character",
    engine.Kind.NPC: "Important NPC",
    engine.Kind.STUD: "Stud hand",
}
_SUIT_NAMES = {"♣": "clubs", "♦": "diamonds", "♥": "hearts", "♠": "spades"}
_RANK_NAMES = {"J": "jack", "Q": "queen", "K": "king", "A": "ace"}


def display_name(user: User | None) -> str:
    if user is None:
        return ""
    return user.first_name or user.get_username()


def conflicts_of(campaign: Campaign) -> QuerySet[Conflict]:
    return campaign.conflicts.select_related("session").order_by("-created_at")


class FreshKey:
    """Renders as a new idempotency key each time a template prints it: one key per form, so
    a double click repeats its own key and never another form's."""

    def __str__(self) -> str:
        return fragments.fresh_key()


# --- What the context holds ----------------------------------------------------------------------


@dataclass(frozen=True)
class CardView:
    text: str
    rank: str
    suit: str
    red: bool
    name: str


def card_view(card: Card) -> CardView:
    if card.is_joker:
        colour = "red" if card.is_red else "black"
        return CardView(card.text, "★", "", card.is_red, f"{colour} joker")
    suit = card.text[-1]
    rank = card.rank_text
    name = f"{_RANK_NAMES.get(rank, rank)} of {_SUIT_NAMES[suit]}"
    return CardView(card.text, rank, suit, card.is_red, name)


@dataclass
class LayOption:
    cards: list[CardView]
    description: str
    notes: list[str]
    best: bool


@dataclass
class AttributeRow:
    name: str
    label: str
    suit: str
    current: int
    rating: int
    placed: int = 0  # Difficulty placed here (or the default to place, R9)


@dataclass
class OwedRow:
    pid: str
    name: str
    points: int
    placeable: int
    attributes: list[AttributeRow]
    source: str
    allocation: dict[str, int] | None
    allocation_text: str
    default: dict[str, int]


@dataclass
class Odds:
    percent: int
    deals: int
    opposing: int
    advice: list[tuple[list[CardView], int]] = field(default_factory=list)
    advice_limit: int = 0
    advice_pending: bool = False

    @property
    def deals_text(self) -> str:
        return f"{self.deals:,}"


@dataclass
class HandRow:
    """One participant as this viewer may see it: cards only when ``visible_cards`` allows."""

    pid: str
    name: str
    kind: str
    kind_label: str
    side: str
    side_label: str
    goal: str
    player: str
    character_id: int | None
    count: int
    deal_count: int
    deal_lines: str
    proposal: str
    approved: str
    approve_initial: dict[str, Any]
    devil_rating: int
    folded: bool
    drew: bool
    lay_chosen: bool
    last_stand: bool
    awards: int
    extra_card: bool
    extra_draw: bool
    mine: bool
    cards: list[CardView]
    discarded: list[CardView]
    lay: list[CardView]
    lay_text: str
    winner: bool = False
    narrator: bool = False
    lay_options: list[LayOption] = field(default_factory=list)
    knacks: list[tuple[int, str, int]] = field(default_factory=list)
    draw_base: int = 0
    # R13: the knack for the Draw, as named and (or) approved; the discards it allows now
    knack: str = ""
    knack_rating: int = 0
    knack_approved: bool = False
    draw_limit: int = 0
    odds: Odds | None = None
    owed: OwedRow | None = None
    character: Character | None = None
    attributes: list[AttributeRow] = field(default_factory=list)
    chips: int = 0
    may_bid: bool = False
    may_answer: bool = False
    may_withdraw: str = ""  # R16: "bid" or "answer" while the bidding is open
    restore_options: list[AttributeRow] = field(default_factory=list)


# --- What a screen reads from the database ------------------------------------------------------


@dataclass(frozen=True)
class TableData:
    """Everything the conflict screens read from the database, loaded at once in a fixed number
    of queries (however many hands). Holds every hand's cards in ``conflict.state``: it never
    reaches a template itself — ``conflict_view`` turns it into ONE viewer's context (R10).

    The live streams load it once per table and version in each process and share it among
    that table's screens (``conflicts.streams``), so eight screens cost one read, not eight."""

    conflict: Conflict
    seats: list[Seat]
    events: Lines
    continued_by: list[Conflict]
    roles: dict[int, str]  # user id -> Membership.Role of everyone in the campaign

    @property
    def version(self) -> int:
        return int(self.conflict.version)

    @cached_property
    def state(self) -> engine.ConflictState:
        """The engine's state, parsed once per read (frozen: every screen may share it)."""
        return state_from_data(self.conflict.state)

    @cached_property
    def timeline_html(self) -> SafeString:
        """The timeline, once per read: the same for every screen (public words only)."""
        return fragments.timeline_html(self.events)


def table_data(conflict: Conflict, *, roles: bool = False) -> TableData:
    """Read the rest of ``conflict``'s screens: the seats (no query when this process has them
    at their stamp, or a move just read them), the timeline lines not read yet and, with
    ``roles``, the members (neither queried apart when the conflict was read with
    ``services.read_conflict_row`` on PostgreSQL)."""
    read_seats_for_screens(conflict)  # none if the move left them, or unchanged since (stamp)
    seats = list(conflict.seats.all())
    over = state_phase(conflict) in (Phase.DONE, Phase.FOLDED)
    return TableData(
        conflict=conflict,
        seats=seats,
        events=timeline(conflict),
        continued_by=list(conflict.continued_by.all()) if over else [],
        roles=_roles(conflict) if roles else {},
    )


def _roles(conflict: Conflict) -> dict[int, str]:
    """User id -> role of everyone in the conflict's campaign: from the conflict's own query
    when it was read by ``services.read_conflict_row`` (PostgreSQL), else in a query of its own."""
    read: str | None = conflict.__dict__.get("roles_json")
    if read is not None:
        return {int(user_id): role for user_id, role in json.loads(read)}
    # Every move's answer reads them (after its commit): SQL made once, not a query compiled
    # each time (``Membership.objects.filter(campaign_id=...).values_list("user_id", "role")``).
    with connection.cursor() as cursor:
        cursor.execute(_roles_sql(), [conflict.campaign_id])
        return dict(cursor.fetchall())


@lru_cache(maxsize=1)
def _roles_sql() -> str:
    q = connection.ops.quote_name
    return (
        f"SELECT {q('user_id')}, {q('role')} FROM {q(Membership._meta.db_table)} "
        f"WHERE {q('campaign_id')} = %s"
    )


def load_table(conflict_id: int) -> TableData | None:
    """The conflict and everything its screens read, with the campaign's members (for a stream
    to check its viewer is still one); None when the conflict is gone."""
    if connection.vendor == "postgresql":  # one statement, its SQL made once (services)
        conflict = read_conflict_row(conflict_id, campaign=True)
        return None if conflict is None else table_data(conflict, roles=True)
    found = list(
        with_seats_stamp(Conflict.objects.select_related("campaign", "session"))
        .filter(pk=conflict_id)
        .order_by()[:1]  # by its key: no ORDER BY to compile at every read of a busy table
    )
    return table_data(found[0], roles=True) if found else None


@dataclass(frozen=True)
class ConflictLinks:
    """The conflict's own URLs, for the templates (reversed once per conflict, not once per
    link per render: a busy table renders its screens many times a second)."""

    detail: str
    table: str
    version: str
    advice: str
    again: str
    rulings: str


@lru_cache(maxsize=4096)  # the script prefix is the deployment's: the same for every request
def conflict_links(slug: str, conflict_id: int) -> ConflictLinks:
    def url(name: str) -> str:
        return reverse(f"conflicts:{name}", args=(slug, conflict_id))

    return ConflictLinks(
        detail=url("detail"), table=url("table"), version=url("version"), advice=url("advice"),
        again=url("again"), rulings=reverse("conflicts:rulings"),
    )  # fmt: skip


def state_phase(conflict: Conflict) -> Phase:
    return Phase(conflict.state.get("phase", Phase.SIZING.value))


# --- The one choke point -------------------------------------------------------------------------


def conflict_view(
    conflict: Conflict,
    membership: Membership,
    *,
    as_table: bool = False,
    advice_limit: int | None = None,
    advise: bool = False,
    data: TableData | None = None,
) -> dict[str, Any]:
    """Everything a screen shows this viewer. ``as_table``: the shared screen — public facts
    only, whoever looks (even the Dealer). ``advise``: work out the discard advice now (for
    ``advice_limit`` discards, or the best knack's). ``data``: the table as already read (a
    live stream's shared read); otherwise it is read here. Makes no query with ``data``."""
    if data is None:
        data = table_data(conflict)
    state = data.state
    dealer = membership.is_dealer and not as_table
    mine = set() if as_table else controlled_pids_among(data.seats, membership)
    seen = engine.visible_cards(state, mine, dealer=dealer)  # R10

    def show(cards: Iterable[Card] | None) -> list[CardView]:
        return [card_view(c) for c in cards or () if c in seen]

    seats = {s.pid: s for s in data.seats}
    over = state.phase in (Phase.DONE, Phase.FOLDED)
    revealed = state.phase in (Phase.RESOLUTION, Phase.DONE)
    rows = [
        _row(state, p, seats.get(p.pid), show, seen, dealer=dealer, mine=p.pid in mine)
        for p in state.participants
    ]
    by_pid = {r.pid: r for r in rows}
    owed = [_owed_row(state, o, seats, by_pid) for o in state.owed] if revealed else []
    for o in owed:
        by_pid[o.pid].owed = o
    opposing = _opposing_size(state)
    for row in rows:
        if row.mine and not dealer and not as_table:
            _enrich_own(state, row, opposing, conflict.pk, advice_limit, advise, show)
        elif dealer and not as_table and row.kind != engine.Kind.STUD:
            # The Dealer runs the NPCs and approves every hand's knack (R13).
            _enrich_npc(row, state.participant(row.pid))
    _narration_rights(state, rows)
    role = "table" if as_table else "dealer" if dealer else "player" if mine else "watcher"
    return {
        "conflict": conflict,
        "campaign": conflict.campaign,
        "membership": membership,
        "role": role,
        "state_phase": state.phase.value,
        "phase_label": PHASE_LABELS[state.phase],
        "version": conflict.version,
        "stakes": state.stakes,
        "hands": rows,
        "my_hands": [r for r in rows if r.mine],
        "dealer_hands": [r for r in rows if r.kind != engine.Kind.PC],
        "sides": _sides(rows),
        "next_step": _next_step(state, rows) if dealer else _player_step(state, rows, role),
        "narration": _narration(state, by_pid, revealed, show),
        "owed": owed,
        "winner": by_pid[state.winner].name if state.winner in by_pid else "",
        "commitment": state.commitment,
        "audit": _audit(state) if over and state.commitment else None,
        "recovery": _recovery(state, by_pid),
        "stakes_to": _stakes_to(state) if state.phase == Phase.DONE else [],
        "events": data.events,
        # Shared pieces: the same HTML for every screen with the same facts (fragments.py).
        "timeline_html": data.timeline_html,
        "roster_html": fragments.roster_html(_sides(rows), state.phase.value, revealed),
        "fresh_key": FreshKey(),
        "links": conflict_links(conflict.campaign.slug, conflict.pk),
        # R20: "Deal again" stays in the campaign, so the last hand's page is known unread.
        "previous_url": (
            conflict_links(conflict.campaign.slug, conflict.previous_id).detail
            if conflict.previous_id
            else ""
        ),
        "is_over": over,
        "revealed": revealed,
        "continued_by": data.continued_by,
        "override_sources": [r for r in rows if r.lay and not r.folded] if dealer else [],
        "override_targets": (
            [r for r in rows if r.kind != engine.Kind.STUD and not r.folded] if dealer else []
        ),
    }


def _row(
    state: engine.ConflictState,
    p: engine.Participant,
    seat: Seat | None,
    show: Any,
    seen: set[Card],
    *,
    dealer: bool,
    mine: bool,
) -> HandRow:
    character = seat.character if seat else None
    count, lines = engine.deal_size(p)
    private = dealer or mine  # the sizing's numbers: the Dealer's and the hand's own player's
    revealed = state.phase in (Phase.RESOLUTION, Phase.DONE)
    lay_visible = bool(p.lay) and all(c in seen for c in p.lay or ())
    lay_public = lay_visible and (revealed or private)
    return HandRow(
        pid=p.pid,
        name=p.name,
        kind=p.kind.value,
        kind_label=KIND_LABELS[p.kind],
        side=p.side,
        side_label=SIDE_LABELS.get(p.side, p.side.title()),
        goal=seat.goal if seat else "",
        player=display_name(character.player if character else None),
        character_id=character.pk if character else None,
        count=len(p.hand),
        deal_count=count if (p.attributes or p.kind == engine.Kind.STUD) else 0,
        deal_lines=deal_text(lines, count) if private else "",
        proposal=_sizing_text(*p.proposal) if p.proposal else "",
        approved=_sizing_text(p.attributes, p.trait, p.devil) if p.attributes else "",
        approve_initial=_approve_initial(p) if dealer else {},
        devil_rating=p.devil_rating if private else 0,
        folded=p.folded,
        drew=p.drew,
        lay_chosen=p.lay_chosen,
        last_stand=p.last_stand,
        awards=p.awards,
        extra_card=p.extra_card,
        extra_draw=p.extra_draw,
        mine=mine,
        cards=show(p.hand),
        discarded=show(p.discarded),
        lay=show(p.lay) if lay_public else [],
        lay_text=evaluate(p.lay or ()).describe() if lay_public else "",
        winner=state.winner == p.pid,
        narrator=state.narrator == p.pid,
        character=character,
        attributes=_attribute_rows(character, p.currents) if private and p.is_character else [],
        lay_options=_lay_options(p, show) if private and state.phase == Phase.LAYING else [],
    )


def deal_text(lines: Iterable[engine.DealLine], total: int) -> str:
    """R11: e.g. "Hand 3 + Eye 4 + Trait 1 = 8"."""
    parts = []
    for i, line in enumerate(lines):
        amount = f"−{-line.amount}" if line.amount < 0 else str(line.amount)
        parts.append(f"{'' if i == 0 else '+ '}{line.label} {amount}")
    return f"{' '.join(parts)} = {total}" if parts else ""


def _sizing_text(attributes: tuple[str, str] | None, trait: bool, devil: int = 0) -> str:
    text = " + ".join(ATTRIBUTE_LABELS[a] for a in attributes or ())
    if trait:
        text += " + a trait"
    if devil:
        text += ", Devil for" if devil > 0 else ", Devil against"
    return text


def _approve_initial(p: engine.Participant) -> dict[str, Any]:
    if p.attributes:
        return {"attributes": list(p.attributes), "trait": p.trait, "devil": p.devil}
    if p.proposal:
        return {"attributes": list(p.proposal[0]), "trait": p.proposal[1], "devil": 0}
    return {"attributes": [], "trait": False, "devil": 0}


def _lay_options(p: engine.Participant, show: Any) -> list[LayOption]:
    """R4: the best poker lay first, then the alternatives, each saying why you might."""
    if p.folded or not p.hand:
        return []
    choices = lay_choices(p.hand)
    best = choices[0]
    out = [LayOption(show(best.laid), best.describe(), _lay_notes(best, None), True)]
    for value in choices[1:]:
        out.append(LayOption(show(value.laid), value.describe(), _lay_notes(value, best), False))
    return out


def _lay_notes(value: HandValue, best: HandValue | None) -> list[str]:
    """What a lay is for: the best poker hand, or the narration card it keeps (R8); and the
    Difficulty it deals if it wins (R9)."""
    notes = []
    if best is None:
        notes.append("best poker hand")
    elif value.high_card_key > best.high_card_key and value.high_card is not None:
        notes.append(f"keeps {value.high_card} for narration")
    notes.append(f"deals {value.difficulty} Difficulty")
    return notes


def _attribute_rows(character: Character | None, currents: Mapping[str, int]) -> list[AttributeRow]:
    return [
        AttributeRow(
            a,
            ATTRIBUTE_LABELS[a],
            ATTRIBUTE_SUITS[a],
            character.current(a) if character else currents.get(a, 0),
            character.rating(a) if character else currents.get(a, 0),
        )
        for a in ATTRIBUTES
    ]


def _enrich_own(
    state: engine.ConflictState,
    row: HandRow,
    opposing: int,
    conflict_id: int,
    limit: int | None,
    advise: bool,
    show: Any,
) -> None:
    """The player's own numbers, knacks and the advisers — from their own cards only.

    The odds meter is cheap and always there. The discard advisor can take seconds for a big
    hand, so it is computed only when asked for (``advise``: the advice endpoint, which the
    page loads by itself) or when already cached."""
    p = state.participant(row.pid)
    character = row.character
    row.chips = character.chips if character else 0
    row.knacks = _knacks(character)
    _knack_rows(row, p)
    if p.kind != engine.Kind.PC or p.folded or not p.hand:
        return
    if state.phase not in (Phase.DRAW, Phase.LAYING):
        return
    row.odds = _odds(conflict_id, p, opposing, show)
    if state.phase == Phase.DRAW and not p.drew:
        best_knack = max((k[2] for k in row.knacks), default=0)
        if p.knack_approved:  # R13: what the Dealer approved, unless the player asks what-if
            best_knack = p.knack_rating
        chosen = min(9, (best_knack if limit is None else max(0, limit)) + row.draw_base)
        row.odds.advice_limit = chosen
        row.odds.advice_pending = True
        advice = _advice(conflict_id, p, opposing, chosen, compute=advise)
        if advice is not None:
            row.odds.advice = [(show(cards), pct) for cards, pct in advice]
            row.odds.advice_pending = False


def _enrich_npc(row: HandRow, p: engine.Participant) -> None:
    row.knacks = _knacks(row.character)
    _knack_rows(row, p)


def _knack_rows(row: HandRow, p: engine.Participant) -> None:
    """R13, R17: the knack named or approved for the Draw, and the discards allowed now."""
    row.draw_base = p.devil_rating if p.last_stand else 0  # R17: + the Devil on the last stand
    row.knack, row.knack_rating, row.knack_approved = p.knack, p.knack_rating, p.knack_approved
    row.draw_limit = (p.knack_rating if p.knack_approved else 0) + row.draw_base


def _knacks(character: Character | None) -> list[tuple[int, str, int]]:
    if character is None:
        return []
    # Sorted here, not by the query: the knacks come prefetched with the seats (table_data).
    knacks = sorted(character.knacks.all(), key=lambda k: (-k.rating, k.name))
    return [(k.pk, k.name, k.rating) for k in knacks]


def _opposing_size(state: engine.ConflictState) -> int:
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


def _odds(conflict_id: int, p: engine.Participant, opposing: int, show: Any) -> Odds:
    """The odds meter, cached while the hand stays the same. Only this hand and its own
    discards go in — never another hand (R10)."""
    key = _hand_key(conflict_id, p, opposing)
    cached: tuple[int, int] | None = _recent_odds.get(key)
    if cached is None:
        cached = cache.get(key)
    if cached is None:
        rng = random.Random(secrets.randbits(64))  # seeded from the OS
        estimate = win_probability(
            p.hand, opposing_cards=opposing, deals=ODDS_DEALS, rng=rng, known=p.discarded
        )
        cached = (estimate.percent, estimate.deals)
        cache.set(key, cached, CACHE_SECONDS)
    _recent_odds.put(key, cached)
    return Odds(percent=cached[0], deals=cached[1], opposing=opposing)


class _Recent:
    """A small per-process LRU in front of the shared cache: a live screen is rendered in the
    event loop at every move of its table, and asking Redis there would make every screen of
    the process wait on the network (and on a Redis outage's timeout). The key is the hand's
    own cards (``_hand_key``): a value is only ever that hand's (R10)."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._items: OrderedDict[str, tuple[int, int]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> tuple[int, int] | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: str, value: tuple[int, int]) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


_recent_odds = _Recent(4096)


def _advice(
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


def _owed_row(
    state: engine.ConflictState,
    o: engine.Owed,
    seats: Mapping[str, Seat],
    by_pid: Mapping[str, HandRow],
) -> OwedRow:
    p = state.participant(o.pid)
    character = seats[o.pid].character if o.pid in seats else None
    allocation = dict(o.allocation) if o.allocation is not None else None
    default = allocation if allocation is not None else engine.default_allocation(o, p.currents)
    rows = [r for r in _attribute_rows(character, p.currents) if r.name in o.attributes]
    for r in rows:
        r.placed = default.get(r.name, 0)
    text = ", ".join(f"{ATTRIBUTE_LABELS[a]} −{n}" for a, n in (allocation or {}).items())
    return OwedRow(
        pid=o.pid,
        name=p.name,
        points=o.points,
        placeable=engine.placeable(o, p.currents),
        attributes=rows,
        source=by_pid[o.source].name if o.source in by_pid else o.source,
        allocation=allocation,
        allocation_text=text or ("nothing to lose" if allocation is not None else ""),
        default=default,
    )


def _narration_rights(state: engine.ConflictState, rows: list[HandRow]) -> None:
    """R16/R17: who may bid now, whether the holder may answer, and who may restore a point."""
    if state.phase != Phase.RESOLUTION:
        return
    for row in rows:
        if not row.mine or row.kind != engine.Kind.PC or row.folded:
            continue
        if not state.bids_closed and row.pid == state.narrator:
            row.may_answer = bool(state.bids)
            row.may_withdraw = "answer" if state.answer else ""
        elif not state.bids_closed:
            row.may_bid = not state.bidders or row.pid in state.bidders
            row.may_withdraw = "bid" if any(b.pid == row.pid for b in state.bids) else ""
        if row.owed and state.narrator == row.pid and state.narration_paid and not state.restored:
            row.restore_options = [a for a in row.owed.attributes if row.owed.default.get(a.name)]


def _narration(
    state: engine.ConflictState, by_pid: Mapping[str, HandRow], revealed: bool, show: Any
) -> dict[str, Any] | None:
    if not revealed or state.narrator is None:
        return None
    holder = state.participant(state.narrator)
    top = max((b.amount for b in state.bids), default=0)
    high = evaluate(holder.lay or ()).high_card
    shown = show([high] if high is not None else [])
    return {
        "holder": holder.name,
        "high_card": shown[0] if shown else None,
        "bids": [(by_pid[b.pid].name, b.amount) for b in state.bids],
        "top": top,
        "answer": state.answer,
        "closed": state.bids_closed,
        "paid": state.narration_paid,
        "restored": state.restored,
        "last_stand_only": bool(state.bidders),
    }


def _sides(rows: list[HandRow]) -> list[tuple[str, list[HandRow]]]:
    out: dict[str, list[HandRow]] = {}
    for row in rows:
        out.setdefault(row.side_label, []).append(row)
    return list(out.items())


def _audit(state: engine.ConflictState) -> dict[str, Any]:
    """R10: only once the conflict is over — the salt, the order, and the check."""
    order = format_cards(state.order)
    return {
        "salt": state.salt,
        "order": order,
        "payload": f"{state.salt}:{order}",
        "recomputed": commitment(state.order, state.salt),
        "matches": commitment(state.order, state.salt) == state.commitment,
    }


def _stakes_to(state: engine.ConflictState) -> list[str]:
    """R18: every player character on the winner's side who did not fold."""
    if not state.stakes or state.winner is None:
        return []
    side = state.participant(state.winner).side
    return [p.name for p in state.pcs if p.side == side and not p.folded]


def _recovery(state: engine.ConflictState, by_pid: Mapping[str, HandRow]) -> str:
    if state.recovery is None:
        return ""
    pid, points = state.recovery
    name = by_pid[pid].name if pid in by_pid else pid
    return f"{name} is recovering {points} point{'s' if points != 1 else ''} (R22)."


def _next_step(state: engine.ConflictState, rows: list[HandRow]) -> dict[str, str]:
    """The Dealer's clear next step, with the action it points at."""
    live = [r for r in rows if not r.folded]
    if state.phase == Phase.SIZING:
        for r in live:
            if r.kind == engine.Kind.PC and not r.approved and not r.proposal:
                return {"text": f"Waiting for {r.name}'s proposal", "action": "approve"}
        for r in live:
            if r.kind != engine.Kind.STUD and not r.approved:
                return {"text": f"Set {r.name}'s Deal", "action": "approve"}
        return {"text": "Deal", "action": "deal"}
    if state.phase == Phase.DRAW:
        asking = [p.name for p in state.in_play if p.knack and not p.knack_approved and not p.drew]
        if asking:  # R13: a knack named waits for the Dealer's word
            return {"text": f"Approve {asking[0]}'s knack", "action": "approve-knack"}
        # R13: the Call waits for them
        if who := ", ".join(p.name for p in engine.unsettled(state)):
            return {"text": f"Waiting for {who} to draw", "action": "call-now", "waiting": who}
        return {"text": "Call", "action": "call"}
    if state.phase == Phase.LAYING:
        waiting = [r.name for r in live if r.kind != engine.Kind.STUD and not r.lay_chosen]
        if waiting:
            return {"text": f"Waiting for {', '.join(waiting)} to lay", "action": "reveal"}
        return {"text": "Reveal", "action": "reveal"}
    if state.phase == Phase.RESOLUTION:
        if not state.bids_closed:
            return {"text": "Close the bids", "action": "close-bids"}
        names = [state.participant(o.pid).name for o in state.owed if o.allocation is None]
        if names:
            return {"text": f"Waiting for {', '.join(names)} to place Difficulty", "action": ""}
        return {"text": "Finish", "action": "finish"}
    if state.phase == Phase.DONE:
        return {"text": "Over. Deal again?", "action": "again"}
    return {"text": "Folded: the conflict stays unresolved", "action": ""}


def _player_step(state: engine.ConflictState, rows: list[HandRow], role: str) -> dict[str, str]:
    """What the table waits for, from a player's seat."""
    if role == "table":
        return {"text": PHASE_LABELS[state.phase], "action": ""}
    mine = [r for r in rows if r.mine and not r.folded]
    for r in mine:
        if state.phase == Phase.SIZING and not r.approved:
            text = "Waiting for the Dealer to approve" if r.proposal else "Propose your Deal"
            return {"text": text, "action": "propose"}
        if state.phase == Phase.DRAW and not r.drew:
            if r.knack and not r.knack_approved:  # R13: the Dealer decides
                return {"text": f"Waiting for the Dealer to approve {r.knack}", "action": "draw"}
            return {"text": "Discard and draw, or stand", "action": "draw"}
        if state.phase == Phase.LAYING and not r.lay_chosen:
            return {"text": "Choose your lay", "action": "lay"}
        if state.phase == Phase.RESOLUTION and r.owed and r.owed.allocation is None:
            return {"text": "Place your Difficulty", "action": "allocate"}
    waits = {
        Phase.SIZING: "Waiting for the Deal",
        Phase.DRAW: "Waiting for the Call",
        Phase.LAYING: "Waiting for the reveal",
        Phase.RESOLUTION: "Waiting for the Dealer to finish",
        Phase.DONE: "Over",
        Phase.FOLDED: "Folded: the conflict stays unresolved",
    }
    return {"text": waits[state.phase], "action": ""}


def timeline(conflict: Conflict) -> Lines:
    """The timeline's lines, in order: plain values (read at every move of a busy table, and
    kept with the shared reads, so no model instances). Only the lines this process has not
    read yet are read (``conflicts.timelines``): from the conflict's own query when it was
    read by ``services.read_conflict_row`` (PostgreSQL), else in a query of their own."""
    lines: Lines | None = conflict.__dict__.get("timeline_lines")  # a move's, as committed
    if lines is not None:
        return lines
    # Inside a transaction the lines read may not be committed yet: used, not kept.
    keep = not connection.in_atomic_block
    read: str | None = conflict.__dict__.get("events_json")
    if read is not None:
        after = conflict.__dict__["events_after"]
        lines = timelines.merge(conflict.pk, after, lines_from_json(read), keep=keep)
        if lines is not None:
            return lines
    for after in (timelines.last_seq(conflict.pk), 0):  # 0: what was known is forgotten
        rows = (
            conflict.events.filter(seq__gt=after)
            .order_by("seq")
            .values_list(
                "seq", "version", "text", "created_at", "actor__first_name", "actor__username"
            )
        )
        lines = timelines.merge(conflict.pk, after, entries(rows), keep=keep)
        if lines is not None:
            return lines
    raise AssertionError("a read of every line always merges")


def events_at(conflict: Conflict, version: int) -> str:
    """What a move did, in the timeline's words (the message after a move)."""
    texts = conflict.events.filter(version=version).order_by("seq").values_list("text", flat=True)
    return " ".join(texts)
