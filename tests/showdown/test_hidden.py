"""SS15: a called bluff's bullet counts (and an event's counts) are on their owner's screen
only, until every count is in. Read across users from every way a screen leaves the server: the
page, its htmx panel, the shared table screen, the live stream's panel, the version poll and the
timeline. The test changes the hidden number and checks the others' screens do not change."""

from __future__ import annotations

import difflib
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from campaigns.models import Membership
from dustdevils.live.tables import Viewer
from showdown.models import Showdown
from tables.site import site
from tests.showdown.test_views import move

pytestmark = pytest.mark.django_db

# What differs between two renders anyway: fresh keys, CSRF tokens, the banner stream's time.
NOISE = re.compile(
    r'(name="(?:key|csrfmiddlewaretoken)" value=")[^"]*"|(X-CSRFToken": ")[^"]*"|(since=)\d+'
)


def screens(showdown: Showdown, users: dict[str, User]) -> dict[str, str]:
    """Everything each viewer's screens show, fresh keys and CSRF tokens blanked."""
    out = {}
    for name, user in users.items():
        client = Client()
        client.force_login(user)
        url = showdown.get_absolute_url()
        read = site.live("showdown").load(showdown.pk)
        assert read is not None
        parts = [
            client.get(url).content.decode(),
            client.get(url, HTTP_HX_REQUEST="true").content.decode(),
            client.get(url + "table/").content.decode(),
            client.get(url + "version/?v=0").content.decode(),
            *(
                site.live("showdown").panel(viewer, read) or ""
                for viewer in (
                    Viewer(user.pk, showdown.campaign.slug, showdown.pk, False, "t"),
                    Viewer(user.pk, showdown.campaign.slug, showdown.pk, True, "t"),
                )
            ),
        ]
        out[name] = NOISE.sub(lambda m: m.group(1) or m.group(2) or m.group(3), "\n".join(parts))
    return out


def changed(a: str, b: str) -> list[str]:
    return list(difflib.unified_diff(a.splitlines(), b.splitlines(), n=0))[2:6]


def with_hidden(showdown: Showdown, where: str, count: int) -> None:
    """Rewrite the one hidden number in the stored state."""
    showdown.refresh_from_db()
    state = dict(showdown.state)
    state[where] = dict(state[where], counts=[[pid, count] for pid, _ in state[where]["counts"]])
    Showdown.objects.filter(pk=showdown.pk).update(state=state)


@pytest.fixture
def watcher(campaign: Any, django_user_model: type[User]) -> User:
    user = django_user_model.objects.create_user("wyatt", first_name="Wyatt")
    Membership.objects.create(campaign=campaign, user=user, role=Membership.Role.PLAYER)
    return user


@pytest.mark.parametrize("kind", ["bluff", "event"])
def test_a_hidden_count_reaches_nobody_else_until_all_are_in(
    kind: str, showdown: Showdown, dealer: User, player_a: User, player_b: User, watcher: User
) -> None:
    phones = {}
    for pid, user in (("p1", dealer), ("p2", player_a), ("p3", player_b)):
        phones[pid] = Client()
        phones[pid].force_login(user)
    if kind == "bluff":  # Bess (p3) threatens Delia (p1), who calls it; Bess counts first
        move(phones["p3"], showdown, "threaten", target="p1", pistol="red")
        move(phones["p1"], showdown, "bluff")
        move(phones["p3"], showdown, "bullets", count=3)
    else:  # rain of bullets: Bess counts first
        move(phones["p1"], showdown, "reveal", event="rain", drawer="p3")
        move(phones["p3"], showdown, "count", count=3)
    owner, others = player_b, {"host": dealer, "abe": player_a, "watcher": watcher}
    before = screens(showdown, others)
    own = screens(showdown, {"bess": owner})["bess"]
    assert "You entered 3." in own
    with_hidden(showdown, kind, 8)
    after = screens(showdown, others)
    for name in others:  # the number moved nothing on their screens
        assert after[name] == before[name], changed(before[name], after[name])
    assert "You entered 8." in screens(showdown, {"bess": owner})["bess"]
    assert all("entered 3" not in page and "entered 8" not in page for page in before.values())
    lines = " ".join(showdown.lines.values_list("text", flat=True))
    assert " 8" not in lines
    assert "Bess has entered their count." in lines
