from __future__ import annotations

from django.apps import AppConfig


class CampaignsConfig(AppConfig):
    """Campaigns, memberships, invites, game sessions; the live-update broadcaster."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "campaigns"

    def ready(self) -> None:
        from django.db.models.signals import post_save

        from campaigns.streams import conflict_saved

        # A conflict set up or ended tells the campaign page (the running-conflict link).
        post_save.connect(
            conflict_saved, sender="conflicts.Conflict", dispatch_uid="campaign-page-conflicts"
        )
