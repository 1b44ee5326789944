"""Reads for the fight screens. ``fight_view`` is the ONE place a template gets a fight's cards.

It asks the engine's choke point (``view_for``, built on ``visible_cards``: R30) for this
viewer's picture of the fight and turns only that into the context: other combatants' hands
appear as counts, a sleeve as one face-down card, an NPC's or extras' cards are the Dealer's
alone, the deck's order never appears, and a secret timeline line reaches only the Dealer and the
players of the player characters it names. The table view (the shared screen) is the view of
nobody in particular: public facts only, even when the Dealer looks at it. A fight's read is one
ORM queryset (``fights.reads.load_fight``): the row, campaign, session, seats and timeline.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.urls import reverse

from campaigns.models import GameSession, Membership
from cards.deck import RED_JOKER, Card
from characters.selectors import in_play as characters_in_play
from conflicts.selectors import CardView, card_view
from dustdevils.idempotency import FreshKey
from dustdevils.memo import bounded
from fights.engine import action_deck as engine
from fights.engine.serial import state_from_data
from fights.models import Fight, FightSeat
from fights.reads import combatant_basis
from fights.services import cid_of, controlled_cids
from tables.errors import readable

Phase = engine.Phase
PHASE_LABELS = {
    Phase.QUICKNESS: "Quickness rolls",
    Phase.COUNTDOWN: "The countdown",
    Phase.OVER: "The fight is over",
}
SPEEDS = [("short", "Short (1 card)"), ("simple", "Simple (0)"), ("extended", "Extended (2+)")]


def fights_queryset() -> QuerySet[Fight]:
    """Every fight as the session page and the export read it: with all of its timeline."""
    return Fight.objects.select_related("campaign", "session").prefetch_related(
        Prefetch("seats", queryset=FightSeat.objects.select_related("character")), "events"
    )


def fights_of_session(session: GameSession) -> list[Fight]:
    return list(fights_queryset().filter(session=session).order_by("created_at"))


@dataclass
class Line:
    """One combatant as this viewer may see it (everything from ``engine.view_for``)."""

    cid: str
    name: str
    kind: str
    size: int
    cards: int
    hand: list[CardView] | None  # None: hidden from this viewer (only the count shows)
    has_sleeve: bool
    sleeve: CardView | None
    total: int | None
    bust: bool
    dice: list[list[int]]
    surprised: bool
    guts_failed: bool
    cap: int | None
    extended: engine.Extended | None
    out: bool
    is_up: bool
    due: int
    mine: bool  # this viewer plays it (a player: their own PC; the Dealer: every combatant)
    needs_quickness: bool
    needs_guts: bool
    has_red_joker: bool
    dice_spec: str = ""
    guts_spec: str = ""  # R26: the dice the app rolls for a Guts check
    fate: list[str] = field(default_factory=list)

    @property
    def sleeve_list(self) -> list[CardView]:
        return [self.sleeve] if self.sleeve is not None else []

    @property
    def kind_label(self) -> str:
        return {"pc": "PC", "npc": "NPC", "extras": "Extras"}[self.kind]

    @property
    def whose(self) -> str:
        """The possessive, for the screen: "Jim’s card is up", "2 Deputies’ card is up"."""
        return engine.possessive(self.name, self.kind == "extras" and self.size > 1, "\u2019")


@dataclass(frozen=True)
class PublicLine:
    """What everyone may see of a combatant (R30): exactly the fields _public.html reads, so
    the public picture is one shared piece for every screen that shows it (fragments.py)."""

    cid: str
    name: str
    kind_label: str
    is_up: bool
    out: bool
    surprised: bool
    total: int | None
    bust: bool
    cards: int
    has_sleeve: bool
    extended: engine.Extended | None

    @classmethod
    def of(cls, line: Line) -> PublicLine:
        return cls(**{f: getattr(line, f) for f in _PUBLIC_FIELDS})


_PUBLIC_FIELDS = tuple(PublicLine.__dataclass_fields__)


@dataclass(frozen=True)
class Play:
    """A card played this round, as the table saw it."""

    name: str
    card: CardView
    text: str
    speed: str
    out_of_turn: bool
    interrupted: str
    opposed: str


@dataclass(frozen=True)
class FateDraw:
    """A Fate-pot draw (R25, R27): who, in which round, which chip (never the joker's card:
    after a reshuffle it is back in the deck)."""

    who: str
    round: int
    chip: str | None
    cause: str


@dataclass(frozen=True)
class TimelineLine:
    seq: int
    round: int
    text: str
    secret: bool
    shared: bool = False  # a secret the Dealer reads with the player it names (issue 36)


def _cards(cards: Iterable[Card] | None) -> list[CardView] | None:
    return None if cards is None else [card_view(c) for c in cards]


def timeline(
    fight: Fight, seats: Iterable[FightSeat], membership: Membership | None, *, as_table: bool
) -> list[TimelineLine]:
    """The lines this viewer may read (R30): public ones for everybody; a secret one for the
    Dealer and the players of the player characters it names; the table view: public only."""
    dealer = membership is not None and membership.is_dealer and not as_table
    mine = set() if as_table or membership is None else controlled_cids(seats, membership)
    if dealer:
        mine = set()
    pcs = {s.cid for s in seats if s.kind == FightSeat.Kind.PC} if dealer else set()
    out = []
    for e in fight.events.all():
        if e.secret and not dealer and not (set(e.cids) & mine):
            continue
        out.append(TimelineLine(e.seq, e.round, e.text, e.secret, bool(set(e.cids) & pcs)))
    return out


def state_of(fight: Fight) -> engine.FightState:
    """The engine's state of ``fight``, parsed (its 54 cards checked) once per read: the live
    streams render every screen of a fight from one shared instance; again for a new row."""
    known = fight.__dict__.get("_parsed_state")
    if known is not None and known[0] is fight.state:
        return known[1]  # type: ignore[no-any-return]
    state = readable(state_from_data, fight.state)  # 409 if it cannot be read
    fight.__dict__["_parsed_state"] = (fight.state, state)
    return state


def fight_view(fight: Fight, membership: Membership, *, as_table: bool = False) -> dict[str, Any]:
    """Everything a fight screen shows this viewer (see the module docstring). No query when
    ``fight`` comes from ``load_fight`` (seats and events prefetched)."""
    state = state_of(fight)
    seats = list(fight.seats.all())
    dealer = membership.is_dealer and not as_table
    mine = set() if as_table else controlled_cids(seats, membership)
    # The one call that decides what this viewer sees (R30). A player passes only their own
    # PCs; the engine refuses an NPC's cards to a non-Dealer whatever is passed.
    view = engine.view_for(state, () if dealer else mine, dealer=dealer)
    needed = (
        {c.cid for c in engine.quickness_needed(state)} if state.phase == Phase.QUICKNESS else set()
    )
    fate_by: dict[str, list[str]] = {}
    for d in view.fate_draws:
        fate_by.setdefault(d.who, []).append(
            f"round {d.round}: {d.chip or 'nothing (the pot was empty)'}"
        )
    dice = {c.cid: (c.quickness, c.guts or c.quickness) for c in state.combatants}  # public
    lines = []
    for c in view.combatants:
        visible_hand = c.hand
        lines.append(
            Line(
                cid=c.cid,
                name=c.name,
                kind=c.kind.value,
                size=c.size,
                cards=c.cards,
                hand=_cards(visible_hand),
                has_sleeve=c.has_sleeve,
                sleeve=card_view(c.sleeve) if c.sleeve is not None else None,
                total=c.total,
                bust=c.bust,
                dice=[list(d) for d in c.dice],
                surprised=c.surprised,
                guts_failed=c.guts_failed,
                cap=c.cap,
                extended=c.extended,
                out=c.out,
                is_up=c.is_up,
                due=c.due,
                mine=c.cid in mine,
                needs_quickness=c.cid in needed and not c.surprised,
                needs_guts=c.cid in needed and c.surprised,
                has_red_joker=visible_hand is not None and RED_JOKER in visible_hand,
                dice_spec=str(dice[c.cid][0]),
                guts_spec=str(dice[c.cid][1]),
                fate=fate_by.get(c.cid, []),
            )
        )
    names = {c.cid: c.name for c in view.combatants}
    up_line = next((line for line in lines if line.is_up), None)
    my_lines = [line for line in lines if line.mine] if not dealer else []
    role = "table" if as_table else "dealer" if dealer else "player" if my_lines else "watcher"
    links = fight_links(fight.campaign.slug, fight.pk, fight.session.number if fight.session else 0)
    return {
        "fight": fight,
        "campaign": fight.campaign,
        "membership": membership,
        "role": role,
        "is_dealer": dealer,
        "version": fight.version,
        "is_over": state.phase == Phase.OVER,
        "live": state.phase != Phase.OVER,  # the live wrapper connects its stream (_live_open)
        "phase": state.phase.value,
        "phase_label": PHASE_LABELS[state.phase],
        "round": view.round,
        "lines": lines,
        "my_lines": my_lines,
        "my_turn": up_line is not None and up_line.mine and role == "player",
        "up": up_line,  # R33: whose action an interrupt hits (public: whose card is up)
        "up_whose": up_line.whose if up_line is not None else "",
        "up_card": card_view(view.up_card) if view.up_card is not None else None,
        "order": [(names[cid], card_view(card), cid in mine) for cid, card in view.running_order],
        "table": [
            Play(
                name=names.get(p.cid, p.cid),
                card=card_view(p.card),
                text=p.text,
                speed=p.speed.value,
                out_of_turn=p.out_of_turn,
                interrupted=names.get(p.interrupted or "", ""),
                opposed=p.opposed.value if p.opposed else "",
            )
            for p in view.table
        ],
        "under_way": state.under_way and bool(view.table),
        "discards": [card_view(c) for c in view.discards],
        "deck_left": view.deck_left,
        "reshuffle_at_end": view.reshuffle_at_end,
        "fate_draws": [
            FateDraw(
                who="The Dealer" if d.who == engine.DEALER else names.get(d.who, d.who),
                round=d.round,
                chip=d.chip,
                cause="" if d.cause is None else "red joker" if d.cause.is_red else "black joker",
            )
            for d in view.fate_draws
        ],
        "fate_pot": view.fate_pot,  # None but for the Dealer (R30)
        "all_in": state.phase == Phase.QUICKNESS and not needed,
        "waiting_for": [names[cid] for cid in needed],
        "timeline": timeline(fight, seats, membership, as_table=as_table),
        "links": links,
        # The table kit's move forms: where they post, and what each combatant's move is based on.
        "move_base": links["move"],
        "scope_field": "cid",
        "bases": {cid: combatant_basis(state, cid) for cid in mine},
        "speeds": SPEEDS,
        "fresh_key": FreshKey(),
        "others": [line for line in lines if not line.mine],
        "settle_url": f"{links['settle']}&round={state.round}" if dealer else "",
    }


@bounded(1024)
def fight_links(slug: str, fight_id: int, session_number: int) -> dict[str, str]:
    """The fight screens' links (reversed once per fight and process: every screen of every
    move needs them). R32's "settle" opens the conflict wizard with the fight's characters."""
    return {
        "detail": reverse("fights:detail", args=[slug, fight_id]),
        "table": reverse("fights:table", args=[slug, fight_id]),
        "join": reverse("fights:join", args=[slug, fight_id]),
        "version": reverse("fights:version", args=[slug, fight_id]),
        "rulings": reverse("conflicts:rulings"),
        "session": reverse("campaigns:session", args=[slug, session_number])
        if session_number
        else "",
        "settle": reverse("conflicts:new", args=[slug]) + f"?fight={fight_id}",
        "move": reverse("fights:move", args=[slug, fight_id, "ACTION"]),
    }


def join_context(fight: Fight, membership: Membership, form: Any) -> dict[str, Any]:
    """The join page: the campaign's characters in play who are not fighting now (one who left
    the fight comes back), and the form."""
    state = state_of(fight)
    fighting = {c.cid for c in state.combatants if not c.out}
    left = {c.cid for c in state.combatants if c.out}
    joinable = [
        (c, cid_of(c) in left)
        for c in characters_in_play(fight.campaign).order_by("kind", "name")
        if cid_of(c) not in fighting
    ]
    number = fight.session.number if fight.session else 0
    return {
        "fight": fight, "campaign": fight.campaign, "membership": membership, "form": form,
        "joinable": joinable, "is_over": state.phase == Phase.OVER, "round": state.round,
        "links": fight_links(fight.campaign.slug, fight.pk, number), "fresh_key": FreshKey(),
        "version": fight.version,
    }  # fmt: skip


@dataclass(frozen=True)
class SessionFight:
    """A fight on its session's page: its link and the timeline this viewer may read."""

    fight: Fight
    lines: list[TimelineLine]

    @property
    def badge(self) -> str:
        """Where the fight stands; one ended in a round's Quickness says so (R31)."""
        if not self.fight.is_over:
            return f"round {self.fight.round}"
        ended = [n.round for n in self.lines if n.text.startswith(engine.ENDS_BEFORE_A_DEAL)]
        over = f"over in round {ended[-1]}, before its deal" if ended else ""
        return over or f"over after round {self.fight.round}"


def session_fights(
    session: GameSession, membership: Membership, fights: Iterable[Fight] | None = None
) -> list[SessionFight]:
    """The session's fights (or those of them in ``fights``: a page of them) with their
    timelines as this member may read them (R30)."""
    return [
        SessionFight(f, timeline(f, f.seats.all(), membership, as_table=False))
        for f in (fights_of_session(session) if fights is None else fights)
    ]
