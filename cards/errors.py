"""The one error every game's engine raises for a move the rules do not allow."""

from __future__ import annotations

from typing import Any

from cards.words import data, english


class IllegalMove(ValueError):
    """The rules do not allow that move now; the message says why in plain words. Its
    ``message`` (English, with ``{name}`` places) and ``values`` are kept apart so the refusal
    is shown in its reader's language (``cards.words``; ``str()`` is the English)."""

    def __init__(self, message: str, **values: Any) -> None:
        super().__init__(english(message, values) if values else message)
        self.message = str(message)
        self.values = data(message, values)
