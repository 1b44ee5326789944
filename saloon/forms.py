"""The saloon's moves from posted forms: each action name to a function of the mover's own seat
(``pid``), so a form can never act for someone else. Bad input is refused in plain words."""

from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.http import QueryDict

from cards.deck import Card, CardParseError, parse_card
from dustdevils.idempotency import key_field
from dustdevils.parsing import posted_text, whole_number
from saloon.engine import game as g
from saloon.services import SaloonError
from tables.forms import MoveForm, problem_of, seated_ids

MoveOf = Callable[[str], g.Move]


def _int(data: QueryDict, name: str, missing: str) -> int:
    number = whole_number(data.get(name), minimum=None)
    if number is None:
        raise SaloonError(missing)
    return number


def _card(data: QueryDict, name: str, missing: str) -> Card:
    try:
        return parse_card(data.get(name, ""))
    except CardParseError:
        raise SaloonError(missing) from None


def _text(data: QueryDict, name: str = "text") -> str:
    """Posted text as a form field reads it: a NUL character is refused in plain words."""
    try:
        return posted_text(data, name)
    except forms.ValidationError as error:
        raise SaloonError(" ".join(error.messages)) from None


def _prompt(data: QueryDict) -> MoveOf:
    """ "***" filled by a player's character (``subject`` = "pid:<pid>"), a secondary
    character picked from table 1, or a new one typed (``subject_other``)."""
    chosen = _text(data, "subject").strip()
    typed = _text(data, "subject_other").strip()
    text = _text(data)
    up = _brought_up(data)
    if chosen.startswith("pid:"):
        subject_pid = chosen.removeprefix("pid:")
        return lambda pid: g.Prompt(pid, subject_pid=subject_pid, text=text, brought_up=up)
    subject = typed or chosen
    return lambda pid: g.Prompt(pid, subject=subject, text=text, brought_up=up)


def _brought_up(data: QueryDict) -> str:
    """R34: the player whose character a table-3 cue without "***", or an answer, brings up."""
    return data.get("brought_up", "").strip().removeprefix("pid:")


def _discard(data: QueryDict) -> MoveOf:
    try:
        # One choice per three of a kind: ``keep_<rank>`` (and plain ``keep``, repeated).
        chosen = [t for name in data if name.startswith("keep") for t in data.getlist(name)]
        keep = tuple(parse_card(t) for t in chosen if t)
    except CardParseError:
        raise SaloonError("Keep one of the cards of your three of a kind.") from None
    return lambda pid: g.Discard(pid, keep)


def _continue(data: QueryDict) -> MoveOf:
    card = _card(data, "card", "Pick an archetype.") if data.get("card") else None
    return lambda pid: g.Continue(pid, card)


def _pick(data: QueryDict) -> MoveOf:
    card = _card(data, "card", "Pick an archetype.")
    return lambda pid: g.PickArchetype(pid, card)


def _name(data: QueryDict) -> MoveOf:
    name = _text(data, "name")
    return lambda pid: g.NameCharacter(pid, name)


def _swap(data: QueryDict) -> MoveOf:
    other = _text(data, "other")
    return lambda pid: g.SwapWith(pid, other)


def _draw(data: QueryDict) -> MoveOf:
    position = _int(data, "position", "Pick one of the Doomed’s cards.")
    return lambda pid: g.Draw(pid, position)


def _shoot(data: QueryDict) -> MoveOf:
    position = _int(data, "position", "Choose one of the two cards face down.")
    return lambda pid: g.Shoot(pid, position)


def _answer(data: QueryDict) -> MoveOf:
    text, up = _text(data), _brought_up(data)
    return lambda pid: g.Answer(pid, text, brought_up=up)


def _follow_up(data: QueryDict) -> MoveOf:
    text = _text(data)
    return lambda pid: g.FollowUp(pid, text)


def _tell(data: QueryDict) -> MoveOf:
    text = _text(data)
    return lambda pid: g.Tell(pid, text)


def _plain(move: Callable[[str], g.Move]) -> Callable[[QueryDict], MoveOf]:
    return lambda data: move


PARSERS: dict[str, Callable[[QueryDict], MoveOf]] = {
    "pick": _pick, "name": _name, "discard": _discard, "swap": _swap, "draw": _draw,
    "prompt": _prompt, "answer": _answer, "follow_up": _follow_up, "pass": _plain(g.Pass),
    "shoot": _shoot, "tell": _tell, "leave": _plain(g.Leave),
    "raise": _plain(g.RaiseUnwanted), "lower": _plain(g.LowerUnwanted),
    "lower-host": _plain(g.LowerUnwanted), "continue": _continue,
}  # fmt: skip


class OneOffForm(forms.Form):
    """A one-off table: its name (optional) and the form's idempotency key."""

    name = forms.CharField(max_length=120, required=False, label="Name the table")
    key = key_field()


class NewGameForm(forms.Form):
    """A new game: who plays (``player``: member ids) in which seats (``seat_<id>``), whether
    each picks an archetype, and the form's idempotency key. Ids and seat numbers are read as
    whole numbers the database can hold; anything else is left out."""

    pick = forms.BooleanField(required=False)
    key = key_field()

    def seated(self) -> list[int]:
        """The chosen members' ids, clockwise by their seat numbers (unnumbered last)."""
        return seated_ids(self.data)


class SaloonMoveForm(MoveForm):
    """What every saloon move sends besides its own fields (the kit's version, key, basis);
    a saloon form may leave the version out (the move then applies to the table as it is)."""

    version = forms.IntegerField(min_value=0, required=False, widget=forms.HiddenInput)


def move_basics(data: QueryDict) -> tuple[int | None, str, str]:
    """(the form's version, its key, its basis); ``SaloonError`` when they are malformed."""
    form = SaloonMoveForm(data)
    if not form.is_valid():
        raise SaloonError(problem_of(form))
    return form.cleaned_data["version"], form.cleaned_data["key"], form.cleaned_data["basis"]


def parse_move(action: str, data: QueryDict) -> tuple[MoveOf, int | None, str, str]:
    """(the move as a function of the mover's seat, the form's version, its key, its basis).
    Raises ``SaloonError`` for bad input, ``KeyError`` for an unknown action."""
    version, key, basis = move_basics(data)
    return PARSERS[action](data), version, key, basis
