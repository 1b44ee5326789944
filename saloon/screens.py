"""The saloon's screens. ``saloon_screen`` is the one place a screen's own context is made, and
every card face in it passes ``visible_cards`` (saloon.engine.game) for that viewer: the phone of a
seated player (their own hand), anyone else and the shared table screen (public facts only).
The Doomed's hand reaches other screens only as a number of backs. A screen is made from the
game's row alone when its seats, its campaign's members and its timeline are in the row's caches
(``DeathEntersTheSaloon.screen_row``: the live streams' one read per version)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet

from cards.deck import Card
from dustdevils.idempotency import FreshKey
from saloon.engine import game as g
from saloon.engine import tables
from saloon.engine.serial import state_from_data
from saloon.models import Saloon, SaloonLine
from tables.errors import readable
from tables.game import md
from tables.moves import basis_of

STORY_KINDS = ("question", "cue", "answer", "follow_up", "tell")
_SUIT_RANK = {int(suit): rank for suit, rank in g.SUIT_ORDER.items()}


def _speech(state: g.SaloonState, me: str) -> tuple[str, str]:
    """Who speaks now, as the seed names it (issue 27): this viewer's cue, and the table's."""
    ending, holder = state.ending, state.doomed
    if ending == g.Ending.DEATH_LEAVES:
        table = f"{state.player(holder).name}, holding the black joker, describes Death’s exit."
        mine = "Describe Death’s exit." if me == holder else "Tell a small vignette (if you wish)."
        return (mine if me else "", f"{table} Each player may tell how their life changes.")
    if ending in (g.Ending.TAKEN, g.Ending.SHOT):
        dead = state.player(state.dead)
        table = f"{dead.name} gives a short farewell and describes how Death takes them away."
        if me == state.dead:
            return "Your farewell: how Death takes you away.", table
        if ending == g.Ending.SHOT:  # nothing else is added, but the shot that hit
            duel = state.duel
            shooter = duel.shooter if duel else ""
            return ("Describe how your shot hits." if me == shooter else ""), table
        return ("Tell a small vignette (if you wish)." if me else ""), table
    if ending == g.Ending.VANISHED:
        return "", "Both shots missed: each shooter describes how. Nothing else is added."
    if me and state.is_safe(me) and not state.player(me).left:
        return "You are safe: say briefly how you realise Death will leave you be.", ""
    return "", ""


def seat_basis(state: g.SaloonState, pid: str) -> str:
    """What a move of seat ``pid`` is based on (``tables.moves.Basis``): that player, whose
    turn it is, the duel, the Unwanted card and the phase ("" if no such seat)."""
    if not state.has(pid):
        return ""
    return basis_of(
        state.phase.value, repr(state.player(pid)), repr(state.turn), repr(state.duel),
        state.unwanted, state.doomed, state.deal,
    )  # fmt: skip


def lines_of(saloon: Saloon, state: g.SaloonState) -> QuerySet[SaloonLine]:
    """The timeline as screens show it: the rule lines of the current deal (an earlier deal's
    cards have been dealt out again, hidden) and every line of the story."""
    rows = SaloonLine.objects.filter(saloon=saloon)
    shown = rows.filter(Q(deal=state.deal) | Q(kind__in=STORY_KINDS) | Q(deal__lt=1))
    return shown.order_by("-seq")[:80]


@dataclass(frozen=True)
class Face:
    """A card shown face up: its text and colour (drawn by table_tags' ``{% card %}``, its name
    in words)."""

    text: str
    red: bool
    joker: bool

    @property
    def rank(self) -> str:
        return self.text if self.joker else self.text[:-1]

    @property
    def suit(self) -> str:
        return ("red" if self.text == "RJ" else "black") if self.joker else self.text[-1]


@dataclass(frozen=True)
class Who:
    """A player as other screens may know them: never their hand, only its size."""

    pid: str
    name: str
    role: str
    count: int


def _who(state: g.SaloonState, pid: str) -> Who | None:
    if not pid:
        return None
    p = state.player(pid)
    return Who(p.pid, p.name, p.role, len(p.hand))


def _faces(cards: list[Card] | tuple[Card, ...], seen: frozenset[Card]) -> list[Face]:
    # The choke point: a card not in ``seen`` can never become a Face (R10's spirit, seed 000:
    # nobody but the Doomed sees the Doomed's faces).
    ordered = sorted(
        (c for c in cards if c in seen),
        key=lambda c: (c.is_joker, -c.rank, -_SUIT_RANK.get(c.suit, 0)),
    )
    return [Face(c.text, c.is_red, c.is_joker) for c in ordered]


def _face(card: Card | None, seen: frozenset[Card]) -> Face | None:
    if card is None or card not in seen:
        return None
    return Face(card.text, card.is_red, card.is_joker)


def saloon_screen(state: g.SaloonState, me: str | None, host: bool) -> dict[str, Any]:
    """The saloon's own part of one viewer's screen (``tables.game.Game.view`` makes the rest):
    the seat ``me``'s (None: a watcher, or the shared screen); ``host``: the viewer hosts."""
    seen = g.visible_cards(state, me)
    waiting = g.whose_move(state)
    turn, duel = state.turn, state.duel
    players = []
    for p in state.players:
        players.append(
            {
                "pid": p.pid,
                "name": p.name,
                "role": p.role,
                "archetype": _face(p.archetype, seen),
                "archetype_name": tables.archetype_of(p.archetype) if p.archetype else "",
                "character": p.character,
                "count": len(p.hand),
                "backs": range(len(p.hand)),
                "doomed": p.pid == state.doomed,
                "red_joker": p.pid == state.red_joker,
                "safe": state.is_safe(p.pid),
                "left": p.left,
                "me": p.pid == me,
                "waiting": p.pid in waiting,
                "dead": p.pid == state.dead,
                "discarded": p.discarded,
            }
        )
    mine = state.player(me) if me else None
    context: dict[str, Any] = {
        "i_am_doomed": bool(me) and state.doomed == me,
        "mine": mine,
        "players": players,
        "my_hand": _faces(mine.hand, seen) if mine else [],
        "discards": _faces(state.discards, seen),
        "doomed": _who(state, state.doomed),
        "unwanted": _who(state, state.unwanted),
        "can_lower": bool(me) and state.unwanted == me,
        # R34: the host may lower it too (an absent raiser must not pause the table for good).
        "can_lower_as_host": host and bool(state.unwanted) and state.unwanted != me,
        # S4: while the card is up, its raiser strikes any words, everyone else their own.
        "strikes": "all" if me and state.unwanted == me else (me if state.unwanted else ""),
        "waiting_names": [state.player(pid).name for pid in waiting],
        "my_move": bool(me) and me in waiting,
        "ending": state.ending.value if state.ending else "",
        "ending_text": g.ENDING_TEXT[state.ending] if state.ending else "",
        "dead": _who(state, state.dead),
        "credit": tables.CREDIT,
        "ritual": tables.RITUAL,
        "year": state.year,
        "step": turn.step.value if turn else "",
        # The turn's and the duel's public facts only (the turn's card goes through _face).
        "turn": None
        if turn is None
        else {"asked_count": len(turn.asked), "extra": turn.extra, "final": turn.final},
        "duel": None if duel is None else {"target": duel.target, "shooter": duel.shooter},
    }
    context["my_cue"], context["speakers"] = _speech(state, me or "")
    context.update(_turn_context(state, me, seen))
    context.update(_setup_context(state, me, seen))
    context["fresh_key"] = FreshKey()
    return context


def _turn_context(state: g.SaloonState, me: str | None, seen: frozenset[Card]) -> dict[str, Any]:
    turn, duel = state.turn, state.duel
    out: dict[str, Any] = {"prompt": "", "prompt_filled": "", "table_no": 0, "rank": 0}
    if duel is not None:
        target = state.player(duel.target)
        out.update(
            shooter=_who(state, duel.shooter),
            target=_who(state, duel.target),
            target_backs=range(len(target.hand)) if state.phase == g.Phase.DUEL else range(0),
        )
    if turn is None:
        return out
    out.update(
        drawer=_who(state, turn.drawer),
        drawn=_face(turn.card, seen),
        answerer=_who(state, turn.answerer),
        asker=_who(state, turn.asker),
        offer=_who(state, turn.offer),
        doomed_backs=range(len(state.player(state.doomed).hand)),
    )
    if turn.card is not None and turn.table:
        rank = turn.card.rank
        out.update(
            table_no=turn.table,
            rank=rank,
            prompt=tables.prompt(turn.table, rank),
            prompt_filled=tables.filled(turn.table, rank, turn.subject)
            if turn.step not in (g.Step.ASK, g.Step.CLEAR)
            else "",
            needs_subject=tables.needs_subject(turn.table, rank),
            table_rows=[
                {"label": tables.RANK_LABEL[r], "text": text, "now": r == rank}
                for r, text in (tables.TABLE_2 if turn.table == 2 else tables.TABLE_3).items()
            ],
            table_title=tables.TABLE_TITLES[turn.table],
        )
        in_play = {p.archetype for p in state.players}
        out["subjects"] = [
            {"pid": p.pid, "role": p.role, "name": p.name}
            for p in state.players
            if p.pid != turn.drawer and (turn.table == 3 or p.pid != state.doomed)
        ]
        # R34: the answer to the initial question may bring a character up (the extra question)
        out["may_bring_up"] = turn.step == g.Step.ANSWER and turn.table == 2 and not turn.asked
        out["secondary"] = [
            "the " + name for card, name in tables.TABLE_1.items() if card not in in_play
        ]
    return out


def _setup_context(state: g.SaloonState, me: str | None, seen: frozenset[Card]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if state.phase == g.Phase.ARCHETYPES or (state.phase == g.Phase.OVER and state.dead):
        out["free_archetypes"] = [
            {"card": c.text, "name": name, "face": _face(c, seen)}
            for c, name in tables.TABLE_1.items()
            if c in state.aside
        ]
    if state.phase == g.Phase.DISCARD and me:
        hand = state.player(me).hand
        triples = []
        for rank in sorted({c.rank for c in hand}, reverse=True):
            group = [c for c in hand if c.rank == rank]
            if len(group) == 3:
                keep = g.proposed_keep(group)[0]
                triples.append(
                    {
                        "rank": tables.RANK_LABEL[rank],
                        "cards": _faces(group, seen),
                        "keep": keep.text,
                    }
                )
        out["triples"] = triples
        out["after_discard"] = _faces(g.after_discard(hand), seen)
    if state.phase == g.Phase.SWAP:
        top = max(len(p.hand) for p in state.players)
        out["swap_choices"] = [_who(state, p.pid) for p in state.players if len(p.hand) == top]
        out["appointed"] = _who(state, state.appointed)
    return out


def story_markdown(saloon: Saloon) -> str:
    """ "What we learned about the saloon": the characters, every question, cue, answer and
    tale in order, the ending — plain Markdown, with the credit the licence asks for."""
    state = readable(state_from_data, saloon.state)  # 409 if it cannot be read
    out = [
        "# What we learned about the saloon",
        "",
        f"*{saloon.title}*, {md(saloon.campaign.name)}",
    ]
    out.append("")
    out += ["## The patrons", ""]
    for p in state.players:
        archetype = tables.archetype_of(p.archetype) if p.archetype else "?"
        named = f" ({p.character})" if p.character else ""
        out.append(f"- **{archetype}**{named}, played by {p.name}")
    out += ["", "## The story", ""]
    for line in SaloonLine.objects.filter(saloon=saloon).order_by("seq"):
        if line.kind == "rule" and not _story_rule(line.text):
            continue
        if line.kind == "answer" and not line.said:
            continue  # nothing typed: the answer was said out loud only
        text = md(line.text)
        if line.kind in ("answer", "follow_up", "tell") and line.said:
            out.append(f"- {text} {md(line.said)}".rstrip())
        elif line.said:
            out.append(f"- {text}\n  > {md(line.said)}")
        else:
            out.append(f"- {text}")
    if state.ending:
        out += ["", "## The ending", "", g.ENDING_TEXT[state.ending]]
        if state.dead:  # who Death took, by name (issue 27)
            dead = state.player(state.dead)
            out += ["", f"Death took **{md(dead.role)}**, played by {md(dead.name)}."]
    out += ["", "---", "", tables.CREDIT, ""]
    return "\n".join(out)


def _story_rule(text: str) -> bool:
    """The rule lines worth keeping in the story: the Gaze, safety, the duel and the endings
    (not the dealing and discarding)."""
    if "black joker" in text:
        return True
    if " draws the " in text or " discards " in text or "dealt" in text:
        return False
    keep = (
        "Doomed", "safe", "duel", "shot", "Death", "leaves the saloon", "year and a day",
        "now plays",  # a year and a day later: the new archetype of the one Death took
    )  # fmt: skip
    return any(k in text for k in keep)
