from __future__ import annotations

from django.apps import AppConfig


class SaloonConfig(AppConfig):
    """Death Enters the Saloon (seed 000): a companion game at the table, declared in
    ``saloon.game`` (the site finds it); the rules live in ``saloon.engine``."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "saloon"
    verbose_name = "Death Enters the Saloon"
