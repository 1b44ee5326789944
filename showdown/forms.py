"""Saloon Showdown's moves from posted forms: each action name to a function of the mover's own
seat (``pid``), so a form never acts for someone else. Bad input is refused in plain words. The
race's moves (ready, fire) carry the server's clock when they arrived (``tables.clock``)."""

from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.http import QueryDict

from dustdevils.idempotency import key_field
from dustdevils.parsing import whole_number
from showdown.engine import moves as m
from showdown.services import ShowdownError
from tables.forms import MoveForm, problem_of, seated_ids

MoveOf = Callable[[str], m.Move]
Parser = Callable[[QueryDict, int], MoveOf]


def _int(data: QueryDict, name: str, missing: str) -> int:
    number = whole_number(data.get(name), minimum=None, maximum=1000)
    if number is None:
        raise ShowdownError(missing)
    return number


def _word(data: QueryDict, name: str) -> str:
    return str(data.get(name, "")).strip()[:20]


def _plain(move: type[m.Move]) -> Parser:
    return lambda data, at: lambda pid: move(pid)


def _draw(data: QueryDict, at: int) -> MoveOf:
    public = data.get("from") == "public"
    return lambda pid: m.Draw(pid, public)


def _cash(data: QueryDict, at: int) -> MoveOf:
    n = _int(data, "cards", "Say how many Malloppo cards you discard.")
    return lambda pid: m.CashLoot(pid, n)


def _cash_bounty(data: QueryDict, at: int) -> MoveOf:
    victim = _word(data, "victim")
    return lambda pid: m.CashBounty(pid, victim)


def _threaten(data: QueryDict, at: int) -> MoveOf:
    target, pistol, second = _word(data, "target"), _word(data, "pistol"), _word(data, "second")
    return lambda pid: m.Threaten(pid, target, pistol, second)


def _bullets(data: QueryDict, at: int) -> MoveOf:
    n = _int(data, "count", "Enter the bullets on your cards.")
    return lambda pid: m.Bullets(pid, n)


def _count(data: QueryDict, at: int) -> MoveOf:
    n = _int(data, "count", "Enter the symbols on your cards.")
    return lambda pid: m.EventCount(pid, n)


def _horse(data: QueryDict, at: int) -> MoveOf:
    target = _word(data, "target")
    return lambda pid: m.Horse(pid, target)


def _desperado(data: QueryDict, at: int) -> MoveOf:
    other = _word(data, "other")
    return lambda pid: m.Desperado(pid, other)


def _bottle(data: QueryDict, at: int) -> MoveOf:
    hit = _word(data, "hit")
    return lambda pid: m.Bottle(pid, hit)


def _ready(data: QueryDict, at: int) -> MoveOf:
    return lambda pid: m.Ready(pid, at)


def _fire(data: QueryDict, at: int) -> MoveOf:
    target, pistol = _word(data, "target"), _word(data, "pistol")
    zone, noise, law = _word(data, "zone"), _word(data, "noise"), data.get("law") == "on"
    return lambda pid: m.Fire(pid, at, target, pistol, zone, noise, law)


def _settle(data: QueryDict, at: int) -> MoveOf:
    upheld = data.get("upheld") == "yes"
    return lambda pid: m.Settle(pid, upheld)


def _reveal(data: QueryDict, at: int) -> MoveOf:
    name, drawer = _word(data, "event"), _word(data, "drawer")
    return lambda pid: m.RevealEvent(pid, name, drawer)


def _turkey(data: QueryDict, at: int) -> MoveOf:
    shooter = _word(data, "shooter")
    return lambda pid: m.Turkey(pid, shooter)


def _noon(data: QueryDict, at: int) -> MoveOf:
    shooter, hit = _word(data, "shooter"), _word(data, "hit")
    return lambda pid: m.Noon(pid, shooter, hit)


def _correct(data: QueryDict, at: int) -> MoveOf:
    who = _word(data, "who")
    loot = _int(data, "loot", "Say their loot.")
    bounty = _int(data, "bounty", "Say their bounty.")
    wounds = _int(data, "wounds", "Say their wounds.")
    return lambda pid: m.Correct(pid, who, loot, bounty, wounds)


PARSERS: dict[str, Parser] = {
    "draw": _draw, "cash": _cash, "cash-bounty": _cash_bounty, "threaten": _threaten,
    "bluff": _plain(m.CallBluff), "and-you": _plain(m.AndYou), "bullets": _bullets,
    "bounty-trio": _plain(m.BountyTrio), "horse": _horse, "law": _plain(m.Law),
    "desperado": _desperado, "standoff": _plain(m.Standoff),
    "close-standoff": _plain(m.CloseStandoff), "bottle": _bottle, "ready": _ready,
    "fire": _fire, "confirm": _plain(m.Confirm), "dispute": _plain(m.Dispute),
    "settle": _settle, "reveal": _reveal, "turkey": _turkey, "noon": _noon,
    "count": _count, "event-done": _plain(m.EventDone), "takeback": _plain(m.TakeBackCount),
    "correct": _correct, "event-back": _plain(m.TakeBackEvent),
}  # fmt: skip


class NewGameForm(forms.Form):
    """A new game: who plays (``player``: member ids, clockwise in the order of ``seat_<id>``),
    who saw a western last (``dealer``), the options, and the form's key."""

    dealer = forms.IntegerField(required=False)
    simple = forms.BooleanField(required=False)
    roulette = forms.BooleanField(required=False)
    events = forms.BooleanField(required=False)
    key = key_field()

    def seated(self) -> list[int]:
        return seated_ids(self.data)


class ShowdownMoveForm(MoveForm):
    """The kit's version, key and basis; the version may be left out (the move then applies to
    the table as it is)."""

    version = forms.IntegerField(min_value=0, required=False, widget=forms.HiddenInput)


def parse_move(action: str, data: QueryDict, at: int) -> tuple[MoveOf, int | None, str, str]:
    """(the move as a function of the mover's seat, the version, the key, the basis). Raises
    ``ShowdownError`` for bad input, ``KeyError`` for an unknown action."""
    form = ShowdownMoveForm(data)
    if not form.is_valid():
        raise ShowdownError(problem_of(form))
    made = PARSERS[action](data, at)
    return made, form.cleaned_data["version"], form.cleaned_data["key"], form.cleaned_data["basis"]
