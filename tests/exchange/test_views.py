"""The export download, the import and restore pages, and who may use them."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse

from campaigns.models import Campaign, Membership
from exchange.api import campaign_export, campaign_file_dump
from tests.exchange.conftest import at, model_counts

ClientAs = Callable[[Any], Client]
EXPORT = "/c/the-hanged-man/export.json"
RESTORE = "/c/the-hanged-man/import/"
IMPORT = "/import/"


def _upload(text: str, name: str = "last-oak.json") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode("utf-8"), content_type="application/json")


def test_it_names_the_routes() -> None:
    assert reverse("exchange:export", kwargs={"slug": "the-hanged-man"}) == EXPORT
    assert reverse("exchange:restore", kwargs={"slug": "the-hanged-man"}) == RESTORE
    assert reverse("exchange:import") == IMPORT


def test_it_lets_the_dealer_download_the_campaign(
    client_as: ClientAs, played: Campaign, dealer: User
) -> None:
    response = client_as(dealer).get(EXPORT)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="the-hanged-man.json"'
    assert response["Cache-Control"] == "no-store"
    assert json.loads(response.content) == campaign_export(played)


@pytest.mark.parametrize("url", [EXPORT, RESTORE])
def test_it_refuses_a_player_with_403(
    client_as: ClientAs, played: Campaign, player_a: User, url: str
) -> None:
    assert client_as(player_a).get(url).status_code == 403


@pytest.mark.parametrize("url", [EXPORT, RESTORE])
def test_it_hides_the_campaign_from_an_outsider_with_404(
    client_as: ClientAs, played: Campaign, outsider: User, url: str
) -> None:
    assert client_as(outsider).get(url).status_code == 404


@pytest.mark.parametrize("url", [EXPORT, RESTORE, IMPORT])
def test_it_sends_an_anonymous_visitor_to_log_in(
    client: Client, played: Campaign, url: str
) -> None:
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={url}"


def test_it_refuses_to_export_by_post(client_as: ClientAs, played: Campaign, dealer: User) -> None:
    assert client_as(dealer).post(EXPORT).status_code == 405


def test_it_shows_the_import_form(client_as: ClientAs, outsider: User) -> None:
    response = client_as(outsider).get(IMPORT)
    assert response.status_code == 200
    assert 'enctype="multipart/form-data"' in response.content.decode()


def test_it_imports_an_upload_as_a_new_campaign_the_uploader_deals(
    client_as: ClientAs, played: Campaign, outsider: User
) -> None:
    text = campaign_file_dump(campaign_export(played))

    response = client_as(outsider).post(IMPORT, {"file": _upload(text)})

    copy = Campaign.objects.get(slug="the-hanged-man-2")
    assert response.status_code == 302
    assert copy.memberships.get(role=Membership.Role.DEALER).user == outsider

    def unplayed(data: dict[str, Any]) -> list[dict[str, Any]]:
        return [c | {"player": None, "chips": {}} for c in data["characters"]]

    assert unplayed(campaign_export(copy)) == unplayed(campaign_export(played))
    shown = [str(m) for m in response.wsgi_request._messages]  # type: ignore[attr-defined]
    assert shown[0] == "Imported “The Hanged Man”: you deal it."
    # Nobody else is seated without their consent (issue 19 #2), and no message says who
    # has an account here.
    assert list(copy.memberships.values_list("user__username", flat=True)) == ["outsider"]
    assert any("are not seated: an import seats nobody but you" in m for m in shown)
    assert not any("Dealer in the file" in m or "Nobody here" in m for m in shown)


def test_a_staff_member_may_seat_the_files_members(
    client_as: ClientAs, played: Campaign, outsider: User
) -> None:
    outsider.is_staff = True
    outsider.save(update_fields=["is_staff"])
    text = campaign_file_dump(campaign_export(played))

    client_as(outsider).post(IMPORT, {"file": _upload(text)})

    copy = Campaign.objects.get(slug="the-hanged-man-2")
    roles = dict(copy.memberships.values_list("user__username", "role"))
    assert roles == {"outsider": "dealer", "dealer": "player", "player_a": "player",
                     "player_b": "player"}  # fmt: skip


@pytest.mark.parametrize(
    ("how", "expected"),
    [
        ("truncated", "The file stops in the middle"),
        ("rating", "characters[{jim}].attributes.hand.rating: must be 0–5, got 7"),
        ("link", "links[0].npc: no character has the key &quot;nobody&quot;"),
        ("ledger", "characters[{jim}].chips.current: is 2, but the ledger adds up to 1"),
        ("version", "version: this app reads versions 1 to 3 of the format; the file says 4"),
    ],
)
def test_it_shows_why_a_file_is_refused_and_writes_nothing(
    client_as: ClientAs, played: Campaign, outsider: User, how: str, expected: str
) -> None:
    data = campaign_export(played)
    jim = at(data, "gentleman-jim-harris")
    if how == "rating":
        data["characters"][jim]["attributes"]["hand"]["rating"] = 7
    elif how == "link":
        data["links"][0]["npc"] = "nobody"
    elif how == "ledger":
        data["characters"][jim]["chips"]["current"] = 2
    elif how == "version":
        data["version"] = 4
    text = campaign_file_dump(data)
    if how == "truncated":
        text = text[: len(text) // 3]
    before = model_counts()

    response = client_as(outsider).post(IMPORT, {"file": _upload(text)})

    html = response.content.decode()
    assert response.status_code == 200
    assert "Nothing was imported." in html
    assert expected.format(jim=jim) in html
    assert model_counts() == before


def test_it_asks_for_a_file(client_as: ClientAs, outsider: User) -> None:
    response = client_as(outsider).post(IMPORT, {})
    assert response.status_code == 200
    assert "This field is required." in response.content.decode()


def test_it_restores_the_campaign_when_the_dealer_confirms(
    client_as: ClientAs, played: Campaign, dealer: User
) -> None:
    text = campaign_file_dump(campaign_export(played))
    played.notes.all().delete()
    client = client_as(dealer)

    unconfirmed = client.post(RESTORE, {"file": _upload(text)})
    assert "Tick the box to confirm" in unconfirmed.content.decode()
    assert played.notes.count() == 0

    response = client.post(RESTORE, {"file": _upload(text), "confirm": "on"})
    assert response.status_code == 302
    assert campaign_file_dump(campaign_export(played)) == text


def test_it_restores_from_no_other_campaigns_file(
    client_as: ClientAs, played: Campaign, campaign: Campaign, dealer: User
) -> None:
    text = campaign_file_dump(campaign_export(campaign))
    before = model_counts()
    response = client_as(dealer).post(RESTORE, {"file": _upload(text), "confirm": "on"})
    assert "the file is a copy of /c/dry-gulch/, not of this campaign" in response.content.decode()
    assert model_counts() == before


def test_it_offers_export_and_restore_to_the_dealer_only(
    played: Campaign, dealer: User, player_a: User
) -> None:
    seats = {m.user: m for m in played.memberships.all()}
    as_dealer = render_to_string(
        "campaigns/_exchange_actions.html", {"campaign": played, "membership": seats[dealer]}
    )
    as_player = render_to_string(
        "campaigns/_exchange_actions.html", {"campaign": played, "membership": seats[player_a]}
    )
    assert f'href="{EXPORT}"' in as_dealer
    assert f'href="{RESTORE}"' in as_dealer
    assert f'href="{IMPORT}"' in as_dealer
    assert EXPORT not in as_player
    assert RESTORE not in as_player
    assert f'href="{IMPORT}"' in as_player
