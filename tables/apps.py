from __future__ import annotations

from django.apps import AppConfig


class TablesConfig(AppConfig):
    """The table kit (no models): the games' shared move pipeline, errors, forms and answers."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "tables"
