"""Every Saloon Showdown URL is scoped by membership: anonymous to log in (the live stream 403),
an outsider 404, for every page, fragment, stream and move."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from showdown.models import Showdown

pytestmark = pytest.mark.django_db

PAGES = ("", "table/", "story.md", "version/?v=0", "stream/", "table/stream/")


def test_anonymous_go_to_log_in_and_outsiders_find_nothing(
    showdown: Showdown, outsider: User
) -> None:
    base = showdown.get_absolute_url()
    listing = f"/c/{showdown.campaign.slug}/showdown/"
    anonymous = Client()
    stranger = Client()
    stranger.force_login(outsider)
    for url in (listing, *(base + page for page in PAGES)):
        response = anonymous.get(url)
        assert response.status_code in (302, 403), url
        if response.status_code == 302:
            assert "login" in response["Location"], url
        assert stranger.get(url).status_code == 404, url
    for url in (listing + "new/", base + "move/draw/", base + "move/reveal/"):
        response = anonymous.post(url, {"from": "deck"})
        assert response.status_code == 302, url
        assert "login" in response["Location"], url
        assert stranger.post(url, {"from": "deck"}).status_code == 404, url
    assert showdown.version == Showdown.objects.get(pk=showdown.pk).version


def test_another_tables_game_is_not_found_from_this_table(
    showdown: Showdown, client_as: Any, dealer: User
) -> None:
    from saloon.game import SALOON
    from tables.oneoff import oneoff_create

    other = oneoff_create(SALOON, host=dealer, name="Elsewhere")
    url = f"/c/{other.slug}/showdown/{showdown.pk}/"
    client = client_as(dealer)
    assert client.get(url).status_code == 404
    assert client.post(url + "move/draw/", {"from": "deck"}).status_code == 404
