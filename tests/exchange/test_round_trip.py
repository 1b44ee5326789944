"""Export → import → export gives the same file; imports are all or nothing."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError

from campaigns.models import Campaign, DevilRating, Membership
from characters.models import Character, ChipEntry
from conflicts.models import Conflict, Seat
from exchange.api import (
    ImportRefused,
    campaign_export,
    campaign_file_dump,
    campaign_file_parse,
    campaign_import,
    campaign_restore,
)
from tests.exchange.conftest import at, clone, model_counts

JIM = "gentleman-jim-harris"


def test_it_writes_every_section_of_the_format(played: Campaign) -> None:
    data = campaign_export(played)
    assert (data["format"], data["version"]) == ("dustdevils.campaign", 3)
    assert list(data) == [
        "format", "version", "campaign", "members", "characters", "links", "notes", "sessions",
        "conflicts", "games",
    ]  # fmt: skip
    assert data["conflicts"] == []
    assert data["games"] == {"fights": [], "gunfights": [], "saloons": [], "showdowns": []}
    assert data["campaign"] == {
        "name": "The Hanged Man", "slug": "the-hanged-man", "setting": "Last Oak, Kansas",
        "pitch": played.pitch, "winner_bonus": True,
    }  # fmt: skip
    assert data["members"] == [
        {"username": "dealer", "role": "dealer"},
        {"username": "player_a", "role": "player"},
        {"username": "player_b", "role": "player"},
    ]
    jim = data["characters"][at(data, JIM)]
    assert jim["player"] == "player_a"
    assert jim["attributes"]["heart"] == {"rating": 3, "current": 3}
    assert jim["knacks"]["Shootin'"] == 4
    assert jim["devil"]["rating"] == 3
    assert jim["chips"]["current"] == 1
    ledger = jim["chips"]["ledger"]
    assert [(e["amount"], e["reason"], e["actor"], e["session"]) for e in ledger] == [
        (3, "starting", "dealer", None),
        (-1, "extra_card", "player_a", 1),
        (5, "stakes", "dealer", 1),
        (-6, "improve_attribute", "player_a", None),
    ]  # fmt: skip
    assert data["sessions"][0] == {
        "number": 1, "date": "2026-11-20", "status": "ended", "notes": "Jim rides in.",
        "started_at": "2026-11-20T19:00:00+00:00",
        "ended_at": "2026-11-20T23:30:15.123456+00:00",
        "devil_ratings": {JIM: 3, "zeke-munroe": 1}, "log": [],
    }  # fmt: skip
    assert {"npc": "long-tom-meredith", "pc": "zeke-munroe"} in [
        {"npc": link["npc"], "pc": link["pc"]} for link in data["links"]
    ]
    assert data["notes"][-1] == {"title": "After session 1", "body": "Luke died.\nZeke is hurt."}


def test_it_makes_stable_keys_from_the_names(played: Campaign) -> None:
    keys = [c["key"] for c in campaign_export(played)["characters"]]
    assert len(set(keys)) == len(keys) == 13
    assert {"last-oak-deputy", "last-oak-deputy-2", "senora-alvarez", JIM} <= set(keys)


def test_it_keeps_the_end_of_a_character_who_left_play(played: Campaign) -> None:
    data = campaign_export(played)
    luke = data["characters"][at(data, "lucky-luke-johnson")]
    assert (luke["out_of_play"], luke["fate"], luke["epitaph"]) == (
        True, "dies", "Alone, like he wanted.",
    )  # fmt: skip
    assert dt.datetime.fromisoformat(luke["left_play_at"]).tzinfo is not None
    assert luke["attributes"]["heart"] == {"rating": 3, "current": 0}


def test_it_round_trips_exactly_into_a_database_without_the_campaign(
    played: Campaign, dealer: User
) -> None:
    text = campaign_file_dump(campaign_export(played))
    played.delete()

    result = campaign_import(campaign_file_parse(text), dealer=dealer, seat_members=True)

    assert result.warnings == ()
    assert result.campaign.slug == "the-hanged-man"
    assert campaign_file_dump(campaign_export(result.campaign)) == text


def test_it_round_trips_beside_the_original_with_only_the_slug_changed(
    played: Campaign, dealer: User
) -> None:
    before = model_counts()
    data = campaign_export(played)

    result = campaign_import(clone(data), dealer=dealer, seat_members=True)
    again = campaign_export(result.campaign)

    assert result.campaign.slug == "the-hanged-man-2"
    assert result.warnings == (
        "The address /c/the-hanged-man/ is taken here: this copy is at /c/the-hanged-man-2/.",
    )
    assert again["campaign"].pop("slug") == "the-hanged-man-2"
    data["campaign"].pop("slug")
    assert again == data
    after = model_counts()
    assert after["campaigns.Campaign"] == before["campaigns.Campaign"] + 1
    assert after["characters.ChipEntry"] == 2 * before["characters.ChipEntry"]


def test_it_keeps_ledger_rows_with_their_times_balances_and_sessions(
    played: Campaign, dealer: User
) -> None:
    original = Character.objects.get(campaign=played, name='"Gentleman" Jim Harris')
    copy = campaign_import(campaign_export(played), dealer=dealer, seat_members=True).campaign
    jim = Character.objects.get(campaign=copy, name='"Gentleman" Jim Harris')

    def rows(character: Character) -> list[tuple[object, ...]]:
        return list(
            character.chip_entries.order_by("created_at", "pk").values_list(
                "amount", "balance_after", "reason", "note", "actor__username",
                "session__number", "created_at",
            )
        )  # fmt: skip

    assert rows(jim) == rows(original)
    assert jim.chip_entries.filter(session__campaign=copy).count() == 2
    assert DevilRating.objects.filter(session__campaign=copy).count() == 2


def test_it_gives_the_characters_of_unknown_people_to_the_importing_dealer(
    played: Campaign, dealer: User
) -> None:
    data = campaign_export(played)
    data["members"][2]["username"] = "ghost"
    data["characters"][at(data, "zeke-munroe")]["player"] = "ghost"

    result = campaign_import(data, dealer=dealer, seat_members=True)

    zeke = result.campaign.characters.get(name="Zeke Munroe")
    assert zeke.player == dealer
    assert not result.campaign.memberships.filter(user__username="ghost").exists()
    assert result.warnings[-1] == (
        "Nobody here has the username 'ghost': left out; their characters (Zeke Munroe) are "
        "yours now."
    )


def test_it_makes_the_importer_the_dealer_and_seats_the_old_one_as_a_player(
    played: Campaign, outsider: User, dealer: User
) -> None:
    result = campaign_import(campaign_export(played), dealer=outsider, seat_members=True)

    roles = dict(result.campaign.memberships.values_list("user__username", "role"))
    assert roles == {"outsider": "dealer", "dealer": "player", "player_a": "player",
                     "player_b": "player"}  # fmt: skip
    assert "dealer was the Dealer in the file; here you deal and dealer plays." in result.warnings
    assert result.campaign.characters.get(name='"Black" Jack Kerrigan').player == dealer


def test_it_restores_a_campaign_from_its_own_file(played: Campaign, dealer: User) -> None:
    data = campaign_export(played)
    jim = played.characters.get(name='"Gentleman" Jim Harris')
    ChipEntry.objects.filter(character=jim).delete()
    played.notes.all().delete()
    played.characters.filter(kind="npc").first().delete()  # type: ignore[union-attr]
    played.name = "Renamed"
    played.save()

    result = campaign_restore(clone(data), campaign=played, dealer=dealer)

    played.refresh_from_db()
    assert result.campaign.pk == played.pk
    assert campaign_export(played) == data


def test_it_removes_the_campaigns_conflicts_when_restoring(played: Campaign, dealer: User) -> None:
    data = campaign_export(played)
    conflict = Conflict.objects.create(campaign=played, title="Showdown", state={}, phase="deal")
    Seat.objects.create(conflict=conflict, pid="p1", character=played.characters.first())

    campaign_restore(data, campaign=played, dealer=dealer)

    assert not Conflict.objects.filter(campaign=played).exists()
    assert not Seat.objects.exists()
    assert campaign_export(played) == data


def test_it_restores_through_campaign_import_as_new_false(played: Campaign, dealer: User) -> None:
    data = campaign_export(played)
    played.notes.all().delete()
    result = campaign_import(data, dealer=dealer, as_new=False)
    assert result.campaign.pk == played.pk
    assert campaign_export(played) == data


def test_it_restores_only_a_campaign_the_importer_deals(played: Campaign, player_a: User) -> None:
    before = model_counts()
    with pytest.raises(ImportRefused, match="you deal no campaign at /c/the-hanged-man/"):
        campaign_import(campaign_export(played), dealer=player_a, as_new=False)
    assert model_counts() == before


def test_it_restores_from_no_other_campaigns_file(
    played: Campaign, campaign: Campaign, dealer: User
) -> None:
    before = model_counts()
    with pytest.raises(ImportRefused, match=r"a copy of /c/dry-gulch/, not of this campaign"):
        campaign_restore(campaign_export(campaign), campaign=played, dealer=dealer)
    assert model_counts() == before


def test_it_writes_nothing_when_the_database_refuses_half_way(
    played: Campaign, dealer: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = campaign_export(played)
    before = model_counts()

    def broken(*args: object, **kwargs: object) -> None:
        raise IntegrityError("the disk is full, say")

    monkeypatch.setattr(DevilRating.objects, "bulk_create", broken)
    with pytest.raises(IntegrityError):
        campaign_import(data, dealer=dealer)
    with pytest.raises(IntegrityError):
        campaign_restore(data, campaign=played, dealer=dealer)
    assert model_counts() == before


def test_it_writes_names_as_they_are_in_utf8(played: Campaign) -> None:
    text = campaign_file_dump(campaign_export(played))
    assert "Señora Álvarez" in text
    assert json.loads(text) == campaign_export(played)
    assert Membership.objects.filter(campaign=played).count() == 3


# --- Consent: an import seats nobody but the importer (issue 19 #2) ---------------------------


def test_an_import_seats_only_the_importer_and_gives_them_the_others_characters(
    played: Campaign, outsider: User, dealer: User, player_a: User
) -> None:
    data = campaign_export(played)
    before = set(Membership.objects.values_list("campaign_id", "user_id"))

    result = campaign_import(data, dealer=outsider)

    roles = dict(result.campaign.memberships.values_list("user__username", "role"))
    assert roles == {"outsider": "dealer"}
    assert not result.campaign.characters.filter(player__in=[dealer, player_a]).exists()
    jim = result.campaign.characters.get(name='"Gentleman" Jim Harris')
    assert jim.player == outsider
    # The ledger credits nobody who is not seated here.
    assert not ChipEntry.objects.filter(
        character__campaign=result.campaign, actor__in=[dealer, player_a]
    ).exists()
    assert set(Membership.objects.values_list("campaign_id", "user_id")) - before == {
        (result.campaign.pk, outsider.pk)
    }
    said = " ".join(result.warnings)
    assert "are not seated: an import seats nobody but you" in said
    assert "invitation link" in said


def test_an_import_says_the_same_whether_or_not_a_username_exists(
    played: Campaign, outsider: User
) -> None:
    """No message may confirm that a username has an account here."""

    def said(username: str) -> str:
        data = campaign_export(played)
        old = data["members"][2]["username"]
        data["members"][2]["username"] = username
        for character in data["characters"]:
            if character["player"] == old:
                character["player"] = username
            for row in character["chips"]["ledger"]:
                if row["actor"] == old:
                    row["actor"] = username
        warnings = campaign_import(data, dealer=outsider).warnings
        return " ".join(w for w in warnings if not w.startswith("The address"))

    assert User.objects.filter(username="player_b").exists()
    assert said("player_b").replace("player_b", "X") == said("nobody-here").replace(
        "nobody-here", "X"
    )
