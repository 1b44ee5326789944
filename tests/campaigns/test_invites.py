"""Invitations: a single-use link, shown once, stored only as a hash; following it seats you."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone

from campaigns.models import Invite, Membership, hash_token
from campaigns.services import invite_create, invite_revoke
from tests.campaigns.conftest import url

HTMX = {"HX-Request": "true"}
NEW_PASSWORD = "tumbleweed-at-noon-77"


def create_link(client: Client, campaign: Any, label: str = "For Clara", **kw: Any) -> str:
    response = client.post(url("invite_create", campaign.slug), {"label": label}, **kw)
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    match = re.search(r'id="new-link" type="text" value="([^"]+)"', response.content.decode())
    assert match, "the new link is shown in a plain input"
    return match.group(1)


def token_of(link: str) -> str:
    match = re.search(r"/join/([^/]+)/$", link)
    assert match
    return match.group(1)


def everything_stored() -> str:
    """Every value of every row of every table, sessions decoded: what a leaked database holds."""
    rows: list[str] = []
    for model in apps.get_models():
        for values in model.objects.values_list():
            rows.append(repr(values))
    rows.extend(repr(s.get_decoded()) for s in Session.objects.all())
    return "\n".join(rows)


def join(client: Client, token: str, **kw: Any) -> Any:
    return client.post(url("join", token), **kw)


# --- Making and listing invitations -------------------------------------------------------------


def test_it_shows_a_new_link_once_and_stores_only_its_hash(
    client_as: Callable[[Any], Client], campaign: Any, dealer: User
) -> None:
    client = client_as(dealer)
    link = create_link(client, campaign)
    token = token_of(link)
    assert link.startswith("http://testserver/join/")
    invite = Invite.objects.get()
    assert invite.token_hash == hash_token(token)
    assert (invite.label, invite.created_by, invite.status) == ("For Clara", dealer, "open")
    assert token not in everything_stored()
    # Shown once: the invitations page lists it, but never shows the link again.
    page = client.get(url("invites", campaign.slug)).content.decode()
    assert "For Clara" in page
    assert token not in page


def test_it_answers_htmx_with_the_invitations_section(
    client_as: Callable[[Any], Client], campaign: Any, dealer: User
) -> None:
    client = client_as(dealer)
    response = client.post(url("invite_create", campaign.slug), {"label": ""}, headers=HTMX)
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="invites"')
    assert "shown only this once" in html
    assert "Copy" in html


def test_it_lists_invitations_with_their_status(
    client_as: Callable[[Any], Client], campaign: Any, dealer: User, outsider: User
) -> None:
    used, _ = invite_create(campaign=campaign, actor=dealer, label="used one")
    used.used_at, used.used_by = timezone.now(), outsider
    used.save()
    _expired, _ = invite_create(campaign=campaign, actor=dealer, label="old one", days=-1)
    revoked, _ = invite_create(campaign=campaign, actor=dealer, label="withdrawn one")
    invite_revoke(invite=revoked)
    invite_create(campaign=campaign, actor=dealer, label="fresh one")
    html = client_as(dealer).get(url("invites", campaign.slug)).content.decode()
    for label, status in [
        ("used one", "Used"),
        ("old one", "Expired"),
        ("withdrawn one", "Revoked"),
        ("fresh one", "Open"),
    ]:
        assert label in html
        assert f'badge--{status.lower()}">{status}<' in html
    assert "used by outsider" in html


def test_it_revokes_an_invitation(
    client_as: Callable[[Any], Client], campaign: Any, dealer: User, invite_token: str
) -> None:
    invite = Invite.objects.get()
    response = client_as(dealer).post(url("invite_revoke", campaign.slug, invite.pk))
    assert response["Location"] == url("invites", campaign.slug)
    invite.refresh_from_db()
    assert invite.status == "revoked"


# --- Following the link -------------------------------------------------------------------------


def test_it_explains_the_invitation_to_an_anonymous_visitor(
    client: Client, campaign: Any, invite_token: str
) -> None:
    response = client.get(url("join", invite_token))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Dry Gulch" in html
    assert "<strong>Delia</strong> invites you" in html  # the Dealer's first name
    next_path = url("join", invite_token)
    assert f'href="/accounts/login/?next={next_path}"' in html
    assert f'href="/accounts/signup/?next={next_path}"' in html


def test_the_headers_sign_up_keeps_the_invitation(
    client: Client, campaign: Any, invite_token: str
) -> None:
    """Issue 27: the header's "Sign up" on /join/<token>/ dropped the invitation (no next):
    the new guest landed on "You don't sit at any table yet". Every "Sign up" on the page
    comes back to it; on the login page, the header passes on the login's own next."""
    import re

    join_path = url("join", invite_token)
    html = client.get(join_path).content.decode()
    header = html.split("</header>", 1)[0]
    signups = re.findall(r'href="(/accounts/signup/[^"]*)"', header)
    assert signups == [f"/accounts/signup/?next={join_path}"]
    login = client.get(f"/accounts/login/?next={join_path}").content.decode()
    header = login.split("</header>", 1)[0]
    assert re.findall(r'href="(/accounts/signup/[^"]*)"', header) == [
        f"/accounts/signup/?next={join_path}"
    ]


def test_it_brings_a_new_person_through_signup_to_their_seat(
    client: Client, campaign: Any, invite_token: str
) -> None:
    join_path = url("join", invite_token)
    response = client.post(
        "/accounts/signup/",
        {
            "username": "clara",
            "password1": NEW_PASSWORD,
            "password2": NEW_PASSWORD,
            "next": join_path,
        },
    )
    assert response["Location"] == join_path
    assert "Take a seat at Dry Gulch" in client.get(join_path).content.decode()
    seated = join(client, invite_token)
    assert seated["Location"] == campaign.get_absolute_url()
    assert Membership.objects.get(user__username="clara").role == Membership.Role.PLAYER
    assert client.get(campaign.get_absolute_url()).status_code == 200


def test_it_asks_an_anonymous_visitor_to_log_in_before_taking_a_seat(
    client: Client, campaign: Any, invite_token: str
) -> None:
    response = join(client, invite_token)
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
    assert Invite.objects.get().used_at is None


def test_it_seats_a_logged_in_person_and_uses_the_invitation_up(
    client_as: Callable[[Any], Client], campaign: Any, invite_token: str, outsider: User
) -> None:
    client = client_as(outsider)
    assert "Take a seat" in client.get(url("join", invite_token)).content.decode()
    response = join(client, invite_token)
    assert response["Location"] == campaign.get_absolute_url()
    invite = Invite.objects.get()
    assert (invite.status, invite.used_by) == ("used", outsider)
    assert Membership.objects.get(user=outsider).role == Membership.Role.PLAYER


def test_it_answers_htmx_with_a_client_redirect(
    client_as: Callable[[Any], Client], campaign: Any, invite_token: str, outsider: User
) -> None:
    response = join(client_as(outsider), invite_token, headers=HTMX)
    assert response["HX-Redirect"] == campaign.get_absolute_url()


def test_it_makes_joining_twice_a_no_op(
    client_as: Callable[[Any], Client], campaign: Any, invite_token: str, outsider: User
) -> None:
    client = client_as(outsider)
    join(client, invite_token)
    again = join(client, invite_token)
    assert again["Location"] == campaign.get_absolute_url()
    assert Membership.objects.filter(user=outsider).count() == 1
    page = client.get(url("join", invite_token))
    assert page.status_code == 200
    assert "You already sit at Dry Gulch" in page.content.decode()


def test_it_is_single_use(
    client_as: Callable[[Any], Client],
    campaign: Any,
    invite_token: str,
    outsider: User,
    django_user_model: type[User],
) -> None:
    join(client_as(outsider), invite_token)
    latecomer = django_user_model.objects.create_user(username="latecomer", password="x")
    client = Client()
    client.force_login(latecomer)
    page = client.get(url("join", invite_token))
    html = page.content.decode()
    assert page.status_code == 410
    assert "already been used" in html
    assert "Dry Gulch" not in html  # a dead link does not say where it led
    response = join(client, invite_token)
    assert response.status_code == 410
    assert not Membership.objects.filter(user=latecomer).exists()


@pytest.mark.parametrize(
    ("spoil", "words"),
    [
        ("expire", "It has expired"),
        ("revoke", "It has been withdrawn"),
    ],
)
def test_it_refuses_a_dead_invitation_in_plain_words(
    client_as: Callable[[Any], Client],
    campaign: Any,
    invite_token: str,
    outsider: User,
    spoil: str,
    words: str,
) -> None:
    invite = Invite.objects.get()
    if spoil == "expire":
        invite.expires_at = timezone.now() - timedelta(seconds=1)
        invite.save()
    else:
        invite_revoke(invite=invite)
    client = client_as(outsider)
    page = client.get(url("join", invite_token))
    assert page.status_code == 410
    assert words in page.content.decode()
    assert "Dry Gulch" not in page.content.decode()
    response = join(client, invite_token)
    assert response.status_code == 410
    assert words in response.content.decode()
    assert not Membership.objects.filter(user=outsider).exists()


@pytest.mark.django_db
def test_it_refuses_an_invalid_link(client: Client, outsider: User) -> None:
    page = client.get(url("join", "not-a-real-token"))
    assert page.status_code == 404
    assert "not a valid invitation link" in page.content.decode()
    client.force_login(outsider)
    assert join(client, "not-a-real-token").status_code == 404
    assert not Membership.objects.filter(user=outsider).exists()


def test_it_does_not_spend_the_link_on_someone_already_seated(
    client_as: Callable[[Any], Client], campaign: Any, invite_token: str, player_a: User
) -> None:
    join(client_as(player_a), invite_token)
    assert Invite.objects.get().status == "open"
