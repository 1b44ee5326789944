"""The table kit: what every live table at the app — a conflict, a fight, a saloon game, and
the games to come — shares, so that a game supplies only its engine, its models, its per-viewer
view and its move forms (docs/architecture.md, "The table kit").

* ``moves``: the one locked move pipeline (``table_move``): lock the table's row, claim the
  form's idempotency key, decide whether the move is still what its player meant (``Basis``),
  apply the game's pure engine, save the state with ``version + 1`` and the timeline lines in
  one transaction, publish on commit.
* ``errors``: the one error family (``Refused``, ``StaleMove``, ``NotYours``).
* ``forms``: the move forms' base (version, key, basis) and ``problem_of``.
* ``views``: the one way a move's view answers (the panel for htmx, post/redirect/get else).
"""
