"""A game's forms: the base of every move form (``MoveForm``: what the kit reads from any
move, ``version``, ``key``, ``basis``), ``problem_of`` for a form that does not validate, and
what a declared game (``tables.game``) builds its forms from: ``NewGameForm``, ``GameMove``,
``plain``/``move_of`` and the fields ``Word``, ``Is``, ``count``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from django import forms
from django.contrib.auth.models import User
from django.http import QueryDict
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from dustdevils.idempotency import key_field
from dustdevils.parsing import an_id, whole_number

if TYPE_CHECKING:
    from tables.words import Text


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


def md(text: str) -> str:
    """Text as one Markdown line: no line breaks, no raw HTML."""
    return " ".join(text.split()).replace("<", "&lt;").replace(">", "&gt;")


def display_name(user: User) -> str:
    """How a person is named at a table: their first name, else their username."""
    return user.first_name or user.get_username()


class NewGameForm(forms.Form):
    """A new game: who plays (``player``: member ids, clockwise in the order sent, or by their
    ``seat_<id>`` numbers) and the form's idempotency key. A game adds its own options."""

    key = key_field()

    def seated(self) -> list[int]:
        return seated_ids(self.data)


class GameMove(MoveForm):
    """One move's form: the kit's version, key and basis (the version may be left out: the move
    then applies to the table as it is, judged by the engine) and the move's own fields.
    ``move`` makes the engine's move for the mover's seat ``pid`` at the server's ``now_ms``
    (a form never acts for someone else, nor says what time it is)."""

    version = forms.IntegerField(min_value=0, required=False, widget=forms.HiddenInput)

    # A move of the table's host (the Dealer), seated or not, rather than of a seat.
    host_only: ClassVar[bool] = False
    host_refusal: ClassVar[Text] = _("Only the host makes that move.")
    # A host's move: the host's name, once the site knows they host (the timeline says who).
    host: str = ""

    def move(self, pid: str, now_ms: int) -> Any:
        raise NotImplementedError


def plain(engine_move: Any, *, host: bool = False) -> type[GameMove]:
    """The form of a move that takes nothing but the mover's seat (``engine_move(pid)``)."""
    return move_of(engine_move, host=host)


def move_of(
    engine_move: Any, *, host: bool = False, at: str = "",
    posted: Mapping[str, str] | None = None, **fields: forms.Field,
) -> type[GameMove]:  # fmt: skip
    """The form of the move ``engine_move(pid, **fields)``: each field posted under the engine's
    own name for it (or the name ``posted`` maps to it); ``at``: the engine's field that takes
    the server's clock (ms)."""
    names = {field: post for post, field in (posted or {}).items()}
    form_fields = {names.get(field, field): value for field, value in fields.items()}

    def move(self: GameMove, pid: str, now_ms: int) -> Any:
        values = {field: self.cleaned_data[names.get(field, field)] for field in fields}
        return engine_move(pid, **values, **({at: now_ms} if at else {}))

    name = f"{getattr(engine_move, '__name__', 'Move')}Form"
    attrs: dict[str, Any] = {**form_fields, "move": move, "host_only": host, "__module__": __name__}
    return type(name, (GameMove,), attrs)


class Word(forms.CharField):
    """A seat, a name or a choice the engine judges: at most 20 characters (more is cut), ""
    when left out."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, **kwargs)

    def to_python(self, value: Any) -> str:
        return str(super().to_python(value))[:20]


class Is(forms.Field):
    """A choice true when posted as ``value`` (anything else, or nothing, is false)."""

    def __init__(self, value: str, **kwargs: Any) -> None:
        self.value = value
        super().__init__(required=False, **kwargs)

    def to_python(self, value: Any) -> bool:
        return bool(value == self.value)


def count(missing: Text, maximum: int = 1000) -> forms.IntegerField:
    """A whole number the player must give (``missing``: what to say when it is not one)."""
    return forms.IntegerField(
        max_value=maximum,
        error_messages=dict.fromkeys(("required", "invalid", "max_value"), missing),
    )
