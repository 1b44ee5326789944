"""The per-viewer view of a conflict: ``conflict_view`` is the ONE place a template gets cards from.

It asks the engine's choke point, ``visible_cards`` (R10), which cards this viewer may see, and
every card it puts into the context goes through that set: other hands appear as counts, the
deck never appears, and the shuffle's salt and order only once the conflict is over."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
from django.urls import reverse

from campaigns.models import Campaign, Membership
from characters.models import Character
from characters.rules import ATTRIBUTE_LABELS, ATTRIBUTE_SUITS, ATTRIBUTES
from conflicts import fragments
from conflicts.engine import conflict as engine
from conflicts.engine.cards import Card, commitment, format_cards
from conflicts.engine.hands import HandValue, evaluate, lay_choices
from conflicts.models import Conflict, Seat, Side
from conflicts.reads import TableRead
from conflicts.selectors.advice import hand_advice, hand_odds, opposing_size
from conflicts.selectors.rows import (
    KIND_LABELS,
    PHASE_LABELS,
    AttributeRow,
    CardView,
    HandRow,
    LayOption,
    OwedRow,
    Phase,
    card_view,
    display_name,
    display_order,
)
from conflicts.selectors.steps import dealer_step, player_step
from conflicts.services import controlled_pids_among
from dustdevils.idempotency import FreshKey
from dustdevils.memo import bounded


def conflicts_of(campaign: Campaign) -> QuerySet[Conflict]:
    return campaign.conflicts.select_related("session").order_by("-created_at")


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
    narrate: str
    replay: str


@bounded(4096)  # the script prefix is the deployment's: the same for every request
def conflict_links(slug: str, conflict_id: int) -> ConflictLinks:
    def url(name: str) -> str:
        return reverse(f"conflicts:{name}", args=(slug, conflict_id))

    return ConflictLinks(
        detail=url("detail"), table=url("table"), version=url("version"), advice=url("advice"),
        again=url("again"), rulings=reverse("conflicts:rulings"), narrate=url("narrate"),
        replay=url("replay"),
    )  # fmt: skip


def state_phase(conflict: Conflict) -> Phase:
    return Phase(conflict.state.get("phase", Phase.SIZING.value))


def conflict_view(
    data: TableRead,
    membership: Membership,
    *,
    as_table: bool = False,
    advice_limit: int | None = None,
    advise: bool = False,
) -> dict[str, Any]:
    """Everything a screen shows this viewer, from the table as read (``reads.table_read``; a
    live stream shares one read among its screens). ``as_table``: the shared screen — public
    facts only, whoever looks (even the Dealer). ``advise``: work out the discard advice now
    (for ``advice_limit`` discards, or the best knack's). Makes no query."""
    conflict = data.conflict
    state = data.state
    dealer = membership.is_dealer and not as_table
    mine = set() if as_table else controlled_pids_among(data.seats, membership)
    seen = engine.visible_cards(state, mine, dealer=dealer)  # R10

    def show(cards: Iterable[Card] | None) -> list[CardView]:
        return [card_view(c) for c in cards or () if c in seen]

    seats = {s.pid: s for s in data.seats}
    over = state.phase in (Phase.DONE, Phase.FOLDED, Phase.CANCELLED)
    revealed = state.phase in (Phase.RESOLUTION, Phase.DONE)
    rows = [
        _row(state, p, seats.get(p.pid), show, seen, dealer=dealer, mine=p.pid in mine)
        for p in state.participants
    ]
    by_pid = {r.pid: r for r in rows}
    owed = [_owed_row(state, o, seats, by_pid) for o in state.owed] if revealed else []
    for o in owed:
        by_pid[o.pid].owed = o
    opposing = opposing_size(state)
    for row in rows:
        if row.mine and not dealer and not as_table:
            _enrich_own(state, row, opposing, conflict.pk, advice_limit, advise, show)
        elif dealer and not as_table and row.kind != engine.Kind.STUD:
            # The Dealer runs the NPCs and approves every hand's knack (R13).
            _enrich_npc(row, state.participant(row.pid))
    _narration_rights(state, rows)
    if revealed and state.winner is not None:
        side = state.participant(state.winner).side
        for row in rows:
            if row.mine:
                won = row.winner or row.side == side
                row.outcome = "won" if row.winner else "side" if won else "lost"
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
        "next_step": _dealer_step(state, rows) if dealer else player_step(state, rows, role),
        "narration": _narration(state, by_pid, revealed, show),
        "owed": owed,
        "winner": by_pid[state.winner].name if state.winner in by_pid else "",
        "commitment": state.commitment,
        "audit": _audit(state) if over and state.commitment else None,
        "recovery": _recovery(state, by_pid),
        "stakes_to": _stakes_to(state) if state.phase == Phase.DONE else [],
        "events": data.timeline,
        # Shared pieces: the same HTML for every screen with the same facts (fragments.py).
        "timeline_html": fragments.timeline_html(data.timeline),
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
        # Narration is written down by its holder's player or the Dealer, once settled (R16).
        "may_narrate": (
            not as_table
            and state.narrator is not None
            and (state.phase == Phase.DONE or (revealed and state.bids_closed))
            and (dealer or state.narrator in mine)
        ),
        "revealed": revealed,
        "continued_by": data.continued_by,
        # R20: the fight goes on — every screen of this hand points at (and follows) the next.
        "next_hand_url": _next_hand_url(conflict, data.continued_by, as_table),
        # A finished hand keeps listening until it is dealt again (issue 18: nobody stranded).
        "live": not over or (state.phase == Phase.DONE and not data.continued_by),
        "override_sources": [r for r in rows if r.lay and not r.folded] if dealer else [],
        "override_targets": (
            [r for r in rows if r.kind != engine.Kind.STUD and not r.folded] if dealer else []
        ),
    }


def _next_hand_url(conflict: Conflict, continued_by: Iterable[Conflict], as_table: bool) -> str:
    fresh = next(iter(continued_by), None)
    if fresh is None:
        return ""
    links = conflict_links(conflict.campaign.slug, fresh.pk)
    return links.table if as_table else links.detail


def _dealer_step(state: engine.ConflictState, rows: list[HandRow]) -> dict[str, str]:
    """The Dealer's next step; ``turn`` when it is the Dealer's to take (not a wait)."""
    step = dealer_step(state, rows)
    if step["action"] and not step["text"].startswith("Waiting"):
        step["turn"] = "1"
    return step


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
        side_label=_side_label(p.side),
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
        cards=show(display_order(p.hand)),
        discarded=show(p.discarded),
        lay=show(p.lay) if lay_public else [],
        lay_text=evaluate(p.lay or ()).describe() if lay_public else "",
        winner=state.winner == p.pid,
        narrator=state.narrator == p.pid,
        character=character,
        attributes=_attribute_rows(character, p.currents) if private and p.is_character else [],
        lay_options=_lay_options(p, show) if private and state.phase == Phase.LAYING else [],
    )


def _side_label(side: str) -> str:
    return Side(side).label if side in Side.values else side.title()


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
    row.odds = hand_odds(conflict_id, p, opposing, show)
    if state.phase == Phase.DRAW and not p.drew:
        best_knack = max((k[2] for k in row.knacks), default=0)
        if p.knack_approved:  # R13: what the Dealer approved, unless the player asks what-if
            best_knack = p.knack_rating
        chosen = min(9, (best_knack if limit is None else max(0, limit)) + row.draw_base)
        row.odds.advice_limit = chosen
        row.odds.advice_pending = True
        advice = hand_advice(conflict_id, p, opposing, chosen, compute=advise)
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
    # Sorted here, not by the query: the knacks come prefetched with the seats (reads.table_read).
    knacks = sorted(character.knacks.all(), key=lambda k: (-k.rating, k.name))
    return [(k.pk, k.name, k.rating) for k in knacks]


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


def events_at(conflict: Conflict, version: int) -> str:
    """What a move did, in the timeline's words (the message after a move)."""
    texts = conflict.events.filter(version=version).order_by("seq").values_list("text", flat=True)
    return " ".join(texts)
