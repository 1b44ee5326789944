"""A table's dead ends, through the pages: a phone that is gone (the host acts for it, GF12)
and a mat entered wrong (taken back, GF11)."""

from __future__ import annotations

from typing import Any

import pytest

from campaigns.models import Campaign
from gunfighter.engine import state as s
from gunfighter.models import Gunfight, GunfightLine
from tests.gunfighter.conftest import state_of
from tests.gunfighter.test_views import as_user, no_covert, set_all, tap, written
from tests.kit import new_game

pytestmark = pytest.mark.django_db


def test_the_host_acts_for_a_gunfighter_whose_phone_is_gone(
    gunfight: Gunfight, dealer: Any, player_a: Any, player_b: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    """GF12: Abe's phone died: Delia (the host) sets his bandolier and enters his mat; the
    timeline says she did."""
    now = [1_800_000_000_000]
    monkeypatch.setattr("tables.clock.now_ms", lambda: now[0])
    page = as_user(dealer).get(gunfight.get_absolute_url()).content.decode()
    assert 'data-proxy-for="p2"' in page
    assert "Abe&rsquo;s bandolier is set" in page
    assert "data-proxy" not in as_user(player_a).get(gunfight.get_absolute_url()).content.decode()
    set_all(gunfight, dealer, player_b)
    tap(as_user(dealer), gunfight, "ready", pid="p2")
    assert state_of(gunfight).gunfighter("p2").ready
    line = GunfightLine.objects.filter(gunfight=gunfight).order_by("-seq")[1]
    assert line.text == "Delia acts for Abe, whose phone is away."
    no_covert(gunfight, dealer, player_b)
    tap(as_user(dealer), gunfight, "nocovert", pid="p2")  # R38, for Abe
    tap(as_user(dealer), gunfight, "clock")
    now[0] += 20_000
    tap(as_user(dealer), gunfight, "mat")
    page = as_user(dealer).get(gunfight.get_absolute_url()).content.decode()
    assert 'class="act act--mat proxy-mat"' in page
    tap(as_user(dealer), gunfight, "mat", pid="p2", hit_p3="1")
    assert state_of(gunfight).gunfighter("p2").lives == 2


def test_a_host_who_does_not_play_can_still_run_the_table(
    campaign: Campaign, dealer: Any, player_a: Any, player_b: Any
) -> None:
    """GF12: a host watching is not seated, and can still act for a phone that is gone."""
    gunfight = new_game("gunfighter", campaign=campaign, actor=dealer, players=[player_a, player_b])
    set_all(gunfight, player_a)
    answer = tap(as_user(dealer), gunfight, "ready", pid="p2")
    assert b"Delia acts for Bess" in answer.content
    assert state_of(gunfight).phase == s.Phase.PREPARE
    no_covert(gunfight, player_a)
    tap(as_user(dealer), gunfight, "nocovert", pid="p2")
    page = as_user(dealer).get(gunfight.get_absolute_url()).content
    assert page.count(b">Start the clock</button>") == 1
    tap(as_user(dealer), gunfight, "clock", pid="p1")
    assert state_of(gunfight).phase == s.Phase.SHOWDOWN


def test_a_covert_card_tapped_by_mistake_is_taken_back_on_the_phone(
    gunfight: Gunfight, dealer: Any, player_a: Any, player_b: Any
) -> None:
    """GF11: before the clock, the count is put right."""
    set_all(gunfight, dealer, player_a, player_b)
    played = tap(as_user(dealer), gunfight, "covert")
    assert b"Tapped by mistake: take it back" in played.content
    back = tap(as_user(dealer), gunfight, "uncovert")
    assert b"Delia takes their covert card back (5 in hand)." in back.content
    assert state_of(gunfight).covert_discard == 0


def test_a_mat_entered_wrong_is_taken_back_on_the_phone(
    gunfight: Gunfight, dealer: Any, player_a: Any, player_b: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    """GF11: Delia typed 3 for 1 and fell; she takes it back and enters it again."""
    now = [1_800_000_000_000]
    monkeypatch.setattr("tables.clock.now_ms", lambda: now[0])
    set_all(gunfight, dealer, player_a, player_b)
    no_covert(gunfight, dealer, player_a, player_b)
    tap(as_user(dealer), gunfight, "clock")
    now[0] += 20_000
    wrong = tap(as_user(dealer), gunfight, "mat", hit_p2="3")
    assert b"I entered my mat wrong" in wrong.content
    assert state_of(gunfight).gunfighter("p1").lives == 0
    assert tap(as_user(player_a), gunfight, "takeback").content.count(b"Nothing of Abe") == 1
    back = tap(as_user(dealer), gunfight, "takeback")
    assert b"Delia takes back their mat: it is reviewed again." in back.content
    state = state_of(gunfight)
    assert state.gunfighter("p1").standing
    assert state.gunfighter("p2").covert == 5
    tap(as_user(dealer), gunfight, "mat", hit_p2="1")
    assert state_of(gunfight).gunfighter("p1").lives == 2


def test_r38_the_host_starts_the_clock_anyway_for_a_quiet_phone_and_only_the_host(
    gunfight: Gunfight, dealer: Any, player_a: Any, player_b: Any
) -> None:
    """R38: the clock waits for every covert card or "no covert card"; Abe's phone has gone
    quiet: the host starts it anyway (a button among the host's), and the timeline says so.
    A gunfighter cannot."""
    set_all(gunfight, dealer, player_a, player_b)
    no_covert(gunfight, dealer, player_b)
    waiting = tap(as_user(dealer), gunfight, "clock")
    assert b"waiting for Abe to play a covert card or say" in waiting.content
    page = as_user(dealer).get(gunfight.get_absolute_url()).content.decode()
    assert "Start the clock anyway: Abe has gone quiet" in page
    assert "clock-anyway" not in as_user(player_a).get(gunfight.get_absolute_url()).content.decode()
    before = written(gunfight)
    assert tap(as_user(player_b), gunfight, "clock-anyway").status_code == 403
    assert tap(as_user(player_a), gunfight, "clock-anyway").status_code == 403
    assert written(gunfight) == before
    started = tap(as_user(dealer), gunfight, "clock-anyway", pid="p2")
    assert b"The host starts the clock without waiting for Abe&#x27;s covert card" in (
        started.content
    )
    assert state_of(gunfight).phase == s.Phase.SHOWDOWN
