"""The reads every request makes — the session, the user, the membership — with their SQL made
once (``dustdevils.rows``) give exactly what the ORM's queries give, and refuse what they refuse."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from unittest import mock

import pytest
from asgiref.sync import async_to_sync
from django.contrib import auth
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.models import User
from django.contrib.sessions.backends.db import SessionStore as DjangoSessionStore
from django.contrib.sessions.models import Session
from django.db import connection
from django.http import Http404
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from campaigns.access import membership_for
from campaigns.models import Membership
from dustdevils.accounts.backends import BACKEND, REPLACED, ModelBackendReadOnce
from dustdevils.sessions import SessionStore

pytestmark = pytest.mark.django_db


def fields_of(instance: Any) -> dict[str, Any]:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


# --- The membership -----------------------------------------------------------------------------


def test_the_membership_is_the_orm_s_with_its_campaign_in_one_query(
    campaign: Any, player_a: User
) -> None:
    expected = Membership.objects.select_related("campaign").get(
        campaign__slug=campaign.slug, user=player_a
    )
    with CaptureQueriesContext(connection) as queries:
        membership = membership_for(player_a, campaign.slug)
        assert membership.campaign.name == campaign.name  # cached: no second query
    assert len(queries) == 1
    assert fields_of(membership) == fields_of(expected)
    assert fields_of(membership.campaign) == fields_of(expected.campaign)
    assert membership.user is player_a  # the request's own user
    assert membership.role == Membership.Role.PLAYER
    assert not membership.is_dealer


def test_no_membership_for_an_outsider_or_an_unknown_campaign(
    campaign: Any, outsider: User, player_a: User
) -> None:
    with pytest.raises(Http404):
        membership_for(outsider, campaign.slug)
    with pytest.raises(Http404):
        membership_for(player_a, campaign.slug + "-not-this-one")


def test_the_dealer_s_membership_says_so(campaign: Any, dealer: User) -> None:
    assert membership_for(dealer, campaign.slug).is_dealer


# --- The user -------------------------------------------------------------------------------------


def test_the_user_is_the_orm_s(player_a: User) -> None:
    player_a.set_password("a long and unusual password")
    player_a.last_login = timezone.now()
    player_a.save()
    expected = User.objects.get(pk=player_a.pk)
    user = ModelBackendReadOnce().get_user(player_a.pk)
    assert user is not None
    assert fields_of(user) == fields_of(expected)
    assert user.get_session_auth_hash() == expected.get_session_auth_hash()


def test_no_user_for_a_missing_id_nor_an_inactive_account(player_a: User) -> None:
    backend = ModelBackendReadOnce()
    assert backend.get_user(player_a.pk + 1000) is None
    player_a.is_active = False
    player_a.save()
    assert backend.get_user(player_a.pk) is None


def test_a_logged_in_request_sees_its_user_through_both_reads(client: Any, player_a: User) -> None:
    client.force_login(player_a)
    assert client.session[BACKEND_SESSION_KEY] == BACKEND
    response = client.get("/")
    assert response.status_code == 200
    assert response.wsgi_request.user == player_a
    assert isinstance(response.wsgi_request.session, SessionStore)  # the engine in settings


def login_session(user: User, backend: str = BACKEND) -> str:
    """A session as a login writes it (Django's own store)."""
    written = DjangoSessionStore()
    written[SESSION_KEY] = str(user.pk)
    written[BACKEND_SESSION_KEY] = backend
    written[HASH_SESSION_KEY] = user.get_session_auth_hash()
    written.create()
    assert written.session_key is not None
    return written.session_key


def request_with(session_key: str) -> Any:
    request = RequestFactory().get("/")
    request.session = SessionStore(session_key)
    return request


def test_a_login_from_before_the_backend_was_replaced_stays_logged_in(player_a: User) -> None:
    """Sessions name the backend that logged them in: those made with Django's ModelBackend
    read as made with its subclass, so the change logs nobody out."""
    assert auth.get_user(request_with(login_session(player_a, REPLACED))) == player_a
    assert auth.get_user(request_with(login_session(player_a))) == player_a
    other = "django.contrib.auth.backends.RemoteUserBackend"  # not in settings: refused
    assert not auth.get_user(request_with(login_session(player_a, other))).is_authenticated


def test_a_new_password_logs_the_other_sessions_out(player_a: User) -> None:
    key = login_session(player_a)
    player_a.set_password("a new and equally unusual password")
    player_a.save()
    assert not auth.get_user(request_with(key)).is_authenticated
    assert not Session.objects.filter(session_key=key).exists()  # flushed, as Django does


def test_the_async_reads_of_the_live_streams_agree(player_a: User) -> None:
    key = login_session(player_a, REPLACED)
    assert async_to_sync(auth.aget_user)(request_with(key)) == player_a
    assert async_to_sync(SessionStore(key).aload)()[SESSION_KEY] == str(player_a.pk)


# --- The session ----------------------------------------------------------------------------------


def test_the_session_reads_as_django_s(player_a: User) -> None:
    written = DjangoSessionStore()
    written[SESSION_KEY] = str(player_a.pk)
    written["note"] = "Last Oak"
    written.create()
    store = SessionStore(written.session_key)
    assert store.load() == DjangoSessionStore(written.session_key).load()
    assert store[SESSION_KEY] == str(player_a.pk)
    assert store["note"] == "Last Oak"
    assert store.session_key == written.session_key


def test_an_expired_or_unknown_session_is_empty_and_forgets_its_key(player_a: User) -> None:
    written = DjangoSessionStore()
    written[SESSION_KEY] = str(player_a.pk)
    written.create()
    Session.objects.filter(session_key=written.session_key).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )
    expired = SessionStore(written.session_key)
    assert expired.load() == {}
    assert expired.session_key is None
    unknown = SessionStore("x" * 32)
    assert unknown.load() == {}
    assert unknown.session_key is None


def test_a_session_expires_at_the_same_instant_as_django_s(player_a: User) -> None:
    now = datetime(2030, 5, 6, 7, 8, 9, 500_000, tzinfo=UTC)
    for offset in (-1_000_000, -1, 0, 1, 1_000_000):  # microseconds from now
        key = login_session(player_a)
        Session.objects.filter(session_key=key).update(
            expire_date=now + timedelta(microseconds=offset)
        )
        with mock.patch("django.utils.timezone.now", return_value=now):
            ours, django_s = SessionStore(key).load(), DjangoSessionStore(key).load()
        assert bool(ours) == (offset > 0), offset
        assert ours == django_s, offset


def test_a_session_saved_by_the_store_is_read_back(player_a: User) -> None:
    store = SessionStore()
    store["note"] = "the Hanged Man"
    store.save()
    assert SessionStore(store.session_key).load() == {"note": "the Hanged Man"}
