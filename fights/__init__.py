"""Combat rounds on the action deck (issue 17): the app half of ``fights.engine.action_deck``.

``models`` (registered through ``conflicts.models``, so the app label stays ``conflicts``),
``services`` (``fight_create``, ``fight_move``: the only writes), ``selectors`` (``fight_view``:
the one per-viewer choke point, R30), ``forms``, ``views``, ``streams`` (live over SSE) and
``urls``.
"""
