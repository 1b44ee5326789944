"""Issue 36: a full one-off lobby still showed the last invitation link. When someone sits down
(the lobby, asked again live, hears more seated than the page knew), the invite panel comes
again without the link shown once, and says when the table is full."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from campaigns.models import Membership
from saloon.game import SALOON
from tables.oneoff import oneoff_create

pytestmark = pytest.mark.django_db


def test_a_full_lobby_drops_the_last_link(django_user_model: type[User]) -> None:
    host = django_user_model.objects.create_user(username="hank", first_name="Hank")
    table = oneoff_create(SALOON, host=host)
    client = Client()
    client.force_login(host)
    lobby = reverse("saloon:list", args=[table.slug])
    made = client.post(reverse("saloon:invite", args=[table.slug]), HTTP_HX_REQUEST="true")
    assert "/join/" in made.content.decode()
    page = client.get(lobby).content.decode()
    assert "&amp;seated=1" in page  # the lobby says how many the page knew
    for name in ("Ruth", "Cole", "Abe", "Bess"):  # they come in by their links
        guest = django_user_model.objects.create_user(username=name.lower(), first_name=name)
        Membership.objects.create(campaign=table, user=guest, role=Membership.Role.PLAYER)
    again = client.get(lobby + "?known=&seated=4", HTTP_HX_REQUEST="true").content.decode()
    invite = re.search(r'<section[^>]*id="invite"[^>]*>.*?</section>', again, re.S)
    assert invite is not None
    assert 'hx-swap-oob="true"' in invite.group(0)
    assert "The table is full" in invite.group(0)
    assert "/join/" not in invite.group(0)
    same = client.get(lobby + "?known=&seated=5", HTTP_HX_REQUEST="true").content.decode()
    assert 'id="invite"' not in same  # nobody new: the panel (and a fresh link) stays
