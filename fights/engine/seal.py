"""A fight in a campaign file (issue 37): what a file may carry of it, and how it comes back.
Pure: the randomness (``rng``) is the caller's.

R30: everyone sees the cards played this round and the discard pile; a combatant's unplayed
cards and its card up the sleeve are its player's and the Dealer's; nobody sees the deck's
order, the Dealer included; a red joker's Fate draw is its holder's until it is played or the
round ends. A file travels, so it carries none of them:

- ``sealed``: the state as a file writes it, in every phase: each unplayed card, each sleeve
  and each card of the stock is ``HIDDEN`` ("??": how many, never which); a Fate draw not yet
  revealed is left out, its chip back in the pot (where it was before the draw).
- ``unsealed``: the state a restore writes. Whatever the file says the hidden places hold is
  thrown away: every card not on the table nor in the discards is shuffled afresh and dealt
  again into the same places — each hand keeps its size and holds only cards still to come up
  in the countdown (or the red joker), a sleeve never a joker — and the rest is the stock, in
  the new shuffle's order. A red joker dealt into a hand draws its Fate chip again (R25). With
  the words of the timeline line that says so, and the secret lines of each hand dealt again
  (R30: for its player and the Dealer).
"""

from __future__ import annotations

import copy
import random
from typing import Any

from cards.deck import BLACK_JOKER, FULL_DECK, RED_JOKER, format_cards, parse_card

from .action_deck import Phase, Secret, _chip_text, _draw_fate, action_rank, in_action_order
from .serial import state_from_data, state_to_data

HIDDEN = "??"


def sealed(data: dict[str, Any]) -> dict[str, Any]:
    """The state as a file writes it (see the module docstring)."""
    out = state_to_data(state_from_data(data))
    for c in out["combatants"]:
        c["hand"] = [HIDDEN for _ in c["hand"]]
        c["sleeve"] = None if c["sleeve"] is None else HIDDEN
    out["deck"]["stock"] = [HIDDEN for _ in out["deck"]["stock"]]
    out["fate_draws"], out["fate_pot"] = _revealed(out["fate_draws"], out["fate_pot"])
    return out


def _revealed(draws: Any, pot: Any) -> tuple[list[dict[str, Any]], list[list[Any]]]:
    """The draws already revealed, and the pot with the others' chips back in it."""
    if not isinstance(draws, list) or not isinstance(pot, list):
        raise ValueError("the Fate draws and the pot are lists")
    counts = {str(colour): int(count) for colour, count in pot}
    kept = []
    for draw in draws:
        if draw["revealed"]:
            kept.append(draw)
        elif draw["chip"] is not None:
            counts[str(draw["chip"])] = counts.get(str(draw["chip"]), 0) + 1
    return kept, [[colour, count] for colour, count in counts.items()]


def unsealed(data: Any, rng: random.Random) -> tuple[dict[str, Any], str, list[Secret]]:
    """The state a restore writes, the words of its timeline line ("" when nothing was hidden)
    and the secret lines of the hands dealt again; raises ``ValueError`` (or what the engine's
    loader raises) on a state that cannot be a fight's."""
    if not isinstance(data, dict):
        raise ValueError("a fight's state is an object")
    filled = copy.deepcopy(data)
    deck, fighters, table = filled.get("deck"), filled.get("combatants"), filled.get("table")
    if not isinstance(deck, dict) or not isinstance(fighters, list) or not isinstance(table, list):
        raise ValueError("a fight's state has its deck, its combatants and its table")
    filled["fate_draws"], filled["fate_pot"] = _revealed(filled["fate_draws"], filled["fate_pot"])
    public = [parse_card(t) for t in [*deck["discards"], *(p["card"] for p in table)]]
    pool = [c for c in FULL_DECK if c not in set(public)]
    hands = [len(c["hand"]) for c in fighters]
    sleeves = [c["sleeve"] is not None for c in fighters]
    stock = len(deck["stock"])
    if len(set(public)) != len(public) or sum(hands) + sum(sleeves) + stock != len(pool):
        raise ValueError("the hands, sleeves, stock, discards and table are not the 54 cards")
    phase = Phase(filled["phase"])
    position = int(filled["position"]) if phase == Phase.COUNTDOWN else 10**6
    rng.shuffle(pool)
    due = [
        c for c in pool if c is RED_JOKER or (c is not BLACK_JOKER and action_rank(c) < position)
    ]
    if len(due) < sum(hands):
        raise ValueError("the hands hold more cards than are still to come up")
    dealt, rest = due[: sum(hands)], [c for c in pool if c not in set(due[: sum(hands)])]
    sleeved = [c for c in rest if not c.is_joker][: sum(sleeves)]
    if len(sleeved) < sum(sleeves):
        raise ValueError("a sleeve holds no joker")
    rest = [c for c in rest if c not in set(sleeved)]
    cards, up_sleeves = iter(dealt), iter(sleeved)
    for c, size, has in zip(fighters, hands, sleeves, strict=True):
        c["hand"] = [card.text for card in in_action_order(next(cards) for _ in range(size))]
        c["sleeve"] = next(up_sleeves).text if has else None
    deck["stock"] = [c.text for c in rest]
    state = state_from_data(filled)
    secrets: list[Secret] = []
    for c in state.combatants:
        if c.hand or c.sleeve is not None:
            sleeve = f"; up the sleeve: {c.sleeve.text}" if c.sleeve is not None else ""
            shown = format_cards(c.hand) or "no card"
            secrets.append(Secret((c.cid,), f"Dealt again to {c.name}: {shown}{sleeve}."))
        if RED_JOKER in c.hand:  # R25: the red joker's holder draws from the Fate pot
            state, draw = _draw_fate(state, c.cid, RED_JOKER, rng, revealed=False)
            text = f"{c.name} holds the red joker and draws {_chip_text(draw)} from the Fate pot."
            secrets.append(Secret((c.cid,), text))
    if not (sum(hands) or sum(sleeves) or stock):
        return state_to_data(state), "", []
    return (
        state_to_data(state),
        _words(phase, state.round, bool(sum(hands)), bool(sum(sleeves))),
        secrets,
    )


def _words(phase: Phase, round_: int, hands: bool, sleeves: bool) -> str:
    if phase == Phase.COUNTDOWN and hands:
        return (
            f"Restored from a campaign file in the middle of round {round_}. No file carries a "
            "fight's hidden cards (R30): the unplayed cards, the cards up sleeves and the deck "
            "were shuffled afresh and dealt again into the same places — each hand keeps its "
            "size and only cards still to come up — so whose card is up may have changed."
        )
    also = ", and each card up a sleeve dealt again" if sleeves else ""
    return (
        "Restored from a campaign file. No file carries the deck's order nor a card up a "
        f"sleeve (R30): the deck was shuffled afresh{also}."
    )


def renamed(data: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """The state with each combatant's id renamed as ``names`` says (the others kept): who
    plays, who was interrupted, who drew a Fate chip. A combatant's id is its character's key
    in the database, which an import changes."""
    out = copy.deepcopy(data)
    for c in out["combatants"]:
        c["cid"] = names.get(c["cid"], c["cid"])
    for play in out["table"]:
        play["cid"] = names.get(play["cid"], play["cid"])
        if play["interrupted"] is not None:
            play["interrupted"] = names.get(play["interrupted"], play["interrupted"])
    for draw in out["fate_draws"]:
        draw["who"] = names.get(draw["who"], draw["who"])
    return out
