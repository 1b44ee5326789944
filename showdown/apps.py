from __future__ import annotations

from django.apps import AppConfig


class ShowdownConfig(AppConfig):
    """Saloon Showdown (seed 001): a companion game at the table, declared in ``showdown.game``
    (the site finds it); the rules live in ``showdown.engine``, its readings in
    ``showdown.rulings``."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "showdown"
    verbose_name = "Saloon Showdown"
