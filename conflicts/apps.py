from __future__ import annotations

from django.apps import AppConfig


class ConflictsConfig(AppConfig):
    """The conflict wizard and the conflict table (the rules live in conflicts.engine)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "conflicts"

    def ready(self) -> None:
        from conflicts.rulings import RULINGS
        from tables import rulings

        # The game is declared in conflicts/game.py (the site finds it); the Dust Devils
        # rulings come first on the Rulings page (tables.rulings).
        rulings.register(*RULINGS, base=True)
