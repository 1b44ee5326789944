"""Combat rounds on the action deck (issue 17): the app half of ``fights.engine.action_deck``.

``models`` (their tables keep the ``conflicts_fight*`` names of the time fights lived in
``conflicts``: ``db_table``), ``services`` (``fight_create``, ``fight_move``: the only writes),
``selectors`` (``fight_view``: the one per-viewer choke point, R30), ``forms``, ``views``,
``streams`` (live over SSE) and ``urls``.
"""
