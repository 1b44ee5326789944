"""The fight's PURE rules: combat rounds on the action deck (seed 004), on ``cards``. No Django
(a test enforces it), mypy --strict."""
