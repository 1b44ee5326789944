from __future__ import annotations

from django.apps import AppConfig


class TablesConfig(AppConfig):
    """The table kit (no models): the games' shared move pipeline, errors, forms and answers,
    and the site every declared game plugs into (``tables.site``)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "tables"

    def ready(self) -> None:
        from tables.site import autodiscover

        autodiscover()  # every installed app's ``game`` module registers its game
