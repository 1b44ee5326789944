"""What comes next, in plain words: the NEXT banner on the Dealer's console (naming the button
at the top of it) and the line at the top of a player's screen."""

from __future__ import annotations

from conflicts.engine import conflict as engine
from conflicts.selectors.rows import PHASE_LABELS, HandRow, Phase


def dealer_step(state: engine.ConflictState, rows: list[HandRow]) -> dict[str, str]:
    """The Dealer's clear next step, with the action it points at. The Dealer plays the
    important NPCs' hands (R12), so the banner never tells the Dealer to wait for one of them:
    it says "Draw for Long Tom" and the button at the top of the console goes to his seat. A
    step with a button says what the button does ("Set Black Jack's Deal"), never "Waiting"."""
    live = [r for r in rows if not r.folded]
    npcs = [r for r in live if r.kind == engine.Kind.NPC]
    if state.phase == Phase.SIZING:
        for r in live:  # a proposal waits for the Dealer's word first
            if r.kind == engine.Kind.PC and not r.approved and r.proposal:
                return _to_seat(f"Approve {r.name}'s Deal", r)
        for r in npcs:
            if not r.approved:
                return _to_seat(f"Set {r.name}'s Deal", r)
        for r in live:
            if r.kind == engine.Kind.PC and not r.approved:
                step = _to_seat(f"Set {r.name}'s Deal", r)
                step["text"] = f"Set {r.name}'s Deal, or wait for the proposal"
                return step
        return {"text": "Deal", "action": "deal"}
    if state.phase == Phase.DRAW:
        asking = [p for p in state.in_play if p.knack and not p.knack_approved and not p.drew]
        if asking:  # R13: a knack named waits for the Dealer's word
            text = f"Approve {asking[0].name}'s knack"
            step = _to_seat(text, next(r for r in rows if r.pid == asking[0].pid))
            step["action"] = "approve-knack"
            return step
        for r in npcs:
            if not r.drew:
                return _to_seat(f"Draw for {r.name}", r)
        # R13: the Call waits for them
        if who := ", ".join(p.name for p in engine.unsettled(state)):
            return {"text": f"Waiting for {who} to draw", "action": "call-now", "waiting": who}
        return {"text": "Call", "action": "call"}
    if state.phase == Phase.LAYING:
        for r in npcs:
            if not r.lay_chosen:
                return _to_seat(f"Lay for {r.name}", r)
        waiting = [r.name for r in live if r.kind != engine.Kind.STUD and not r.lay_chosen]
        if waiting:
            return {"text": f"Waiting for {', '.join(waiting)} to lay", "action": "reveal"}
        return {"text": "Reveal", "action": "reveal"}
    if state.phase == Phase.RESOLUTION:
        if not state.bids_closed:
            return {"text": "Close the bids", "action": "close-bids"}
        unplaced = [o.pid for o in state.owed if o.allocation is None]
        for r in npcs:
            if r.pid in unplaced:
                step = _to_seat(f"Place {r.name}'s Difficulty", r)
                step["anchor"] = f"owed-{r.pid}"
                return step
        names = [state.participant(pid).name for pid in unplaced]
        if names:
            return {"text": f"Waiting for {', '.join(names)} to place Difficulty", "action": ""}
        return {"text": "Finish", "action": "finish"}
    if state.phase == Phase.DONE:
        return {"text": "Over. Deal again?", "action": "again"}
    if state.phase == Phase.CANCELLED:
        return {"text": "Cancelled before the Deal: nothing happened", "action": ""}
    return {"text": "Folded: the conflict stays unresolved", "action": ""}


def _to_seat(text: str, row: HandRow) -> dict[str, str]:
    """A step done on one hand's seat: the console's top button goes there."""
    return {
        "text": text, "action": "seat", "pid": row.pid, "button": text,
        "anchor": f"seat-{row.pid}",
    }  # fmt: skip


def player_step(state: engine.ConflictState, rows: list[HandRow], role: str) -> dict[str, str]:
    """What the table waits for, from a player's seat; ``turn`` ("1") when it waits for this
    player (the page marks it, and static/js/seat.js tells a player who asked when it is their
    turn)."""
    if role == "table":
        return {"text": PHASE_LABELS[state.phase], "action": ""}
    mine = [r for r in rows if r.mine and not r.folded]
    for r in mine:
        if state.phase == Phase.SIZING and not r.approved:
            if r.proposal:
                return {"text": "Waiting for the Dealer to approve", "action": "propose"}
            return {"text": "Propose your Deal", "action": "propose", "turn": "1"}
        if state.phase == Phase.DRAW and not r.drew:
            if r.knack and not r.knack_approved:  # R13: the Dealer decides
                return {"text": f"Waiting for the Dealer to approve {r.knack}", "action": "draw"}
            return {"text": "Discard and draw, or stand", "action": "draw", "turn": "1"}
        if state.phase == Phase.LAYING and not r.lay_chosen:
            return {"text": "Choose your lay", "action": "lay", "turn": "1"}
        if state.phase == Phase.RESOLUTION and r.owed and r.owed.allocation is None:
            return {"text": "Place your Difficulty", "action": "allocate", "turn": "1"}
    for r in mine:  # R16: a bid is the player's to make or not, until the Dealer closes them
        if state.phase == Phase.RESOLUTION and (r.may_bid or r.may_answer):
            return _bidding_step(state, r)
    waits = {
        Phase.SIZING: "Waiting for the Deal",
        Phase.DRAW: "Waiting for the Call",
        Phase.LAYING: "Waiting for the reveal",
        Phase.RESOLUTION: "Waiting for the Dealer to finish",
        Phase.DONE: "Over",
        Phase.FOLDED: "Folded: the conflict stays unresolved",
        Phase.CANCELLED: "Cancelled before the Deal: nothing happened",
    }
    return {"text": waits[state.phase], "action": ""}


def _bidding_step(state: engine.ConflictState, r: HandRow) -> dict[str, str]:
    """R16, said as it stands for this hand (issue 36: after a bid the line still asked the
    bidder to bid): the holder answers or has matched; a bidder leads, is matched or outbid."""
    top = max((b.amount for b in state.bids), default=0)
    mine = max((b.amount for b in state.bids if b.pid == r.pid), default=0)
    wait = "waiting for the Dealer to close the bids"
    chips = f"{top} chip{'s' if top != 1 else ''}"
    if r.may_answer:
        if state.answer >= top:
            return {"text": f"You matched the bid of {chips}: {wait}", "action": ""}
        return {"text": f"Keep the narration? Match the bid of {chips}", "action": "bid",
                "turn": "1"}  # fmt: skip
    holder = state.participant(state.narrator).name if state.narrator else ""
    if not mine:
        return {"text": f"{holder} holds the narration: bid to take it?", "action": "bid",
                "turn": "1"}  # fmt: skip
    if mine < top:
        return {"text": f"Outbid: the highest bid is {chips}. Raise yours?", "action": "bid",
                "turn": "1"}  # fmt: skip
    if state.answer >= top:
        return {"text": f"{holder} matched your bid of {chips}: raise it?", "action": "bid",
                "turn": "1"}  # fmt: skip
    return {"text": f"Your bid of {chips} leads: {wait}", "action": ""}
