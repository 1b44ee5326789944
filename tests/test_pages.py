"""The home page, the health check and logging in and out."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.conftest import CAST_PASSWORD

TEMPLATES_DIR = Path(settings.BASE_DIR) / "templates"
STATIC_DIR = Path(settings.BASE_DIR) / "static"


@pytest.mark.django_db
def test_it_welcomes_a_visitor_with_a_login_link(client: Client) -> None:
    response = client.get("/")
    html = response.content.decode()
    assert response.status_code == 200
    assert "Dust Devils" in html
    assert reverse("login") in html
    assert "Log out" not in html


def test_it_greets_a_logged_in_player(client_as: Callable[[Any], Client], dealer: User) -> None:
    html = client_as(dealer).get("/").content.decode()
    assert "dealer" in html
    assert "Log out" in html


@pytest.mark.django_db
def test_it_reports_health(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"status": "ok", "database": "ok"}


def test_it_logs_a_player_in_and_out(client: Client, player_a: User) -> None:
    response = client.post(reverse("login"), {"username": "player_a", "password": CAST_PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    assert "player_a" in client.get("/").content.decode()

    assert client.post(reverse("logout")).status_code == 302
    assert "Log in" in client.get("/").content.decode()


def test_it_refuses_a_wrong_password(client: Client, player_a: User) -> None:
    response = client.post(reverse("login"), {"username": "player_a", "password": "nope"})
    assert response.status_code == 200
    assert 'role="alert"' in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_it_sends_the_csrf_token_with_every_htmx_request(player_a: User) -> None:
    """htmx POSTs carry the token from ``hx-headers`` on <body>; CSRF protection stays on."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(player_a)
    html = client.get("/").content.decode()
    match = re.search(r"<body hx-headers='([^']+)'", html)
    assert match, "base.html must put hx-headers on <body>"
    headers = json.loads(match.group(1))

    assert client.post(reverse("logout"), headers={"HX-Request": "true"}).status_code == 403
    response = client.post(reverse("logout"), headers={"HX-Request": "true", **headers})
    assert response.status_code == 302


def test_it_loads_vendored_scripts_and_no_cdn() -> None:
    base = (TEMPLATES_DIR / "base.html").read_text()
    for template in TEMPLATES_DIR.rglob("*.html"):
        assert not re.search(r"(src|href)=\"https?://", template.read_text()), template
    referenced = re.findall(r"\{% static '([^']+)' %\}", base)
    assert "vendor/htmx-2.0.11.min.js" in referenced
    assert "vendor/htmx-ext-sse-2.2.4.min.js" in referenced
    for path in referenced:
        assert (STATIC_DIR / path).is_file(), path
