"""Death Enters the Saloon (seed 000) at the table: its declaration (``tables.game.Game``). The
rules live in ``saloon.engine``; every move is one Django form (``MOVES``); every screen is made
in ``saloon.screens.saloon_screen`` from the engine's one per-viewer read (``visible_cards``).
What is the saloon's own beside the site's pages: a one-off table and its invitations, the
shared table screen, the story, and striking words from it (S4)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from django import forms
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.http import HttpResponse
from django.urls import path
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from cards.deck import Card, CardParseError, parse_card
from dustdevils.parsing import INT_MAX
from saloon import screens
from saloon.codec import SaloonCodec
from saloon.engine import game as g
from saloon.engine import tables
from saloon.engine.serial import state_from_data, state_to_data
from saloon.models import Saloon, SaloonLine, SaloonMoveKey, SaloonSeat
from tables import pages
from tables.errors import Refused
from tables.forms import GameMove, NewGameForm, move_of, plain
from tables.game import Game
from tables.site import site


# --- The moves, one form each (the mover's own seat: ``pid``) --------------------------------
def _text(**kwargs: Any) -> forms.CharField:
    """Posted text as typed (no NUL character); the engine trims what it keeps."""
    return forms.CharField(required=False, strip=False, **kwargs)


def _position(missing: str) -> forms.IntegerField:
    bounds = {"required": missing, "invalid": missing, "min_value": missing, "max_value": missing}
    return forms.IntegerField(min_value=-INT_MAX, max_value=INT_MAX, error_messages=bounds)


class CardField(forms.CharField):
    """A card by its text ("KH", "BJ"): ``missing`` when it is not one."""

    def __init__(self, missing: str, **kwargs: Any) -> None:
        super().__init__(error_messages={"required": missing}, **kwargs)
        self.missing = missing

    def to_python(self, value: Any) -> Card | None:  # type: ignore[override]
        text = super().to_python(value)
        try:
            return parse_card(text) if text else None
        except CardParseError:
            raise forms.ValidationError(self.missing) from None


class Discard(GameMove):
    """One card kept per three of a kind: ``keep_<rank>`` (and plain ``keep``, repeated)."""

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        posted: Any = self.data  # a QueryDict (a plain dict: one value a name)
        many = getattr(posted, "getlist", lambda name: [posted[name]])
        chosen = [t for name in posted if name.startswith("keep") for t in many(name)]
        try:
            data["keep"] = tuple(parse_card(t) for t in chosen if t)
        except CardParseError:
            raise forms.ValidationError("Keep one of the cards of your three of a kind.") from None
        return data

    def move(self, pid: str, now_ms: int) -> g.Move:
        return g.Discard(pid, self.cleaned_data["keep"])


class BroughtUp(forms.CharField):
    """R34: the player whose character the words bring up (posted as "pid:<pid>"), or ""."""

    def __init__(self) -> None:
        super().__init__(required=False)

    def to_python(self, value: Any) -> str:
        return str(super().to_python(value)).removeprefix("pid:")


class Prompt(GameMove):
    """ "***" filled by a player's character (``subject`` = "pid:<pid>"), a secondary character
    picked from table 1, or a new one typed (``subject_other``); R34: the player whose character
    the words bring up."""

    text = _text()
    brought_up = BroughtUp()
    subject = _text()
    subject_other = _text()

    def move(self, pid: str, now_ms: int) -> g.Move:
        chosen, text = self.cleaned_data["subject"].strip(), self.cleaned_data["text"]
        up = self.cleaned_data["brought_up"]
        if chosen.startswith("pid:"):
            return g.Prompt(pid, subject_pid=chosen[4:], text=text, brought_up=up)
        subject = self.cleaned_data["subject_other"].strip() or chosen
        return g.Prompt(pid, subject=subject, text=text, brought_up=up)


class LowerAsHost(GameMove):
    """R34: the host (the table's Dealer, seated or not) lowers the Unwanted card."""

    host_only = True
    host_refusal = "Only the host lowers the Unwanted card for the table."

    def move(self, pid: str, now_ms: int) -> g.Move:
        return g.LowerUnwanted(pid, host=self.host)


STRUCK_TEXT = "Words struck from the story at the table’s request."


class Strike(GameMove):
    """S4: while the Unwanted card is up, strike a line's words (a question, a cue, an answer, a
    follow-up, a tale) from the timeline and the story, for good. The engine rules who may
    (``Strike``); the words go in the move's own transaction (a refusal writes nothing)."""

    def __init__(self, data: Any, *, saloon_id: int, line_id: int) -> None:
        super().__init__(data)
        self.lines = SaloonLine.objects.filter(saloon_id=saloon_id, kind__in=screens.STORY_KINDS)
        self.line_id = line_id

    def move(self, pid: str, now_ms: int) -> g.Move:
        line = self.lines.filter(pk=self.line_id, struck=False).first()
        if line is None:
            raise Refused("There are no such words left in this game's story.")
        prompts = self.lines.filter(kind__in=("question", "cue")).order_by("-seq")
        latest = prompts.values_list("pk", flat=True).first()
        self.lines.filter(pk=line.pk).update(text=STRUCK_TEXT, said="", struck=True)
        return g.Strike(pid, author=line.pid, prompt=line.pk == latest)


MOVES: dict[str, type[GameMove]] = {
    "pick": move_of(g.PickArchetype, card=CardField("Pick an archetype.")),
    "name": move_of(g.NameCharacter, name=_text()),
    "discard": Discard,
    "swap": move_of(g.SwapWith, other=_text()),
    "draw": move_of(g.Draw, position=_position("Pick one of the Doomed’s cards.")),
    "prompt": Prompt,
    "answer": move_of(g.Answer, text=_text(), brought_up=BroughtUp()),
    "follow_up": move_of(g.FollowUp, text=_text()),
    "pass": plain(g.Pass),
    "shoot": move_of(g.Shoot, position=_position("Choose one of the two cards face down.")),
    "tell": move_of(g.Tell, text=_text()),
    "leave": plain(g.Leave),
    "raise": plain(g.RaiseUnwanted),
    "lower": plain(g.LowerUnwanted),
    "lower-host": LowerAsHost,
    "continue": move_of(g.Continue, card=CardField("Pick an archetype.", required=False)),
}


class NewSaloon(NewGameForm):
    """Whether each player picks their archetype (the alternative rule)."""

    pick = forms.BooleanField(required=False)


# --- The declaration -------------------------------------------------------------------------
class DeathEntersTheSaloon(Game):
    kind = "saloon"
    name = "Death Enters the Saloon"
    players = gettext_lazy("3–5 players")
    blurb = gettext_lazy("a one-shot about guilt and the fear of Death")
    order = 0
    missing = "No such game in this campaign."
    labels: ClassVar[Mapping[str, str]] = {
        g.Phase.ARCHETYPES.value: "picking archetypes",
        g.Phase.DISCARD.value: "discarding pairs",
        g.Phase.SWAP.value: "the Doomed's swap",
        g.Phase.PLAY.value: "in play",
        g.Phase.DUEL.value: "the duel",
    }
    model, seat_model, line_model, key_model = Saloon, SaloonSeat, SaloonLine, SaloonMoveKey
    fk = "saloon"
    new_form = NewSaloon
    moves = MOVES
    started = "Death enters the saloon."
    opening = "{actor} starts a game: Death enters the saloon."
    shared_screen = True
    codec = SaloonCodec
    has_story = True
    host_acts_for = False
    one_off = True  # a one-off table's lobby is the saloon's (issue 20)
    one_off_name = "{host}’s saloon table"
    invite_label = "A seat at the saloon"
    screens_query = False  # every screen is made from ``screen_row`` alone

    def new_state(
        self, seats: list[tuple[str, str]], data: Mapping[str, Any], pid_of: Mapping[int, str],
        rng: random.Random,
    ) -> tuple[g.SaloonState, Sequence[g.Entry]]:  # fmt: skip
        outcome = g.new_game(seats, rng, pick=bool(data.get("pick")))
        return outcome.state, outcome.entries

    def apply(self, state: Any, move: Any, rng: random.Random) -> tuple[Any, Sequence[Any]]:
        outcome = g.apply(state, move, rng)
        return outcome.state, outcome.entries

    def load(self, data: Any) -> g.SaloonState:
        return state_from_data(data)

    def dump(self, state: Any) -> Any:
        return state_to_data(state)

    def seat_name(self, state: Any, pid: str) -> str | None:
        return state.player(pid).name if state.has(pid) else None

    def basis(self, state: Any, pid: str) -> str:
        return screens.seat_basis(state, pid)

    def note(self, text: str, pid: str = "") -> g.Entry:
        return g.Entry("rule", text, pid)

    def lines(self, events: Sequence[Any], actor: User, state: Any) -> list[dict[str, Any]]:
        return [
            {"deal": state.deal, "kind": e.kind, "pid": e.pid, "actor": actor, "text": e.text,
             "said": e.said}
            for e in events
        ]  # fmt: skip

    def notice(self, lines: Sequence[Any]) -> str:
        """What happened, as the rules say it (the words said are on the timeline)."""
        return " ".join(line.text for line in lines if line.kind == "rule")

    def screen(self, state: Any, me: str | None, context: Mapping[str, Any]) -> dict[str, Any]:
        return screens.saloon_screen(state, me, context["host"])

    def timeline(self, row: Any, state: Any) -> QuerySet[SaloonLine]:
        return screens.lines_of(row, state)

    def list_context(self, membership: Any, form: Any = None) -> dict[str, Any]:
        return {"readings": g.READINGS, "credit": tables.CREDIT}

    def story_markdown(self, row: Any) -> str:
        return screens.story_markdown(row)

    def extra_urls(self) -> list[Any]:
        return [path("<int:saloon_id>/strike/<int:line_id>/", strike, name="strike")]


SALOON = site.register(DeathEntersTheSaloon())


# --- The saloon's own page ---------------------------------------------------------------------
@login_required
@require_POST
def strike(request: Any, slug: str, saloon_id: int, line_id: int) -> HttpResponse:
    """S4: strike words from the story while the Unwanted card is up (answers as a move)."""
    form = Strike(request.POST, saloon_id=saloon_id, line_id=line_id)
    return pages.answer_move(SALOON, request, slug, saloon_id, form)
