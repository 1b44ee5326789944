"""``manage.py export_campaign SLUG [-o FILE]``: a campaign as a JSON file (stdout by default)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaigns.models import Campaign
from exchange.api import campaign_export, campaign_file_dump


class Command(BaseCommand):
    help = "Export a campaign (characters, chip ledgers, links, notes, sessions) as JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the campaign's slug, as in /c/<slug>/")
        parser.add_argument("-o", "--output", metavar="FILE", help="write here, not to stdout")

    def handle(self, *args: Any, **options: Any) -> None:
        campaign = Campaign.objects.filter(slug=options["slug"]).first()
        if campaign is None:
            raise CommandError(f"No campaign with the slug {options['slug']!r}.")
        text = campaign_file_dump(campaign_export(campaign))
        if options["output"]:
            path = Path(options["output"])
            path.write_text(text, encoding="utf-8")
            self.stderr.write(f"Wrote “{campaign.name}” to {path}.")
        else:
            self.stdout.write(text, ending="")
