"""The conflict's PURE rules engine (the Deal, the Draw, the Call; R1-R32), on ``cards``.

Nothing here imports Django (a test enforces it): the rules run and are tested in milliseconds,
without a database, and randomness is always injected so tests can seed it.
"""
