"""Odd requests to every Gunfighter URL: anonymous is sent to log in, an outsider gets 404, and
nothing a client can send gives a server error (GF12's seat field included)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from gunfighter.models import Gunfight
from tests.gunfighter.test_views import as_user, written

pytestmark = pytest.mark.django_db


def urls(gunfight: Gunfight) -> dict[str, str]:
    slug, pk = gunfight.campaign.slug, gunfight.pk
    return {
        "list": reverse("gunfighter:list", args=[slug]),
        "new": reverse("gunfighter:new", args=[slug]),
        "detail": reverse("gunfighter:detail", args=[slug, pk]),
        "version": reverse("gunfighter:version", args=[slug, pk]),
        "stream": reverse("gunfighter:stream", args=[slug, pk]),
        "move": reverse("gunfighter:move", args=[slug, pk, "takeback"]),
    }


def test_anonymous_is_sent_to_log_in_and_an_outsider_finds_nothing(
    gunfight: Gunfight, outsider: Any
) -> None:
    for name, url in urls(gunfight).items():
        post = name in ("new", "move")
        anonymous = Client().post(url) if post else Client().get(url)
        if name == "stream":  # an event stream says so rather than redirect (dustdevils.live)
            assert anonymous.status_code == 403
        else:
            assert anonymous.status_code == 302, name
            assert "login" in anonymous["Location"], name
        client = as_user(outsider)
        assert (client.post(url) if post else client.get(url)).status_code == 404, name


ODD: list[dict[str, Any]] = [
    {"pid": ["p2", "p3"], "version": "x"},
    {"version": "9" * 400, "key": "k" * 5000},
    {"version": "-3", "basis": "\x00"},
    {"pid": "p2", "basis": "z" * 3000, "version": "0"},
    {"hit_": "1", "hit_\x00": "2", "hit_p2": ["1", "2"], "left": "1e3"},
    {"last": ["p2", "p3"], "hit_p2": "3", "left": "\x00"},
    {"deck": ["Lawman", "Drunk"]},
]


@pytest.mark.parametrize("data", ODD)
@pytest.mark.parametrize("action", ["choose", "random", "covert", "ready", "clock", "mat",
                                    "takeback", "uncovert"])  # fmt: skip
def test_odd_posts_never_give_a_server_error(
    gunfight: Gunfight, dealer: Any, player_a: Any, data: dict[str, Any], action: str
) -> None:
    url = reverse("gunfighter:move", args=[gunfight.campaign.slug, gunfight.pk, action])
    for user in (dealer, player_a):
        before = written(gunfight)
        answer = as_user(user).post(url, data, HTTP_HX_REQUEST="true")
        assert answer.status_code < 500, (user, answer.status_code)
        if answer.status_code != 200 or b"message--error" in answer.content:
            assert written(gunfight) == before
