from __future__ import annotations

from django.apps import AppConfig


class CampaignsConfig(AppConfig):
    """Campaigns, memberships, invites, game sessions; the live-update broadcaster. The games
    register their tables for the "In play now" banner themselves (``tables.running``)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "campaigns"

    def ready(self) -> None:
        import dustdevils.checks  # noqa: F401 — the deployment's own checks (check --deploy)
