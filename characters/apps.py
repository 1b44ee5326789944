from __future__ import annotations

from django.apps import AppConfig


class CharactersConfig(AppConfig):
    """Characters (PC/NPC), traits, knacks and the chip ledger."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "characters"
