"""``campaign_fill``: a file's characters, links and notes written into a campaign that exists
(the starters), its player characters run by the players given, in the file's order."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from campaigns.models import Campaign, Membership
from campaigns.services import campaign_create
from exchange.api import ImportRefused, campaign_export
from exchange.importer import campaign_fill
from tests.exchange.conftest import model_counts


def _without_sessions(data: dict[str, Any]) -> dict[str, Any]:
    data["sessions"], data["conflicts"] = [], []
    for character in data["characters"]:
        for row in character["chips"]["ledger"]:
            row["session"] = None
    return data


def test_it_hands_the_player_characters_to_the_players_in_the_files_order(
    played: Campaign, dealer: User, player_b: User, outsider: User
) -> None:
    data = _without_sessions(campaign_export(played))
    pcs = [c["name"] for c in data["characters"] if c["kind"] == "pc"]
    other = campaign_create(dealer=outsider, name="Elsewhere", setting="Dodge City")
    Membership.objects.create(campaign=other, user=player_b, role=Membership.Role.PLAYER)

    campaign_fill(data, campaign=other, dealer=outsider, players=[player_b])

    owners = dict(other.characters.filter(kind="pc").values_list("name", "player__username"))
    assert owners == {pcs[0]: "player_b"} | dict.fromkeys(pcs[1:], "outsider")
    assert other.setting == "Dodge City"  # kept; the pitch was empty: the file's
    assert other.pitch == played.pitch
    assert other.notes.count() == played.notes.count()
    assert other.links.count() == played.links.count()


def test_it_refuses_a_file_with_sessions_and_writes_nothing(
    played: Campaign, outsider: User
) -> None:
    other = campaign_create(dealer=outsider, name="Elsewhere")
    before = model_counts()
    with pytest.raises(ImportRefused, match="import it as a new campaign instead"):
        campaign_fill(campaign_export(played), campaign=other, dealer=outsider)
    assert model_counts() == before
