"""Death Enters the Saloon (seed 000), pure Python: no Django. ``game`` is the state machine,
``tables`` the seed's three tables, ``serial`` the state to and from JSON-able data."""
