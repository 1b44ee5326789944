"""Accounts: signing up, logging in and out, changing the password, and the lockout after
too many failed logins (django-axes)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.models import User
from django.http import HttpRequest
from django.test import Client, RequestFactory
from django.urls import reverse

from dustdevils.accounts.client_ip import client_ip
from tests.conftest import CAST_PASSWORD

NEW_PASSWORD = "tumbleweed-at-noon-77"


def sign_up(client: Client, **extra: str) -> Any:
    data = {
        "username": "clara",
        "email": "",
        "password1": NEW_PASSWORD,
        "password2": NEW_PASSWORD,
    } | extra
    return client.post(reverse("signup"), data)


def fail_login(client: Client, username: str = "player_a", **extra: Any) -> Any:
    return client.post(reverse("login"), {"username": username, "password": "wrong"}, **extra)


# --- Signing up ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_it_shows_the_signup_form(client: Client) -> None:
    html = client.get(reverse("signup")).content.decode()
    assert 'name="username"' in html
    assert 'name="email"' in html
    assert 'name="password1"' in html
    assert 'name="password2"' in html


@pytest.mark.django_db
def test_it_signs_up_and_logs_the_new_player_in(client: Client) -> None:
    response = sign_up(client)
    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    user = User.objects.get(username="clara")
    assert user.email == ""  # the email address is optional
    assert client.session["_auth_user_id"] == str(user.pk)
    assert "Your tables" in client.get("/").content.decode()


@pytest.mark.django_db
def test_it_keeps_an_email_address_if_given(client: Client) -> None:
    sign_up(client, email="clara@last-oak.example")
    assert User.objects.get(username="clara").email == "clara@last-oak.example"


@pytest.mark.django_db
def test_it_wants_the_password_twice_the_same(client: Client) -> None:
    response = sign_up(client, password2="something-else-entirely")
    assert response.status_code == 200
    assert "didn’t match" in response.content.decode()
    assert not User.objects.filter(username="clara").exists()


@pytest.mark.django_db
def test_it_applies_django_password_validators(client: Client) -> None:
    response = sign_up(client, password1="12345678", password2="12345678")
    html = response.content.decode()
    assert response.status_code == 200
    assert "too common" in html
    assert "entirely numeric" in html
    assert not User.objects.filter(username="clara").exists()


def test_it_refuses_a_taken_username(client: Client, player_a: User) -> None:
    response = sign_up(client, username="player_a")
    assert response.status_code == 200
    assert "already exists" in response.content.decode()


@pytest.mark.django_db
def test_it_sends_a_new_player_back_to_a_safe_next(client: Client) -> None:
    """An invitation link brings a new person to sign up with ?next=/join/<token>/."""
    page = client.get(reverse("signup") + "?next=/join/abc/").content.decode()
    assert 'name="next" value="/join/abc/"' in page
    response = sign_up(client, next="/join/abc/")
    assert response["Location"] == "/join/abc/"


@pytest.mark.django_db
@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/x", "home"])
def test_it_ignores_an_unsafe_next(client: Client, target: str) -> None:
    response = sign_up(client, next=target)
    assert response["Location"] == reverse("home")


def test_it_sends_a_logged_in_person_away_from_signup(
    client_as: Callable[[Any], Client], player_a: User
) -> None:
    response = client_as(player_a).get(reverse("signup"))
    assert response.status_code == 302


# --- Logging in and out; changing the password ------------------------------------------------


def test_it_logs_in_to_next_and_out(client: Client, player_a: User) -> None:
    page = client.get(reverse("login") + "?next=/join/abc/").content.decode()
    assert reverse("signup") + "?next=/join/abc/" in page  # "Sign up" keeps the invitation
    response = client.post(
        reverse("login"), {"username": "player_a", "password": CAST_PASSWORD, "next": "/join/abc/"}
    )
    assert response["Location"] == "/join/abc/"
    assert client.post(reverse("logout")).status_code == 302
    assert "_auth_user_id" not in client.session


def test_it_logs_in_with_client_login_given_a_request(client: Client, player_a: User) -> None:
    """django-axes needs the request: ``client.login`` must pass one (force_login needs none)."""
    assert client.login(request=HttpRequest(), username="player_a", password=CAST_PASSWORD)


def test_it_changes_the_password(client_as: Callable[[Any], Client], player_a: User) -> None:
    client = client_as(player_a)
    assert client.get(reverse("password_change")).status_code == 200
    response = client.post(
        reverse("password_change"),
        {
            "old_password": CAST_PASSWORD,
            "new_password1": NEW_PASSWORD,
            "new_password2": NEW_PASSWORD,
        },
    )
    assert response["Location"] == reverse("password_change_done")
    assert "Password changed" in client.get(reverse("password_change_done")).content.decode()
    player_a.refresh_from_db()
    assert player_a.check_password(NEW_PASSWORD)


def test_it_refuses_a_wrong_old_password(
    client_as: Callable[[Any], Client], player_a: User
) -> None:
    response = client_as(player_a).post(
        reverse("password_change"),
        {"old_password": "nope", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 200
    player_a.refresh_from_db()
    assert player_a.check_password(CAST_PASSWORD)


@pytest.mark.django_db
def test_it_asks_anonymous_visitors_to_log_in_before_changing_a_password(client: Client) -> None:
    response = client.get(reverse("password_change"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


# --- Lockout after failed logins (django-axes) -----------------------------------------------


def test_it_locks_out_after_five_failed_logins(client: Client, player_a: User) -> None:
    for _ in range(4):
        assert fail_login(client).status_code == 200  # the form again, with its error
    response = fail_login(client)
    assert response.status_code == 429
    html = response.content.decode()
    assert "Too many failed logins" in html
    assert "15 minutes" in html
    # Even the right password is refused now.
    right = client.post(reverse("login"), {"username": "player_a", "password": CAST_PASSWORD})
    assert right.status_code == 429
    assert "_auth_user_id" not in client.session


def test_five_failures_lock_the_username_and_address_pair_only(
    client: Client, player_a: User, player_b: User
) -> None:
    for _ in range(5):
        fail_login(client)
    # Another player at the same address still gets in...
    other = client.post(reverse("login"), {"username": "player_b", "password": CAST_PASSWORD})
    assert other.status_code == 302
    client.post(reverse("logout"))
    # ... and so does player_a from another address: five tries cannot lock them out.
    elsewhere = client.post(
        reverse("login"),
        {"username": "player_a", "password": CAST_PASSWORD},
        REMOTE_ADDR="10.9.8.7",
    )
    assert elsewhere.status_code == 302


def test_it_lets_them_try_again_after_the_cool_off(client: Client, player_a: User) -> None:
    for _ in range(5):
        fail_login(client)
    AccessAttempt.objects.update(
        attempt_time=AccessAttempt.objects.get().attempt_time - timedelta(minutes=16)
    )
    response = client.post(reverse("login"), {"username": "player_a", "password": CAST_PASSWORD})
    assert response.status_code == 302


def test_it_forgets_failures_after_a_successful_login(client: Client, player_a: User) -> None:
    for _ in range(4):
        fail_login(client)
    client.post(reverse("login"), {"username": "player_a", "password": CAST_PASSWORD})
    client.post(reverse("logout"))
    for _ in range(4):
        assert fail_login(client).status_code == 200


def test_it_believes_x_forwarded_for_only_from_a_configured_proxy(
    settings: Any,
) -> None:
    """Issue 19 #1: the right-most hop that is not a trusted proxy; the rest is forgeable."""
    factory = RequestFactory()
    forged = factory.get("/", HTTP_X_FORWARDED_FOR="1.2.3.4, 203.0.113.9", REMOTE_ADDR="10.0.0.1")
    settings.FORWARDED_ALLOW_IPS = []  # the default: nobody's header is believed
    assert client_ip(forged) == "10.0.0.1"
    settings.FORWARDED_ALLOW_IPS = ["10.0.0.0/8"]
    assert client_ip(forged) == "203.0.113.9"
    chained = factory.get("/", HTTP_X_FORWARDED_FOR="1.2.3.4, 203.0.113.9, 10.0.0.7",
                          REMOTE_ADDR="10.0.0.1")  # fmt: skip
    assert client_ip(chained) == "203.0.113.9"  # two trusted proxies, then the client
    direct = factory.get("/", HTTP_X_FORWARDED_FOR="1.2.3.4", REMOTE_ADDR="198.51.100.5")
    assert client_ip(direct) == "198.51.100.5"  # not from the proxy: the header is ignored
    assert client_ip(factory.get("/", REMOTE_ADDR="10.0.0.1")) == "10.0.0.1"


def test_many_addresses_against_one_account_lock_it(client: Client, player_a: User) -> None:
    """Issue 19 #1: ten failures for one username from ten addresses lock the username
    everywhere (for the cool-off), right password or not."""
    for n in range(10):
        assert fail_login(client, REMOTE_ADDR=f"10.0.1.{n}").status_code in (200, 429)
    right = client.post(
        reverse("login"),
        {"username": "player_a", "password": CAST_PASSWORD},
        REMOTE_ADDR="10.0.2.1",
    )
    assert right.status_code == 429


def test_one_address_is_throttled_across_many_usernames(
    client: Client, player_a: User, player_b: User
) -> None:
    """Issue 19 #1: twenty failures from one address, each against another username, stop that
    address — even for a right password — and not other addresses."""
    for n in range(20):
        fail_login(client, username=f"guess-{n}")
    here = client.post(reverse("login"), {"username": "player_b", "password": CAST_PASSWORD})
    assert here.status_code == 429
    elsewhere = client.post(
        reverse("login"),
        {"username": "player_b", "password": CAST_PASSWORD},
        REMOTE_ADDR="10.9.8.7",
    )
    assert elsewhere.status_code == 302


def test_logging_in_to_ones_own_account_does_not_reset_the_address(
    client: Client, player_a: User, player_b: User
) -> None:
    """A guesser with an account of their own cannot clear their address's count by logging
    in to it between guesses."""
    for n in range(19):
        fail_login(client, username=f"guess-{n}")
    assert (
        client.post(
            reverse("login"), {"username": "player_b", "password": CAST_PASSWORD}
        ).status_code
        == 302
    )
    client.post(reverse("logout"))
    assert fail_login(client, username="guess-19").status_code == 429


@pytest.mark.django_db
def test_a_username_of_5000_characters_gets_a_plain_error(client: Client) -> None:
    """Issue 19 #6: axes would write it into a 255-character column (a 500 on PostgreSQL)."""
    response = client.post(reverse("login"), {"username": "x" * 5000, "password": "wrong"})
    assert response.status_code == 200
    assert "No username is longer than 150 characters." in response.content.decode()
    assert not AccessAttempt.objects.exists()
