from __future__ import annotations

from django.apps import AppConfig


class ConflictsConfig(AppConfig):
    """The conflict wizard and the conflict table (the rules live in conflicts.engine)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "conflicts"

    def ready(self) -> None:
        from conflicts.models import Conflict
        from conflicts.rulings import RULINGS
        from conflicts.running import running
        from tables import rulings
        from tables.running import register

        # Its tables in every page's "In play now" banner, their set-up and end announced.
        register("conflict", running=running, model=Conflict)
        # The Dust Devils rulings, first on the Rulings page (tables.rulings).
        rulings.register(*RULINGS, base=True)
