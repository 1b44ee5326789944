"""The pure rules engine: cards, poker hands, odds and (later) the conflict state machine.

Nothing here imports Django (a test enforces it): the rules run and are tested in milliseconds,
without a database, and randomness is always injected so tests can seed it.
"""
