from __future__ import annotations

from django.apps import AppConfig


class ExchangeConfig(AppConfig):
    """Campaign files: export, import, restore and the starter campaign. It reads every app, so
    it sits above them all and no app imports it."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "exchange"

    def ready(self) -> None:
        from campaigns.starters import register
        from exchange.starters import HANGED_MAN_STARTER

        register(HANGED_MAN_STARTER)
