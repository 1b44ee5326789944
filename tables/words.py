"""What an engine said (``cards.words``: a message and its values), shown in the reader's
language at read time (issue 39): a timeline line, a refusal. The message is looked up in the
active language's catalogue, each value that is a word too (a ``Term``), and the values are
put in its places; a message the catalogue does not know stays English, and a translation
whose places do not match falls back to the English — never an error on a page."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext, ngettext, pgettext

from cards.errors import IllegalMove
from dustdevils.memo import bounded

if TYPE_CHECKING:
    from typing import TypeAlias

    from django_stubs_ext import StrPromise

    # Words a person reads: a string, or one translated when it is shown (gettext_lazy).
    Text: TypeAlias = str | StrPromise


def _value(value: Any) -> Any:
    if isinstance(value, list):
        return gettext(" and ").join(str(v) for v in value)
    if isinstance(value, dict) and "word" in value:
        word, context = str(value["word"]), str(value.get("context") or "")
        return pgettext(context, word) if context else gettext(word)
    return value


def shown(message: str, values: Mapping[str, Any] | None = None) -> str:
    """``message`` with ``values`` (as ``cards.words.data`` stores them), in the active
    language."""
    values = values or {}
    plural = values.get("_plural")
    filled = {k: _value(v) for k, v in values.items() if not k.startswith("_")}
    if plural:
        n = filled.get("n", 0)
        said = ngettext(message, str(plural), n if isinstance(n, int) else 0)
        english = message if n == 1 else str(plural)
    else:
        said, english = gettext(message), message
    if not filled:
        return said
    try:
        return said.format(**filled)
    except (KeyError, IndexError, ValueError, AttributeError):
        try:
            return english.format(**filled)
        except (KeyError, IndexError, ValueError, AttributeError):
            return english


@bounded(16384)  # a timeline's lines: a few hundred bytes each at most
def said_in(message: str, values: str, language: str | None) -> str:
    """A stored line (its message, its values as JSON text) in ``language`` (the active one:
    the key of the memory), made once per process: a line never changes once written."""
    return shown(message, json.loads(values) if values else {})


def refusal(error: IllegalMove) -> str:
    """An engine's refusal, as its reader reads it."""
    return shown(error.message, error.values)


def values_text(values: Mapping[str, Any]) -> str:
    """A line's ``values`` field: what an engine said's values (``cards.words.data``), as
    compact JSON text."""
    return json.dumps(values, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
