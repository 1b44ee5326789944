"""The Dealer's prep on the campaign page: notes (add, edit, delete, reorder) and Wanted! links
between non-player and player characters (RAW DEALER, WANTED!)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from campaigns.models import Note, WantedLink
from campaigns.services import CampaignError, note_move, note_save, wanted_link_save
from tests.campaigns.conftest import url

HTMX = {"HX-Request": "true"}


@pytest.fixture
def as_dealer(client_as: Callable[[Any], Client], dealer: User) -> Client:
    return client_as(dealer)


# --- Notes --------------------------------------------------------------------------------------


def test_it_adds_a_note_and_redirects_back(as_dealer: Client, campaign: Any) -> None:
    response = as_dealer.post(
        url("note_create", campaign.slug), {"title": " Who hanged? ", "body": "Nobody knows."}
    )
    assert response.status_code == 302
    assert response["Location"] == campaign.get_absolute_url() + "#notes"
    note = Note.objects.get()
    assert (note.title, note.body) == ("Who hanged?", "Nobody knows.")


def test_it_answers_htmx_with_the_notes_section(as_dealer: Client, campaign: Any) -> None:
    response = as_dealer.post(
        url("note_create", campaign.slug), {"title": "Who hanged?", "body": ""}, headers=HTMX
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<section class="panel" id="notes"')
    assert "Who hanged?" in html
    assert "<html" not in html


def test_it_refuses_a_note_without_a_title_in_plain_words(as_dealer: Client, campaign: Any) -> None:
    response = as_dealer.post(url("note_create", campaign.slug), {"title": "", "body": "x"})
    assert response.status_code == 200
    assert "This field is required" in response.content.decode()
    assert not Note.objects.exists()
    blank = as_dealer.post(url("note_create", campaign.slug), {"title": "   ", "body": "x"})
    assert "This field is required" in blank.content.decode()  # stripped by the form
    assert not Note.objects.exists()


def test_it_edits_a_note_in_place_with_htmx(as_dealer: Client, campaign: Any, note: Any) -> None:
    form = as_dealer.get(url("note_edit", campaign.slug, note.pk), headers=HTMX).content.decode()
    assert 'class="row row--editing"' in form
    assert "What really happened" in form
    response = as_dealer.post(
        url("note_edit", campaign.slug, note.pk),
        {"title": "What happened", "body": "Still unknown."},
        headers=HTMX,
    )
    assert "row--editing" not in response.content.decode()
    note.refresh_from_db()
    assert (note.title, note.body) == ("What happened", "Still unknown.")


def test_it_edits_a_note_without_javascript(as_dealer: Client, campaign: Any, note: Any) -> None:
    page = as_dealer.get(url("note_edit", campaign.slug, note.pk))
    assert "Edit the note" in page.content.decode()
    response = as_dealer.post(
        url("note_edit", campaign.slug, note.pk), {"title": "New", "body": ""}
    )
    assert response.status_code == 302
    note.refresh_from_db()
    assert note.title == "New"


def test_it_deletes_a_note(as_dealer: Client, campaign: Any, note: Any) -> None:
    response = as_dealer.post(url("note_delete", campaign.slug, note.pk))
    assert response.status_code == 302
    assert not Note.objects.exists()


def test_it_reorders_notes(as_dealer: Client, campaign: Any) -> None:
    first, second, third = (note_save(campaign=campaign, title=t, body="") for t in "ABC")
    as_dealer.post(url("note_move", campaign.slug, third.pk), {"direction": "up"})
    assert [n.title for n in campaign.notes.all()] == ["A", "C", "B"]
    as_dealer.post(url("note_move", campaign.slug, first.pk), {"direction": "down"})
    assert [n.title for n in campaign.notes.all()] == ["C", "A", "B"]
    as_dealer.post(url("note_move", campaign.slug, second.pk), {"direction": "down"})  # last
    assert [n.title for n in campaign.notes.all()] == ["C", "A", "B"]


def test_it_renumbers_notes_after_a_deletion(campaign: Any) -> None:
    a, b, _c = (note_save(campaign=campaign, title=t, body="") for t in "ABC")
    b.delete()
    d = note_save(campaign=campaign, title="D", body="")  # takes position 2, like C
    note_move(note=d, direction="up")
    assert [n.title for n in campaign.notes.all()] == ["A", "D", "C"]
    with pytest.raises(CampaignError):
        note_move(note=a, direction="sideways")


def test_it_keeps_notes_to_their_own_campaign(
    client_as: Callable[[Any], Client], campaign: Any, note: Any, outsider: User
) -> None:
    from campaigns.services import campaign_create

    other = campaign_create(dealer=outsider, name="Elsewhere")
    client = client_as(outsider)
    assert client.post(url("note_delete", other.slug, note.pk)).status_code == 404
    assert Note.objects.filter(pk=note.pk).exists()


# --- Wanted! links -----------------------------------------------------------------------------


def test_it_links_an_npc_to_a_pc(as_dealer: Client, campaign: Any, npc: Any, pc_a: Any) -> None:
    response = as_dealer.post(
        url("wanted_create", campaign.slug),
        {"npc": npc.pk, "pc": pc_a.pk, "devil_touched": "The war", "notes": "Crane was there."},
    )
    assert response.status_code == 302
    link = WantedLink.objects.get()
    assert (link.npc, link.pc, link.devil_touched, link.notes) == (
        npc,
        pc_a,
        "The war",
        "Crane was there.",
    )


def test_it_refuses_a_second_link_between_the_same_pair(
    as_dealer: Client, campaign: Any, link: Any, npc: Any, pc_a: Any
) -> None:
    response = as_dealer.post(
        url("wanted_create", campaign.slug), {"npc": npc.pk, "pc": pc_a.pk}, headers=HTMX
    )
    assert "Mayor Crane and Abe Slade are already linked" in response.content.decode()
    assert WantedLink.objects.count() == 1


def test_it_refuses_links_the_wrong_way_round(campaign: Any, npc: Any, pc_a: Any) -> None:
    with pytest.raises(CampaignError, match="non-player character"):
        wanted_link_save(campaign=campaign, npc=pc_a, pc=npc)


def test_it_offers_only_this_campaigns_characters(
    as_dealer: Client, campaign: Any, npc: Any, pc_a: Any, outsider: User
) -> None:
    from campaigns.services import campaign_create
    from characters.services import character_create

    other = campaign_create(dealer=outsider, name="Elsewhere")
    stranger = character_create(
        campaign=other, kind="npc", player=None, data={"name": "Stranger"}, knacks={}
    )
    response = as_dealer.post(
        url("wanted_create", campaign.slug), {"npc": stranger.pk, "pc": pc_a.pk}
    )
    assert "Select a valid choice" in response.content.decode()
    assert not WantedLink.objects.exists()


def test_it_edits_and_deletes_a_link(as_dealer: Client, campaign: Any, link: Any) -> None:
    edit = url("wanted_edit", campaign.slug, link.pk)
    assert link.notes in as_dealer.get(edit).content.decode()
    as_dealer.post(edit, {"npc": link.npc.pk, "pc": link.pc.pk, "devil_touched": "Greed"})
    link.refresh_from_db()
    assert (link.devil_touched, link.notes) == ("Greed", "")
    as_dealer.post(url("wanted_delete", campaign.slug, link.pk), headers=HTMX)
    assert not WantedLink.objects.exists()


def test_it_takes_htmx_posts_with_the_pages_csrf_header(campaign: Any, dealer: User) -> None:
    """CSRF stays on: an htmx POST passes with the token base.html puts in hx-headers."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(dealer)
    html = client.get(campaign.get_absolute_url()).content.decode()
    match = re.search(r"<body hx-headers='([^']+)'", html)
    assert match
    path = url("note_create", campaign.slug)
    assert client.post(path, {"title": "T"}, headers=HTMX).status_code == 403
    headers = HTMX | json.loads(match.group(1))
    assert client.post(path, {"title": "T"}, headers=headers).status_code == 200
    assert Note.objects.get().title == "T"
