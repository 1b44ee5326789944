"""``manage.py load_starter hanged-man [--dealer USERNAME] [--name NAME]``: a new campaign
filled with a starter scenario (exchange.starters)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from campaigns.services import CampaignError, campaign_create
from campaigns.starters import load_into, starter_keys, starter_named
from exchange.management.commands._dealer import dealer_for


class Command(BaseCommand):
    help = "Create a new campaign filled with a starter scenario (e.g. hanged-man)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("starter", choices=starter_keys(), help="which starter to load")
        parser.add_argument(
            "--dealer",
            metavar="USERNAME",
            help="who runs the campaign (default: the first superuser)",
        )
        parser.add_argument("--name", help="the campaign's name (default: the starter's title)")

    def handle(self, *args: Any, **options: Any) -> None:
        key = options["starter"]
        dealer = dealer_for(options["dealer"])
        name = options["name"] or starter_named(key).title
        try:
            with transaction.atomic():
                campaign = campaign_create(dealer=dealer, name=name)
                load_into(key, campaign=campaign)
        except CampaignError as error:
            raise CommandError(str(error)) from error
        count = campaign.characters.count()
        self.stdout.write(
            f"Created “{campaign.name}” (/c/{campaign.slug}/) with {count} characters; "
            f"{dealer.get_username()} is the Dealer and holds the player characters until "
            "they are handed to players."
        )
