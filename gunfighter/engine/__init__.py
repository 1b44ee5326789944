"""The Gunfighter (seed 003), pure Python: no Django. The cards, pistols and mats stay on the
table; the engine keeps what a companion app keeps — who plays which deck, lives, covert cards
and the showdown cards' counts, the clock's instant, the mats' review in turn, who shot whom —
``state`` (the frozen state and the moves), ``game`` (``apply``, ``visible``), ``serial`` (to
and from JSON-able data). Readings where the seed is silent: GF1–GF10 (gunfighter/rulings.py)."""
