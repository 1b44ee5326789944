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
from cards.deck import Card, commitment, format_cards
from cards.hands import evaluate
from conflicts import fragments
from conflicts.engine import conflict as engine
from conflicts.models import Conflict
from conflicts.reads import TableRead, with_gunfight
from conflicts.selectors.advice import table_view
from conflicts.selectors.hands import enrich_npc, enrich_own, hand_row, owed_row
from conflicts.selectors.rows import PHASE_LABELS, HandRow, Phase
from conflicts.selectors.steps import dealer_step, player_step
from conflicts.services import controlled_pids_among
from conflicts.services.moves import hand_basis
from dustdevils.idempotency import FreshKey
from dustdevils.memo import bounded
from tables.cards import CardView, card_view


def conflicts_of(campaign: Campaign) -> QuerySet[Conflict]:
    """The campaign's conflicts, newest first, each with the fight it turned into, if any."""
    return with_gunfight(campaign.conflicts.select_related("session").order_by("-created_at"))


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
    move: str  # the URL of a move named ACTION (tables' move_form)


@bounded(4096)  # the script prefix is the deployment's: the same for every request
def conflict_links(slug: str, conflict_id: int) -> ConflictLinks:
    def url(name: str) -> str:
        return reverse(f"conflicts:{name}", args=(slug, conflict_id))

    return ConflictLinks(
        detail=url("detail"), table=url("table"), version=url("version"), advice=url("advice"),
        again=url("again"), rulings=reverse("conflicts:rulings"), narrate=url("narrate"),
        replay=url("replay"),
        move=reverse("conflicts:move", args=(slug, conflict_id, "ACTION")),
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
    timeline_html: str = "",
    odds: bool = True,
) -> dict[str, Any]:
    """Everything a screen shows this viewer, from the table as read (``reads.table_read``; a
    live stream shares one read among its screens). ``as_table``: the shared screen — public
    facts only, whoever looks (even the Dealer). ``advise``: work out the discard advice now
    (for ``advice_limit`` discards, or the best knack's). ``timeline_html``: the timeline as
    already rendered for this read (the live streams': once per version). ``odds``: work out
    a hand's odds meter now if it is not known yet (not for a move's screens: there it is
    ``pending`` and its own fragment is asked for, issue 38). Makes no query."""
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
        hand_row(state, p, seats.get(p.pid), show, seen, dealer=dealer, mine=p.pid in mine)
        for p in state.participants
    ]
    by_pid = {r.pid: r for r in rows}
    owed = [owed_row(state, o, seats, by_pid) for o in state.owed] if revealed else []
    for o in owed:
        by_pid[o.pid].owed = o
    opposing = table_view(state, seen)  # the odds' input: only what this viewer may see
    for row in rows:
        if row.mine and not dealer and not as_table:
            enrich_own(state, row, opposing, conflict.pk, advice_limit, advise, show, odds)
        elif dealer and not as_table and row.kind != engine.Kind.STUD:
            # The Dealer runs the NPCs and approves every hand's knack (R13).
            enrich_npc(row, state.participant(row.pid))
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
        "timeline_html": timeline_html or fragments.timeline_html(data.timeline),
        "roster_html": fragments.roster_html(_sides(rows), state.phase.value, revealed),
        "fresh_key": FreshKey(),
        "links": conflict_links(conflict.campaign.slug, conflict.pk),
        # The table kit's move forms: where they post, and what each hand's move is based on.
        "move_base": conflict_links(conflict.campaign.slug, conflict.pk).move,
        "scope_field": "pid",
        "bases": {pid: hand_basis(state, pid) for pid in mine},
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
        # R17: on a last stand the character narrates because of it, not by a high card.
        "last_stand": holder.last_stand,
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
