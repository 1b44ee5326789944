"""The vocabulary every game at the table speaks, PURE (Python and numpy, no Django; a test
enforces it; mypy --strict): cards and the deck (``deck``), poker hands (``hands``, one at a
time; ``batch``, many at once), odds (``odds``), dice (``dice``), the one ``IllegalMove``
(``errors``) and the engines' line-in/line-out command lines (``jsonlines``). Randomness is
always injected so tests can seed it.
"""
