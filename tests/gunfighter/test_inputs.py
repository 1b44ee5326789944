"""Whatever a form sends, The Gunfighter answers in plain words and never with a server error:
numbers that are no numbers, NUL characters, thousands of digits, ids of nobody."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from gunfighter.models import Gunfight
from tests.gunfighter.test_views import as_user, set_all, tap, written

pytestmark = pytest.mark.django_db

ODD = ["", "\x00", "9" * 500, "-1", "abc", "1.5", "p1\x00", " 2 "]


@pytest.mark.parametrize("value", ODD)
def test_a_mat_with_odd_numbers_is_refused_or_read(
    gunfight: Gunfight, dealer: Any, player_a: Any, player_b: Any, value: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    now = [1_800_000_000_000]
    monkeypatch.setattr("tables.clock.now_ms", lambda: now[0])
    set_all(gunfight, dealer, player_a, player_b)
    tap(as_user(dealer), gunfight, "clock")
    now[0] += 20_000
    before = written(gunfight)
    for field in ("hit_p2", "left", "last", f"hit_{value}"):
        answer = tap(as_user(dealer), gunfight, "mat", **{field: value})
        assert answer.status_code == 200, field
        if b"message--error" in answer.content:
            assert written(gunfight) == before
        else:
            break  # read as a plain mat (a blank or a whole number): the next tests' business


@pytest.mark.parametrize("value", ODD)
def test_odd_choices_and_new_games_are_refused_in_plain_words(
    campaign: Any, gunfight: Gunfight, dealer: Any, value: str
) -> None:
    client: Client = as_user(dealer)
    before = written(gunfight)
    answer = tap(client, gunfight, "choose", deck=value)
    assert answer.status_code == 200
    assert written(gunfight) == before
    for data in ({"player": [value, dealer.pk]}, {"player": [dealer.pk], "western": value}):
        made = client.post(reverse("gunfighter:new", args=[campaign.slug]), data)
        assert made.status_code < 500
    assert tap(client, gunfight, "nonsense").status_code == 404
