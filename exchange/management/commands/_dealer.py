"""Who deals, for the commands that make a campaign (not a command: the name starts with _)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.management.base import CommandError


def dealer_for(username: str | None) -> User:
    """The user called ``username``, or else the first superuser; a CommandError if none."""
    if username:
        user = User.objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"No user called {username!r}.")
        return user
    user = User.objects.filter(is_superuser=True, is_active=True).order_by("pk").first()
    if user is None:
        raise CommandError(
            "No superuser to be the Dealer: pass --dealer USERNAME, or make one first with "
            "`manage.py createsuperuser`."
        )
    return user
