"""Ready-made campaigns ("starters") a Dealer can load into a campaign; registered with
``campaigns.starters`` (the new-campaign form, ``load_starter``) by ``ExchangeConfig.ready``.
Each is a campaign file (``starter_files/``, the format of the package docstring) that the
importer writes into the campaign (``importer.campaign_fill``).

The only one so far is THE HANGED MAN (``starter_files/the_hanged_man.json``), the seed's
sample scenario (Last Oak, Kansas). Numbers, traits, knacks, Devils and chips are the seed's.
Editorial choices, so the data reads and matches like what players type:

- names, traits and knack names use straight quotes and apostrophes (the seed mixes “curly”
  and "straight" ones from page to page; a knack bought later from a keyboard then matches);
  the trailing full stop the seed puts after some traits is dropped;
- prose (back stories, Devils, notes) is the seed's own wording and typography, with the page
  breaks the seed's text has inside two paragraphs joined up;
- the minor characters (a deputy, Doc Samuelson, Delmer Barnes, "Red" Sally) have no numbers
  in the seed: theirs are the starter's, and their descriptions say so;
- the player characters' starting chips are one ledger row each (reason "starting"), written
  by the file's Dealer ("dealer", who also holds the player characters in the file): loaded,
  they are the campaign's Dealer's.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from campaigns.models import Campaign, Membership
from campaigns.services import CampaignError
from campaigns.starters import Starter
from characters.models import Character
from exchange.importer import campaign_fill
from exchange.reading import campaign_file_parse

FILES = Path(__file__).with_name("starter_files")
HANGED_MAN = FILES / "the_hanged_man.json"


def starter_file(path: Path) -> dict[str, Any]:
    """A starter's campaign file, as the importer reads it."""
    return campaign_file_parse(path.read_bytes())


def _load(path: Path, *, campaign: Campaign, players: Sequence[User]) -> None:
    data = starter_file(path)
    pcs = [c["name"] for c in data["characters"] if c["kind"] == Character.Kind.PC]
    names = [c["name"] for c in data["characters"]]
    if len(players) > len(pcs):
        raise CampaignError(
            f"This starter has {len(pcs)} player characters; {len(players)} players were given."
        )
    if len({p.pk for p in players}) != len(players):
        raise CampaignError("Each player runs one of the starter's characters: a name is twice.")
    with transaction.atomic():
        Campaign.objects.select_for_update().filter(pk=campaign.pk).first()  # one load at once
        campaign.refresh_from_db(fields=["setting", "pitch"])
        dealer_seat = (
            Membership.objects.select_related("user")
            .filter(campaign=campaign, role=Membership.Role.DEALER)
            .first()
        )
        if dealer_seat is None:
            raise CampaignError(f"{campaign} has no Dealer to run the starter's characters.")
        seated = set(
            Membership.objects.filter(campaign=campaign, user__in=players).values_list(
                "user_id", flat=True
            )
        )
        strangers = [p.get_username() for p in players if p.pk not in seated]
        if strangers:
            raise CampaignError(f"Not seated at {campaign}: {', '.join(strangers)}.")
        taken = list(campaign.characters.filter(name__in=names).values_list("name", flat=True))
        if taken:
            raise CampaignError(
                f"{campaign} already has {', '.join(sorted(taken))}: this starter was loaded "
                "before."
            )
        campaign_fill(data, campaign=campaign, dealer=dealer_seat.user, players=players)


def load_hanged_man(*, campaign: Campaign, players: Sequence[User] = ()) -> None:
    """Fill ``campaign`` with THE HANGED MAN: the setting and pitch (where the campaign has
    none yet), the four player characters with their starting chips (R15 ledger rows, reason
    "starting"), the three important NPCs and the minor ones, the Wanted! links, and the
    Dealer's notes (the situation, the unresolved questions, running the scenario, one hook
    per player character).

    ``players`` (each already seated at the campaign) take the player characters in the
    seed's order: "Gentleman" Jim Harris first (the seed: "one player should run the
    character Gentleman Jim Harris"), then Zeke Munroe, "Black" Jack Kerrigan and "Lucky" Luke
    Johnson. Characters left without a player are given to the Dealer, who can hand them to
    players later (a player character must always have someone running it).

    All or nothing: one transaction. Raises ``CampaignError`` if the campaign already holds
    any of the starter's characters, or a player is not seated there.
    """
    _load(HANGED_MAN, campaign=campaign, players=players)


HANGED_MAN_STARTER = Starter(
    key="hanged-man",
    title="The Hanged Man",
    label="The Hanged Man (Last Oak, Kansas)",
    load=lambda **kwargs: load_hanged_man(**kwargs),  # looked up at call time (tests patch it)
)
