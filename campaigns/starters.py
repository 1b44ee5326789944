"""Ready-made situations a new campaign can start from ("starters").

The campaigns app keeps the list and starts campaigns from it; the app that can fill a campaign
(``exchange``: a starter is a campaign file loaded by the importer) registers each one when it
is ready (``ExchangeConfig.ready``). So the new-campaign form offers what is registered, and
this app imports nothing above it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils.translation import gettext

from campaigns.services import CampaignError, campaign_create

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from campaigns.models import Campaign


@dataclass(frozen=True)
class Starter:
    key: str  # what the form posts and ``manage.py load_starter`` takes: "hanged-man"
    title: str  # a new campaign's default name: "The Hanged Man"
    label: str  # what the form shows: "The Hanged Man (Last Oak, Kansas)"
    # Fills a campaign (all or nothing; raises CampaignError): players take its player
    # characters in order, the rest go to the Dealer.
    load: Callable[..., None]


_STARTERS: dict[str, Starter] = {}


def register(starter: Starter) -> None:
    _STARTERS[starter.key] = starter


def starter_named(key: str) -> Starter:
    try:
        return _STARTERS[key]
    except KeyError:
        raise CampaignError("There is no such starting situation.") from None


def starter_keys() -> list[str]:
    return sorted(_STARTERS)


def form_choices() -> list[tuple[str, str]]:
    """The new-campaign form's choices: an empty table, then every registered starter."""
    return [("", gettext("An empty table")), *((s.key, s.label) for s in _STARTERS.values())]


def campaign_start(
    *, dealer: User, name: str, setting: str, pitch: str, starter: str | None
) -> Campaign:
    """A new campaign with ``dealer`` seated as the Dealer, filled from a starter if one is
    chosen. All or nothing: if the starter fails, no campaign is left behind."""
    chosen = starter_named(starter) if starter else None
    with transaction.atomic():
        campaign = campaign_create(dealer=dealer, name=name, setting=setting, pitch=pitch)
        if chosen is not None:
            chosen.load(campaign=campaign)
    return campaign


def load_into(key: str, *, campaign: Campaign, players: Sequence[User] = ()) -> None:
    """Fill an existing campaign with starter ``key`` (``manage.py load_starter``, the demo)."""
    starter_named(key).load(campaign=campaign, players=players)
