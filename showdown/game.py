"""Saloon Showdown (seed 001) at the table: its declaration (``tables.game.Game``). The rules
live in ``showdown.engine``; the cards and pistols stay on the table, the phones keep the money,
the wounds, the turns and the bluffs' hidden counts. Every move is one Django form (``MOVES``);
every screen is made in ``showdown.view`` from the engine's per-viewer ``visible_state`` (SS15).
The race's moves (Ready, Fire) carry the server's clock when they arrived (``tables.clock``)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from django import forms
from django.contrib.auth.models import User
from django.utils.translation import gettext, gettext_noop, ngettext
from django.utils.translation import gettext_lazy as _

from cards.errors import IllegalMove
from dustdevils.parsing import an_id
from showdown.codec import ShowdownCodec
from showdown.engine import game as g
from showdown.engine import moves as m
from showdown.engine.state import Options, Phase, state_from_data, state_to_data
from showdown.models import Showdown, ShowdownLine, ShowdownMoveKey, ShowdownSeat
from showdown.rulings import RULINGS
from showdown.view import proxies, seat_basis, showdown_screen
from tables.forms import GameMove, Is, NewGameForm, Word, count, md, move_of, plain
from tables.game import Game
from tables.site import site

if TYPE_CHECKING:
    from tables.words import Text


class NewShowdown(NewGameForm):
    """Who saw a western last (``dealer``: the dealer token) and the options."""

    dealer = forms.IntegerField(required=False)
    simple = forms.BooleanField(required=False)
    roulette = forms.BooleanField(required=False)
    events = forms.BooleanField(required=False)


MOVES: dict[str, type[GameMove]] = {
    "draw": move_of(m.Draw, public=Is("public"), posted={"from": "public"}),
    "cash": move_of(m.CashLoot, cards=count(_("Say how many Malloppo cards you discard."))),
    "cash-bounty": move_of(m.CashBounty, victim=Word()),
    "threaten": move_of(m.Threaten, target=Word(), pistol=Word(), second=Word()),
    "bluff": plain(m.CallBluff),
    "and-you": plain(m.AndYou),
    "bullets": move_of(m.Bullets, count=count(_("Enter the bullets on your cards."))),
    "bounty-trio": plain(m.BountyTrio),
    "horse": move_of(m.Horse, new_target=Word(), posted={"target": "new_target"}),
    "law": plain(m.Law),
    "desperado": move_of(m.Desperado, other=Word()),
    "standoff": plain(m.Standoff),
    "close-standoff": plain(m.CloseStandoff),
    "bottle": move_of(m.Bottle, hit=Word()),
    "ready": move_of(m.Ready, at="at"),
    "fire": move_of(
        m.Fire,
        at="at",
        target=Word(),
        pistol=Word(),
        zone=Word(),
        noise=Word(),
        law=forms.BooleanField(required=False),
    ),
    "confirm": plain(m.Confirm),
    "dispute": plain(m.Dispute),
    "settle": move_of(m.Settle, upheld=Is("yes")),
    "reveal": move_of(
        m.RevealEvent, host=True, name=Word(), drawer=Word(), posted={"event": "name"}
    ),
    "turkey": move_of(m.Turkey, host=True, shooter=Word()),
    "noon": move_of(m.Noon, host=True, shooter=Word(), hit=Word()),
    "count": move_of(m.EventCount, count=count(_("Enter the symbols on your cards."))),
    "event-done": plain(m.EventDone, host=True),
    "takeback": plain(m.TakeBackCount),
    "correct": move_of(
        m.Correct,
        host=True,
        who=Word(),
        loot=count(_("Say their loot.")),
        bounty=count(_("Say their bounty.")),
        wounds=count(_("Say their wounds.")),
    ),
    "event-back": plain(m.TakeBackEvent, host=True),
}
for form in MOVES.values():
    if form.host_only:
        form.host_refusal = _("Only the host reveals and settles the event cards.")


class SaloonShowdown(Game):
    kind = "showdown"
    name = "Saloon Showdown"
    players = _("2–7 players")
    blurb = _("bluffs, duels and bounties: the cards on the table, the money on the phones")
    order = 10
    labels: ClassVar[Mapping[str, Text]] = {
        Phase.PLAY.value: _("in play"),
        Phase.THREAT.value: _("a threat"),
        Phase.BLUFF.value: _("a bluff called"),
        Phase.FIGHT.value: _("a duel"),
        Phase.EVENT.value: _("an event"),
    }
    rulings = RULINGS
    model, seat_model, line_model, key_model = Showdown, ShowdownSeat, ShowdownLine, ShowdownMoveKey
    fk = "showdown"
    codec = ShowdownCodec
    screens_query = False  # every screen is made from ``screen_row`` alone (issue 38)
    new_form = NewShowdown
    moves = MOVES
    started = gettext_noop("Saloon Showdown: the cards are dealt.")
    lobby_partial = "games"
    shared_screen = True
    has_story = True
    time_on_arrival = True  # a duel's race: the claim's time is when it arrived

    def new_state(
        self, seats: list[tuple[str, str]], data: Mapping[str, Any], pid_of: Mapping[int, str],
        rng: random.Random,
    ) -> tuple[Any, Sequence[Any]]:  # fmt: skip
        dealer = data.get("dealer")
        if dealer is None or dealer not in data.get("users", {dealer: None}):
            raise IllegalMove(
                gettext_noop("Say who saw a western last: they take the dealer token.")
            )
        options = Options(
            simple=bool(data.get("simple")), roulette=bool(data.get("roulette")),
            events=bool(data.get("events")),
        )  # fmt: skip
        outcome = g.new_game(seats, pid_of.get(dealer, ""), options)
        return outcome.state, outcome.entries

    def apply(self, state: Any, move: Any, rng: random.Random) -> tuple[Any, Sequence[Any]]:
        outcome = g.apply(state, move, rng)
        return outcome.state, outcome.entries

    def load(self, data: Any) -> Any:
        return state_from_data(data)

    def dump(self, state: Any) -> Any:
        return state_to_data(state)

    def seat_name(self, state: Any, pid: str) -> str | None:
        return state.player(pid).name if state.has(pid) else None

    def basis(self, state: Any, pid: str) -> str:
        return seat_basis(state, pid)

    def note(self, text: str, pid: str = "") -> g.Entry:
        return g.Entry("rule", text, pid)

    def lines(self, events: Sequence[Any], actor: User, state: Any) -> list[dict[str, Any]]:
        return [{"kind": e.kind, "pid": e.pid, "actor": actor, "text": e.text} for e in events]

    def notice(self, lines: Sequence[Any]) -> str:
        return " ".join(line.shown for line in lines if line.kind != "turn")

    def screen(self, state: Any, me: str | None, context: Mapping[str, Any]) -> dict[str, Any]:
        return showdown_screen(state, me)

    def proxies(self, state: Any, me: str | None) -> list[dict[str, Any]]:
        """SS19: what the host may do for each player who must act now."""
        return proxies(state, me)

    def list_context(self, membership: Any, form: Any = None) -> dict[str, Any]:
        """A refused start keeps the dealer chosen (issue 36: said next to the field)."""
        return {"dealer_id": None if form is None else an_id(form.data.get("dealer"))}

    def story_end(self, state: Any) -> list[str]:
        if not state.over:
            return []
        return ["", "## " + gettext("The scores"), ""] + [
            f"{i}. {md(p.name)}: {p.score}$ ("
            + ngettext(
                "{loot}$ loot + {bounty}$ bounty − {wounds} wound",
                "{loot}$ loot + {bounty}$ bounty − {wounds} wounds",
                p.wounds,
            ).format(loot=p.loot, bounty=p.bounty, wounds=p.wounds)
            + ")"
            for i, p in enumerate(g.standings(state), start=1)
        ]


SHOWDOWN = site.register(SaloonShowdown())
