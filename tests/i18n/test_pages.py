"""Issue 39: the pages outside the games, read in Italian, keep none of the English catalogue's
sentences: the welcome, the home page of a player, logging in, signing up, changing the
password, the lockout, and the error pages. English pages stay English."""

from __future__ import annotations

import re

from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.i18n.english import english_left, read_text

IT = {"HTTP_ACCEPT_LANGUAGE": "it"}


def test_the_pages_a_guest_sees_read_in_italian(client: Client, db: None) -> None:
    for url in ("/", "/accounts/login/", "/accounts/signup/", "/no-such-page/"):
        page = client.get(url, **IT).content.decode()
        assert not english_left(page), (url, english_left(page))
    welcome = read_text(client.get("/", **IT).content.decode())
    assert "Distribuisci le carte. Racconta la storia." in welcome


def test_a_players_pages_read_in_italian(client: Client, player_a: User, campaign: object) -> None:
    client.force_login(player_a)
    for url in ("/", reverse("password_change"), reverse("password_change_done")):
        page = client.get(url, **IT).content.decode()
        assert not english_left(page), (url, english_left(page))


def test_the_lockout_page_reads_in_italian(client: Client, db: None) -> None:
    from dustdevils.accounts.views import locked_out

    request = client.get("/accounts/login/", **IT).wsgi_request
    request.POST = {"username": "zeke"}  # type: ignore[assignment]
    page = locked_out(request).content.decode()
    assert "Troppi accessi falliti per “zeke”." in read_text(page)
    assert not english_left(page), english_left(page)


def test_the_rulings_page_keeps_each_seeds_own_words(client: Client, db: None) -> None:
    """The app's reading in Italian; a seed's quote as the seed says it (seed 001: Italian)."""
    page = client.get(reverse("conflicts:rulings"), **IT).content.decode()
    assert "Come l’app interpreta le regole" in read_text(page)
    assert "La nostra lettura." in read_text(page)
    english = client.get(reverse("conflicts:rulings")).content.decode()
    quotes = re.findall(r'<blockquote class="ruling__seed"><p>(.*?)</p>', english, re.S)
    assert quotes
    assert all(f'<blockquote class="ruling__seed"><p>{q}</p>' in page for q in quotes)


def test_english_pages_stay_english(client: Client, db: None) -> None:
    page = read_text(client.get("/accounts/login/").content.decode())
    assert "Pull up a chair. The Dealer is waiting." in page
    assert "Prendi una sedia" not in page
