"""Words a person reads, said by an engine without Django (issue 39): a message (English, with
``{name}`` places) and its values, kept apart so that each reader sees it in their own language
(``tables.words.shown`` translates it when it is shown; the English text is kept beside it).

The markers are the names GNU gettext's ``xgettext`` (Django's ``makemessages``) looks for, so
the catalogue finds every message where it is written: ``gettext_noop(message)``,
``ngettext(singular, plural, n)`` (the count is the value ``n``) and ``pgettext(context, word)``
for a value that is itself a word to translate (a pistol's colour: ``Term``). A value that is
a list of names is said "A and B" (in the reader's language)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class Term(str):
    """A value that is itself a word to translate (in ``context``), not a name."""

    context: str

    def __new__(cls, word: str, context: str = "") -> Term:
        made = super().__new__(cls, word)
        made.context = context
        return made


class Plural(str):
    """A message with a plural form, chosen by the value ``n``."""

    plural: str

    def __new__(cls, singular: str, plural: str) -> Plural:
        made = super().__new__(cls, singular)
        made.plural = plural
        return made


class Said(str):
    """What an engine said: the English text (it is a ``str``), with its ``message`` and
    ``values`` (as ``data`` stores them) kept for the reader's language. The table kit writes
    both into a timeline line (``tables.moves``)."""

    message: str
    values: dict[str, Any]

    def __new__(cls, message: str, values: Mapping[str, Any]) -> Said:
        made = super().__new__(cls, english(message, values) if values else str(message))
        made.message = str(message)
        made.values = data(message, values)
        return made


def said(message: str, **values: Any) -> Said:
    """``message`` (marked where it is written) with its values."""
    return Said(message, values)


def gettext_noop(message: str) -> str:
    """``message``, marked for the catalogue."""
    return message


def ngettext(singular: str, plural: str, n: int) -> Plural:
    """A message with a plural (the value ``n`` chooses), marked for the catalogue."""
    return Plural(singular, plural)


def pgettext(context: str, word: str) -> Term:
    """A word to translate as a value of a message (in ``context``), marked for the
    catalogue."""
    return Term(word, context)


def english(message: str, values: Mapping[str, Any]) -> str:
    """The message in English, its values in place."""
    plain = {
        k: str(v) if isinstance(v, Term) else " and ".join(v) if isinstance(v, list) else v
        for k, v in values.items()
    }
    if isinstance(message, Plural) and values.get("n") != 1:
        return message.plural.format(**plain)
    return str(message).format(**plain)


def data(message: str, values: Mapping[str, Any]) -> dict[str, Any]:
    """The values as JSON (a ``Term`` as ``{"word", "context"}``), the plural form under
    ``"_plural"``: what a timeline line stores beside its message."""
    out: dict[str, Any] = {
        k: {"word": str(v), "context": v.context} if isinstance(v, Term) else v
        for k, v in values.items()
    }
    if isinstance(message, Plural):
        out["_plural"] = message.plural
    return out
