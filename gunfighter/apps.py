from __future__ import annotations

from django.apps import AppConfig


class GunfighterConfig(AppConfig):
    """The Gunfighter (seed 003): a companion game at the table, declared in
    ``gunfighter.game`` (the site finds it); the rules live in ``gunfighter.engine``."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "gunfighter"
    verbose_name = "The Gunfighter"
