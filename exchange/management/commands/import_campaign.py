"""``manage.py import_campaign FILE [--dealer USERNAME]``: a campaign file as a new campaign.

A refused file stops the command with the problems listed and exit status 1; nothing is
written.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from exchange.api import ImportRefused, campaign_file_parse, campaign_import
from exchange.management.commands._dealer import dealer_for


class Command(BaseCommand):
    help = "Import a campaign file (from export_campaign or the Export link) as a new campaign."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the .json file ('-' reads stdin)")
        parser.add_argument(
            "--dealer", metavar="USERNAME", help="who deals it (default: the first superuser)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        dealer = dealer_for(options["dealer"])
        raw = self._read(options["file"])
        try:
            # The operator's command: it may seat the file's members who have an account.
            result = campaign_import(campaign_file_parse(raw), dealer=dealer, seat_members=True)
        except ImportRefused as refused:
            listed = "\n".join(f"  - {problem}" for problem in refused.problems)
            raise CommandError(f"{options['file']}: nothing imported.\n{listed}") from None
        campaign = result.campaign
        for warning in result.warnings:
            self.stderr.write(f"Note: {warning}")
        for game in result.games:
            self.stdout.write(game)
        self.stdout.write(
            f"Imported “{campaign.name}” as /c/{campaign.slug}/ "
            f"({campaign.characters.count()} characters), dealt by {dealer.get_username()}."
        )

    @staticmethod
    def _read(name: str) -> bytes:
        if name == "-":
            return sys.stdin.buffer.read()
        try:
            return Path(name).read_bytes()
        except OSError as error:
            raise CommandError(f"Cannot read {name}: {error.strerror}.") from None
