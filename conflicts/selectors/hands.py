"""One hand as this viewer may see it (``HandRow``): the rows ``conflict_view`` builds, every card
already filtered through the viewer's ``visible_cards`` (R10) by the ``show`` it is given."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from cards.deck import Card
from cards.hands import HandValue, evaluate, lay_choices
from characters.models import Character
from characters.rules import ATTRIBUTE_LABELS, ATTRIBUTE_SUITS, ATTRIBUTES
from conflicts.engine import conflict as engine
from conflicts.models import Seat, Side
from conflicts.selectors.advice import TableView, hand_advice, hand_odds
from conflicts.selectors.rows import (
    KIND_LABELS,
    AttributeRow,
    HandRow,
    LayOption,
    OwedRow,
    Phase,
    display_name,
)
from tables.cards import display_order


def hand_row(
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
        # R17: out of play after its last stand, the end still to be written
        awaiting_end=bool(character and character.awaiting_epitaph),
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


def enrich_own(
    state: engine.ConflictState,
    row: HandRow,
    opposing: TableView,
    conflict_id: int,
    limit: int | None,
    advise: bool,
    show: Any,
    odds: bool = True,
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
    row.odds = hand_odds(conflict_id, p, opposing, show, compute=odds or advise)
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


def enrich_npc(row: HandRow, p: engine.Participant) -> None:
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


def owed_row(
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
