"""Combat rounds on the action deck (issue 17): the app half of ``fights.engine.action_deck``.

``game`` (the declaration at the table: the site serves its pages, live screens and "In play
now"), ``models`` (on the kit's bases; their tables keep the ``conflicts_fight*`` names of the
time fights lived in ``conflicts``: ``db_table``), ``services`` (``fight_create``,
``fight_move``: the only writes), ``selectors`` (``fight_view``: the one per-viewer choke
point, R30), ``forms`` (one per move), ``views`` (the fight's own pages) and ``codec``.
"""
