"""The replay of a finished conflict (issue 18): stepped through move by move — the set-up, the
Deal, each Draw, the Call, the reveal, the result — from the states the moves left
(``Snapshot``), each step showing what the viewer may see then.

The replay opens only once the conflict has ended: its salt and deck order are revealed then
(R10), so every hand and discard is seen by everyone in the campaign — through the engine's
``visible_cards(..., ended=True)``, the one choke point, never around it. The deck's undealt
cards never appear."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from campaigns.models import Membership
from cards.deck import Card
from cards.hands import evaluate
from conflicts.engine import conflict as engine
from conflicts.engine.serial import state_from_data
from conflicts.models import Conflict, Snapshot
from conflicts.reads import TableRead
from conflicts.selectors.rows import PHASE_LABELS
from conflicts.services import controlled_pids_among
from tables.cards import CardView, card_view, display_order
from tables.errors import readable


@dataclass(frozen=True)
class ReplayHand:
    name: str
    kind: str
    side: str
    cards: list[CardView]
    discarded: list[CardView]
    lay: list[CardView]
    lay_text: str
    count: int
    folded: bool
    winner: bool
    narrator: bool


@dataclass(frozen=True)
class ReplayStep:
    number: int  # 1-based, as people count
    version: int
    label: str  # what the move did, in the timeline's words
    phase_label: str
    hands: list[ReplayHand]


def replay_view(
    data: TableRead, snapshots: Sequence[Snapshot], membership: Membership, index: int
) -> dict[str, Any]:
    """The context of the replay page at step ``index`` (0-based, clamped)."""
    conflict = data.conflict
    index = max(0, min(index, len(snapshots) - 1))
    snapshot = snapshots[index]
    state = readable(state_from_data, snapshot.state)
    mine = controlled_pids_among(data.seats, membership)
    dealer = membership.is_dealer
    seen = engine.visible_cards(state, mine, dealer=dealer, ended=conflict.is_over)  # R10

    def show(cards: Iterable[Card] | None) -> list[CardView]:
        return [card_view(c) for c in cards or () if c in seen]

    hands = [
        ReplayHand(
            name=p.name,
            kind=p.kind.value,
            side=p.side,
            cards=show(display_order(p.hand)),
            discarded=show(p.discarded),
            lay=show(p.lay) if p.lay and all(c in seen for c in p.lay) else [],
            lay_text=evaluate(p.lay).describe() if p.lay and all(c in seen for c in p.lay) else "",
            count=len(p.hand),
            folded=p.folded,
            winner=state.winner == p.pid,
            narrator=state.narrator == p.pid,
        )
        for p in state.participants
    ]
    last = index == len(snapshots) - 1
    # The last step also shows what was written after it (the narration, set down once the
    # conflict is over): those lines change no state, so they make no snapshot of their own.
    texts = [
        e.text
        for e in data.timeline
        if e.version == snapshot.version or (last and e.version > snapshot.version)
    ]
    step = ReplayStep(
        number=index + 1,
        version=snapshot.version,
        label=" ".join(texts) or PHASE_LABELS[state.phase],
        phase_label=PHASE_LABELS[state.phase],
        hands=hands,
    )
    return {
        "conflict": conflict,
        "campaign": conflict.campaign,
        "membership": membership,
        "step": step,
        "index": index,
        "count": len(snapshots),
        "previous_index": index - 1 if index > 0 else None,
        "next_index": index + 1 if index + 1 < len(snapshots) else None,
        "last_index": len(snapshots) - 1,
    }


def replay_snapshots(conflict: Conflict) -> list[Snapshot]:
    return list(conflict.snapshots.order_by("version"))
