from __future__ import annotations

from django.apps import AppConfig


class CampaignsConfig(AppConfig):
    """Campaigns, memberships, invites, game sessions; the live-update broadcaster."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "campaigns"
