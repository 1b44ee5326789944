"""The Gunfighter's moves from posted forms: each action to a function of the mover's own seat
and the server's clock, so a form can never act for someone else nor say what time it is. Bad
input is refused in plain words."""

from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.http import QueryDict

from dustdevils.idempotency import key_field
from dustdevils.parsing import an_id, whole_number
from gunfighter.engine import state as s
from gunfighter.services import GunfightError, MoveOf
from tables.clock import LEAD_MS
from tables.forms import MoveForm, problem_of


def _choose(data: QueryDict) -> MoveOf:
    deck = data.get("deck", "")
    return lambda pid, now: s.ChooseDeck(pid, deck)


def _mat(data: QueryDict) -> MoveOf:
    """``hit_<pid>``: the points each gunfighter dealt (blank is 0); ``left``: the cards left in
    the bandolier; ``last``: who dealt the last point, when the damage kills."""
    hits = []
    for name in data:
        if name.startswith("hit_") and data.get(name, "").strip():
            points = whole_number(data.get(name), minimum=0)
            if points is None or points > s.MAX_POINTS:
                raise GunfightError(f"Damage is a whole number from 0 to {s.MAX_POINTS}.")
            hits.append((name.removeprefix("hit_")[:20], points))
    raw_left = data.get("left", "").strip() or "0"
    left = whole_number(raw_left, minimum=0)
    if left is None or left > s.BANDOLIER:
        raise GunfightError(f"Cards left in your bandolier: a number from 0 to {s.BANDOLIER}.")
    last = data.get("last", "").strip()[:20]
    made = tuple(hits)
    return lambda pid, now: s.EnterMat(pid, now_ms=now, hits=made, left=left, last=last)


def _plain(move: Callable[[str], s.Move]) -> Callable[[QueryDict], MoveOf]:
    return lambda data: lambda pid, now: move(pid)


def _clock(data: QueryDict) -> MoveOf:
    # The countdown starts a moment from now, so the stream reaches every phone first.
    return lambda pid, now: s.StartClock(pid, at_ms=now + LEAD_MS)


PARSERS: dict[str, Callable[[QueryDict], MoveOf]] = {
    "choose": _choose, "random": _plain(s.DrawAtRandom), "covert": _plain(s.PlayCovert),
    "ready": _plain(s.BandolierSet), "clock": _clock, "mat": _mat,
}  # fmt: skip


class NewGameForm(forms.Form):
    """A new gunfight: who plays (``player``: member ids, clockwise in the order sent), who saw
    a western last, whether everyone agreed to choose their decks; the form's key."""

    choose = forms.BooleanField(required=False)
    western = forms.IntegerField(required=False, min_value=1, max_value=2**31 - 1)
    key = key_field()

    def seated(self) -> list[int]:
        posted = self.data.getlist("player") if isinstance(self.data, QueryDict) else []
        ids = [an_id(raw) for raw in posted]
        return list(dict.fromkeys(i for i in ids if i is not None))


class GunfightMoveForm(MoveForm):
    """The kit's version, key and basis; the version may be left out (the move then applies to
    the table as it is, judged by the engine)."""

    version = forms.IntegerField(min_value=0, required=False, widget=forms.HiddenInput)


def parse_move(action: str, data: QueryDict) -> tuple[MoveOf, int | None, str, str]:
    """(the move, the form's version, its key, its basis); ``GunfightError`` for bad input,
    ``KeyError`` for an unknown action."""
    form = GunfightMoveForm(data)
    if not form.is_valid():
        raise GunfightError(problem_of(form))
    move = PARSERS[action](data)
    return move, form.cleaned_data["version"], form.cleaned_data["key"], form.cleaned_data["basis"]
