"""Content-Security-Policy (issue 19 #5): every page carries the header (django-csp), scripts
and styles come only from this site, and no template holds an inline script, an on*= handler
or an inline style that the policy would block."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

TEMPLATES_DIR = Path(settings.BASE_DIR) / "templates"
TEMPLATES = sorted(TEMPLATES_DIR.rglob("*.html"))


def policy(response: Any) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    directives = [part.strip().split() for part in header.split(";") if part.strip()]
    return {name: values for name, *values in directives}


def assert_strict(response: Any) -> None:
    directives = policy(response)
    assert directives["default-src"] == ["'self'"]
    assert directives["script-src"] == ["'self'"]
    assert directives["style-src"] == ["'self'"]
    assert directives["object-src"] == ["'none'"]
    assert directives["frame-ancestors"] == ["'none'"]
    assert "unsafe-inline" not in response["Content-Security-Policy"]
    assert "unsafe-eval" not in response["Content-Security-Policy"]


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/accounts/signup/", "/rulings/",
                                  "/healthz", "/no-such-page/"])  # fmt: skip
def test_every_page_carries_the_policy(client: Client, path: str) -> None:
    assert_strict(client.get(path))


def test_a_members_pages_carry_the_policy(
    client_as: Callable[[Any], Client], campaign: Any, dealer: User
) -> None:
    client = client_as(dealer)
    for path in ("/", f"/c/{campaign.slug}/", f"/c/{campaign.slug}/invites/", "/import/"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert_strict(response)


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda p: str(p.relative_to(TEMPLATES_DIR)))
def test_no_template_holds_inline_script_or_style(template: Path) -> None:
    text = template.read_text()
    for tag in re.findall(r"<script\b[^>]*>", text):
        assert "src=" in tag, f"inline <script> in {template}: move it to static/js/"
    for body in re.findall(r"<script\b[^>]*>(.*?)</script>", text, re.S):
        assert not body.strip(), f"inline script in {template}"
    assert not re.search(r"\son[a-z]+\s*=", text), f"an on*= handler in {template}"
    assert not re.search(r"\bstyle\s*=", text), f"an inline style in {template}"
    assert "<style" not in text, template
    assert "javascript:" not in text, template
    assert "hx-on" not in text, template  # htmx's inline handlers need eval


def test_the_invitation_link_is_copied_by_a_static_script(
    client_as: Callable[[Any], Client], campaign: Any, dealer: User
) -> None:
    client = client_as(dealer)
    html = client.post(f"/c/{campaign.slug}/invites/new/", {"label": "Clara"}).content.decode()
    assert 'data-copy-from="new-link"' in html
    assert "onclick" not in html
    assert "<script>" not in html
    page = client.get("/").content.decode()
    assert "js/app.js" in page
    assert '"allowEval": false' in page  # htmx evaluates no code under the policy
