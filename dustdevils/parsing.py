"""The one way a value a client sent is read when it is not a whole form: through Django's own
form fields (issue 28). ``str.isdigit()`` then ``int()`` is not a check: ``"²".isdigit()`` is
true and ``int("²")`` fails, a 4,400-digit string fails ``int()``, and a 30-digit id passes
both only to overflow SQLite's integers in the query. A NUL character passes a plain
``request.POST.get`` and then fails PostgreSQL. Each reader here answers ``None`` (or raises a
form's ``ValidationError``) instead, so a view answers 404 or its form's message — never 500.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

# The database's whole numbers: PostgreSQL ``integer`` (Django's IntegerField and
# PositiveIntegerField) and ``bigint`` (the BigAutoField ids).
INT_MAX = 2_147_483_647
ID_MAX = 2**63 - 1


def whole_number(value: object, *, minimum: int | None = 0, maximum: int = INT_MAX) -> int | None:
    """A whole number as Django's ``IntegerField`` reads it, within the bounds (``minimum``
    None: down to ``-maximum``); ``None`` when ``value`` is missing, empty or anything else."""
    low = -maximum if minimum is None else minimum
    field = forms.IntegerField(required=False, min_value=low, max_value=maximum)
    try:
        number = field.clean(value if isinstance(value, str | int) else None)
    except ValidationError:
        return None
    return number if isinstance(number, int) else None


def an_id(value: object) -> int | None:
    """A row's id a client sent (``?fight=12``, a posted character): ``None`` when it cannot be
    one, so the lookup is a plain "no such thing"."""
    return whole_number(value, minimum=1, maximum=ID_MAX)


def posted_text(data: Mapping[str, Any], name: str, *, max_length: int | None = None) -> str:
    """A posted text field as a ``CharField`` reads it (no NUL character, at most
    ``max_length``), "" when it is missing; ``ValidationError`` with the field's message
    otherwise. Not stripped: the service trims what it keeps."""
    field = forms.CharField(required=False, strip=False, max_length=max_length)
    return str(field.clean(data.get(name, "")))


class IdsField(forms.ModelMultipleChoiceField):  # type: ignore[type-arg]
    """A ``ModelMultipleChoiceField`` whose chosen ids are checked as ids before any query: a
    30-digit one is "not one of the choices", not an overflow in SQLite's ``IN (...)``."""

    def clean(self, value: Any) -> Any:
        if isinstance(value, list | tuple):
            for item in value:
                if an_id(item) is None:
                    raise ValidationError(
                        self.error_messages["invalid_pk_value"],
                        code="invalid_pk_value",
                        params={"pk": str(item)[:40]},
                    )
        return super().clean(value)
