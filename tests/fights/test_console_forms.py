"""The Dealer's console forms are whole (issue 38's planned pieces): a combatant's line is
planned once, and its move forms — written in an included template — still get their URL,
version, CSRF token, scope and basis at every render (an include was once rendered with the
plan's empty values: every console move went nowhere)."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytestmark = pytest.mark.django_db


def test_the_consoles_move_forms_carry_their_url_version_scope_and_basis(
    table: Any, dealer: Any, client: Any, gunfight: Any
) -> None:
    client.force_login(dealer)
    for htmx in (False, True):
        headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        html = client.get(gunfight.get_absolute_url(), **headers).content.decode()
        forms = re.findall(r'<form class="act act--quickness[^>]*>.*?</form>', html, re.S)
        assert forms
        for form in forms:
            assert f'action="{gunfight.get_absolute_url()}move/quickness/"' in form
            assert f'name="version" value="{gunfight.version}"' in form
            assert 'name="csrfmiddlewaretoken"' in form
            assert re.search(r'name="cid" value="\w+"', form)
            assert re.search(r'name="basis" value="\w+"', form)
