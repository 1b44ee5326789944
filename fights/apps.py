from __future__ import annotations

from django.apps import AppConfig


class FightsConfig(AppConfig):
    """Combat rounds on the action deck (seed 004); the rules live in fights.engine."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "fights"

    def ready(self) -> None:
        from fights.models import Fight
        from fights.running import running
        from tables.running import register

        # Its tables in every page's "In play now" banner, their set-up and end announced.
        register("fight", running=running, model=Fight)
