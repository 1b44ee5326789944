"""Issue 39: who reads which language. The browser's Accept-Language by default; the header's
picker (Django's set_language) wins over it, kept on the account (and for a guest in the
session), brought back at the next login on any device; English stays the default."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.http import HttpRequest
from django.test import Client

from dustdevils.accounts.models import Preference

pytestmark = pytest.mark.django_db
PASSWORD = "pw-1-long-enough"


def lang(page: Any) -> str:
    text = page.content.decode()
    return text.split('<html lang="', 1)[1].split('"', 1)[0]


def test_english_by_default_and_the_browsers_language_otherwise(client: Client) -> None:
    assert lang(client.get("/accounts/login/")) == "en"
    page = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="it-IT,it;q=0.9,en;q=0.5")
    assert lang(page) == "it"
    assert "un compagno di gioco" in page.content.decode()
    assert lang(client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="de")) == "en"


def test_a_guests_choice_is_kept_in_the_session_and_goes_to_the_account_at_login(
    client: Client, player_a: User
) -> None:
    answer = client.post("/accounts/language/", {"language": "it", "next": "/accounts/login/"})
    assert answer.status_code == 302
    assert answer["Location"] == "/accounts/login/"
    assert lang(client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="en")) == "it"
    player_a.set_password(PASSWORD)
    player_a.save()
    assert client.login(request=HttpRequest(), username=player_a.username, password=PASSWORD)
    assert Preference.objects.get(user=player_a).language == "it"


def test_a_players_choice_is_saved_on_the_account_and_follows_them(
    client: Client, player_a: User
) -> None:
    client.force_login(player_a)
    client.post("/accounts/language/", {"language": "it", "next": "/"})
    assert Preference.objects.get(user=player_a).language == "it"
    assert lang(client.get("/", HTTP_ACCEPT_LANGUAGE="en")) == "it"
    other = Client()  # another phone, an English browser: the account's language at login
    player_a.set_password(PASSWORD)
    player_a.save()
    assert other.login(request=HttpRequest(), username=player_a.username, password=PASSWORD)
    assert lang(other.get("/", HTTP_ACCEPT_LANGUAGE="en")) == "it"
    other.post("/accounts/language/", {"language": "en", "next": "/"})
    assert Preference.objects.get(user=player_a).language == "en"


def test_an_unknown_language_or_a_get_changes_nothing(client: Client, player_a: User) -> None:
    client.force_login(player_a)
    assert client.post("/accounts/language/", {"language": "xx", "next": "/"}).status_code == 302
    assert not Preference.objects.filter(user=player_a).exists()
    assert client.get("/accounts/language/").status_code == 405
    assert lang(client.get("/")) == "en"


def test_the_picker_is_in_the_header(client: Client) -> None:
    page = client.get("/accounts/login/").content.decode()
    assert 'action="/accounts/language/"' in page
    assert '<option value="it" lang="it">Italiano</option>' in page
