"""``manage.py seed_demo``: on a fresh database, a demo table to try the app on one machine.

Makes a Dealer ("dealer") and four players ("jim", "zeke", "jack", "luke") with random
passwords, seats them at a new campaign of THE HANGED MAN with each player running their
character, and prints the logins once. The passwords are stored only as Django's password
hashes; the printout is the only place they exist in plain text.

Idempotent: ``make run`` calls it on every start. Once the database has any user at all, it
prints one line and changes nothing.
"""

from __future__ import annotations

import os
import secrets
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand
from django.db import transaction

from campaigns.models import Campaign, Membership
from campaigns.services import campaign_create
from exchange.starters import load_hanged_man

DEALER = "dealer"
PLAYERS = ("jim", "zeke", "jack", "luke")  # the starter's order: Jim, Zeke, Jack, Luke


def _port() -> str:
    port = os.environ.get("PORT", "").strip()
    return port if port.isdigit() else "8000"


class Command(BaseCommand):
    help = "On a fresh database: demo Dealer and players at The Hanged Man, logins printed once."

    def handle(self, *args: Any, **options: Any) -> None:
        with transaction.atomic():
            if User.objects.exists():
                self.stdout.write("Demo accounts already exist; log in as before.")
                return
            passwords = {name: secrets.token_urlsafe(9) for name in (DEALER, *PLAYERS)}
            users = {
                name: User.objects.create_user(username=name, password=password)
                for name, password in passwords.items()
            }
            campaign = campaign_create(dealer=users[DEALER], name="The Hanged Man")
            Membership.objects.bulk_create(
                Membership(campaign=campaign, user=users[name], role=Membership.Role.PLAYER)
                for name in PLAYERS
            )
            load_hanged_man(campaign=campaign, players=[users[name] for name in PLAYERS])
        self.stdout.write(_box(campaign, passwords))


def _box(campaign: Campaign, passwords: dict[str, str]) -> str:
    url = f"http://127.0.0.1:{_port()}/accounts/login/"
    roles = {DEALER: "the Dealer"} | {
        character.player.get_username(): f"plays {character.name}"
        for character in campaign.characters.filter(player__username__in=PLAYERS).select_related(
            "player"
        )
        if character.player is not None
    }
    lines = [
        f"Demo table ready: {campaign.name} ({campaign.setting})",
        "",
        f"Open {url}",
        "",
        f"  {'username':<8}  {'password':<12}",
        *(f"  {name:<8}  {passwords[name]:<12}  {roles[name]}" for name in passwords),
        "",
        "To try a whole table on one machine, give each login its own browser window",
        "that does not share cookies: a normal and a private window, another browser, or",
        "another browser profile (all private windows of one browser share one login).",
        "",
        "These passwords are shown only this once (only their hashes are stored):",
        "note them down now.",
    ]
    width = max(len(line) for line in lines)
    rule = "─" * (width + 2)
    body = [f"│ {line:<{width}} │" for line in lines]
    return "\n".join(["", f"┌{rule}┐", *body, f"└{rule}┘", ""])
