"""Issue 37, B8: an idempotency key belongs to its form. The same key sent with another form
is a new key there — the probe's note key sent with the new-fight form got the note back (a
500), and with the invitation form a link whose page answered 404. Each create form, sent
with a key a note's form used first, makes its own thing (tables.once)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from campaigns.models import Invite, Note
from campaigns.services import note_save
from tables.once import made_once
from tests.test_create_once import NAMES, cases

pytestmark = pytest.mark.django_db
KEY = "the-same-key"


def note_with_key(client: Client, campaign: Any) -> None:
    response = client.post(
        f"/c/{campaign.slug}/notes/new/", {"title": "Mine", "body": "", "key": KEY}
    )
    assert response.status_code < 400
    assert Note.objects.filter(campaign=campaign, title="Mine").count() == 1


@pytest.mark.parametrize("name", [n for n in NAMES if n != "note"])
def test_a_key_sent_with_another_form_makes_that_forms_own_thing(
    name: str, campaign: Any, dealer: Any, player_a: Any, player_b: Any, pc_a: Any, pc_b: Any,
    npc: Any,
) -> None:  # fmt: skip
    client = Client(raise_request_exception=False)
    client.force_login(dealer)
    url, form, model, where = cases(campaign, dealer, player_a, player_b, (pc_a, pc_b), npc)[name]
    note_with_key(client, campaign)
    before = model._default_manager.filter(**where).count()

    response = client.post(url, {**form, "key": KEY})

    assert response.status_code < 500
    assert model._default_manager.filter(**where).count() == before + 1
    again = client.post(url, {**form, "key": KEY})  # that form sent again: still once
    assert again.status_code < 500
    assert model._default_manager.filter(**where).count() == before + 1


def test_a_key_sent_with_the_invitation_form_shows_a_link_that_works(
    campaign: Any, dealer: Any, outsider: Any
) -> None:
    client = Client(raise_request_exception=False)
    client.force_login(dealer)
    note_with_key(client, campaign)

    response = client.post(f"/c/{campaign.slug}/invites/new/", {"label": "For Clara", "key": KEY})
    assert response.status_code == 200
    link = re.search(r'id="new-link" type="text" value="([^"]+)"', response.content.decode())
    assert link is not None
    assert Invite.objects.filter(campaign=campaign).count() == 1
    guest = Client(raise_request_exception=False)
    guest.force_login(outsider)
    assert guest.get(link.group(1)).status_code == 200  # the invitation's own page


def test_made_once_keeps_a_key_per_form(campaign: Any, dealer: Any) -> None:
    def first() -> Note:
        return note_save(campaign=campaign, title="First", body="")

    def second() -> Note:
        return note_save(campaign=campaign, title="Second", body="")

    a = made_once(user=dealer, key=KEY, make=first)
    b = made_once(user=dealer, key=KEY, make=second)
    assert (a.title, b.title) == ("First", "Second")
    assert made_once(user=dealer, key=KEY, make=first) == a
    assert made_once(user=dealer, key=KEY, make=second, form="another form").title == "Second"
