"""The base of every move form: what the kit reads from any move (``version``, ``key``,
``basis``), and ``problem_of`` for a form that does not validate."""

from __future__ import annotations

from typing import ClassVar

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext

from dustdevils.parsing import an_id, whole_number


def problem_of(form: forms.Form) -> str:
    """The first thing wrong with a form, in plain words."""
    for name, errors in form.errors.items():
        label = "" if name == "__all__" or name not in form.fields else form.fields[name].label
        return f"{label}: {errors[0]}" if label else str(errors[0])
    return gettext("Something in that form is missing.")


class MoveForm(forms.Form):
    """A move: the table's ``version`` the page was made at, the idempotency ``key`` (a double
    click sends the same key and changes nothing) and the ``basis`` of a move about one hand or
    seat (``tables.moves.Basis``: the move still applies after other hands moved)."""

    version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    key = forms.CharField(max_length=64, required=False, widget=forms.HiddenInput)
    basis = forms.CharField(max_length=64, required=False, widget=forms.HiddenInput)

    move_type: ClassVar[type]
    # The game's table-wide moves (only the Dealer makes them: based on the whole table).
    dealer_moves: ClassVar[tuple[type, ...]] = ()

    @classmethod
    def dealer_only(cls) -> bool:
        return issubclass(cls.move_type, cls.dealer_moves)


def seated_ids(data: object) -> list[int]:
    """The members a new game's form seats (``player``: their ids), clockwise by their seat
    numbers (``seat_<id>``; unnumbered last, in the order sent). Ids and seat numbers are read
    as whole numbers the database can hold; anything else is left out."""
    if not isinstance(data, QueryDict):
        return []
    seats: list[tuple[int, int]] = []
    for raw in data.getlist("player"):
        user_id = an_id(raw)
        if user_id is not None:
            seat = whole_number(data.get(f"seat_{raw}"), minimum=None)
            seats.append((99 if seat is None else seat, user_id))
    seats.sort(key=lambda seat: seat[0])  # stable: unnumbered in the order sent
    return list(dict.fromkeys(user_id for _, user_id in seats))
