from __future__ import annotations

from django.apps import AppConfig


class ConflictsConfig(AppConfig):
    """The conflict wizard and the conflict table (the rules live in conflicts.engine)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "conflicts"
