"""``load_starter`` and ``seed_demo``: the commands that put The Hanged Man on a table."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse

from campaigns.models import Campaign, Membership
from characters.models import Character

DEMO_USERS = ["dealer", "jim", "zeke", "jack", "luke"]


def _run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_it_loads_a_starter_for_a_named_dealer(dealer: User) -> None:
    output = _run("load_starter", "hanged-man", "--dealer", "dealer", "--name", "Last Oak")
    campaign = Campaign.objects.get(name="Last Oak")
    assert f"/c/{campaign.slug}/" in output
    assert campaign.memberships.get().user == dealer
    assert campaign.characters.count() == 11
    assert set(campaign.characters.filter(kind="pc").values_list("player", flat=True)) == {
        dealer.pk
    }


@pytest.mark.django_db
def test_it_makes_the_first_superuser_the_dealer_by_default() -> None:
    User.objects.create_user("plain")
    boss = User.objects.create_superuser("boss", password="x" * 20)
    User.objects.create_superuser("later", password="x" * 20)
    _run("load_starter", "hanged-man")
    campaign = Campaign.objects.get(name="The Hanged Man")
    assert campaign.memberships.get(role=Membership.Role.DEALER).user == boss


@pytest.mark.django_db
def test_it_says_who_can_deal_when_there_is_no_superuser() -> None:
    with pytest.raises(CommandError, match="--dealer USERNAME"):
        _run("load_starter", "hanged-man")
    assert Campaign.objects.count() == 0


def test_it_refuses_an_unknown_dealer(dealer: User) -> None:
    with pytest.raises(CommandError, match="No user called 'nobody'"):
        _run("load_starter", "hanged-man", "--dealer", "nobody")


def test_it_refuses_an_unknown_starter(dealer: User) -> None:
    with pytest.raises(CommandError, match="invalid choice"):
        _run("load_starter", "dead-mans-hand", "--dealer", "dealer")


def _logins(output: str) -> dict[str, str]:
    found = re.findall(r"│\s+(dealer|jim|zeke|jack|luke)\s+(\S+)", output)
    return dict(found)


@pytest.mark.django_db
def test_it_seeds_a_demo_table_on_a_fresh_database(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PORT", "9123")
    output = _run("seed_demo")
    logins = _logins(output)

    assert "http://127.0.0.1:9123/accounts/login/" in output
    assert "private" in output
    assert sorted(logins) == sorted(DEMO_USERS)
    assert sorted(User.objects.values_list("username", flat=True)) == sorted(DEMO_USERS)
    campaign = Campaign.objects.get()
    assert campaign.memberships.get(role="dealer").user.username == "dealer"
    runs = dict(Character.objects.filter(kind="pc").values_list("player__username", "name"))
    assert runs == {
        "jim": '"Gentleman" Jim Harris',
        "zeke": "Zeke Munroe",
        "jack": '"Black" Jack Kerrigan',
        "luke": '"Lucky" Luke Johnson',
    }


@pytest.mark.django_db
def test_it_prints_passwords_that_log_in_and_stores_only_their_hashes() -> None:
    logins = _logins(_run("seed_demo"))
    for username, password in logins.items():
        assert len(password) >= 12
        stored = User.objects.get(username=username).password
        assert password not in stored
        client = Client()
        response = client.post(reverse("login"), {"username": username, "password": password})
        assert response.status_code == 302, username
        assert client.session["_auth_user_id"] == str(User.objects.get(username=username).pk)
    assert len(set(logins.values())) == len(DEMO_USERS)


@pytest.mark.django_db
def test_it_does_nothing_the_second_time() -> None:
    first = _run("seed_demo")
    hashes = list(User.objects.order_by("pk").values_list("password", flat=True))
    second = _run("seed_demo")
    assert second.strip() == "Demo accounts already exist; log in as before."
    assert not set(_logins(first).values()) & set(second.split())
    assert list(User.objects.order_by("pk").values_list("password", flat=True)) == hashes
    assert Campaign.objects.count() == 1


def test_it_leaves_a_database_with_users_alone(dealer: User) -> None:
    assert _run("seed_demo").strip() == "Demo accounts already exist; log in as before."
    assert list(User.objects.values_list("username", flat=True)) == ["dealer"]
    assert Campaign.objects.count() == 0
