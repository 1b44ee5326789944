"""Death Enters the Saloon (seed 000), pure Python: no Django. ``game`` is the state machine's
face (``apply``, ``visible_cards``; ``state``, ``setup`` and ``turns`` behind it), ``tables`` the
seed's three tables, ``serial`` the state to and from JSON-able data."""
