from __future__ import annotations

from django.apps import AppConfig


class FightsConfig(AppConfig):
    """Combat rounds on the action deck (seed 004); the rules live in fights.engine, the
    declaration at the table in fights.game (found by the site)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "fights"
