"""The permission matrix: every conflicts URL × {dealer, player_a, player_b, outsider,
anonymous}. Non-members get 404 (they must not learn the campaign exists), anonymous visitors
are sent to log in, players get 403 at a Dealer's move, and the Rulings page is public."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from conflicts.forms import ACTIONS
from conflicts.models import Conflict
from conflicts.services import HandSpec, conflict_create, pid_of
from tests.conflicts.test_views import Table, quick_odds

pytestmark = pytest.mark.django_db
__all__ = ["quick_odds"]

WHO = ("dealer", "player_a", "player_b", "outsider", "anonymous")


@pytest.fixture
def drawing(client: Client, campaign: Any, dealer: User, pc_a: Any) -> Table:
    """Abe alone against a 5-card stud, cards dealt; Bess's player is at the table but not in
    this conflict."""
    conflict = conflict_create(
        campaign=campaign,
        actor=dealer,
        title="Ambush",
        hands=[HandSpec(character=pc_a), HandSpec(stud_size=5)],
    )
    table = Table(client, conflict)
    table.ok(dealer, "approve", pid=pid_of(pc_a), attributes=["hand", "eye"], devil=0)
    table.ok(dealer, "deal")
    return table


def users(request: pytest.FixtureRequest) -> dict[str, User | None]:
    return {n: None if n == "anonymous" else request.getfixturevalue(n) for n in WHO}


def expect(table: Table, user: User | None, method: str, url: str, **data: Any) -> int:
    client = table.as_user(user)
    response = client.post(url, data) if method == "POST" else client.get(url, data)
    if response.status_code == 302 and user is None:
        assert response["Location"].startswith("/accounts/login/")
        return 401  # "log in first"
    return response.status_code


# Expected status for dealer, player_a, player_b, outsider, anonymous (401: sent to log in).
GETS = {
    "list": ("{base}", (200, 200, 200, 404, 401)),
    "new": ("{base}new/", (200, 403, 403, 404, 401)),
    "detail": ("{one}", (200, 200, 200, 404, 401)),
    "table": ("{one}table/", (200, 200, 200, 404, 401)),
    "version": ("{one}version/", (200, 200, 200, 404, 401)),
    "advice": ("{one}advice/?pid={pid}", (404, 200, 404, 404, 401)),
}


@pytest.mark.parametrize("name", list(GETS))
def test_it_guards_every_page_R10(
    drawing: Table, request: pytest.FixtureRequest, pc_a: Any, name: str
) -> None:
    template, expected = GETS[name]
    base = f"/c/{drawing.conflict.campaign.slug}/conflicts/"
    url = template.format(base=base, one=drawing.url, pid=pid_of(pc_a))
    got = tuple(expect(drawing, user, "GET", url) for user in users(request).values())
    assert got == expected


@pytest.mark.parametrize("action", sorted(ACTIONS))
def test_it_guards_every_move(
    drawing: Table, request: pytest.FixtureRequest, pc_a: Any, action: str
) -> None:
    dealer_only = ACTIONS[action].dealer_only()
    got = []
    # The Dealer's moves that need no hand and are legal at the Draw: folding the conflict.
    # A plain Call is refused while hands have not drawn (R13: "call now" is its own choice).
    legal_now = {"dealer-fold"}
    for name, user in users(request).items():
        before = drawing.version
        got.append(
            expect(drawing, user, "POST", drawing.move_url(action), version=before, pid="nobody")
        )
        accepted = name == "dealer" and action in legal_now
        assert drawing.version == before + accepted  # a refused move changes nothing
    # Members' moves end in post/redirect/get (the message says what the rules refused).
    assert got == ([302, 403, 403, 404, 401] if dealer_only else [302, 302, 302, 404, 401])


def test_it_guards_deal_again_and_the_new_conflict_form(
    drawing: Table, request: pytest.FixtureRequest
) -> None:
    base = f"/c/{drawing.conflict.campaign.slug}/conflicts/"
    again = [expect(drawing, u, "POST", f"{drawing.url}again/") for u in users(request).values()]
    new = [expect(drawing, u, "POST", f"{base}new/", title="x") for u in users(request).values()]
    assert again == [302, 403, 403, 404, 401]
    assert new == [200, 403, 403, 404, 401]  # the Dealer's form comes back with its errors
    assert Conflict.objects.count() == 1


def test_it_shows_the_rulings_to_everyone(drawing: Table, request: pytest.FixtureRequest) -> None:
    assert [expect(drawing, u, "GET", "/rulings/") for u in users(request).values()] == [200] * 5


def test_it_hides_another_campaigns_conflict(
    drawing: Table, client: Client, django_user_model: type[User]
) -> None:
    from campaigns.services import campaign_create

    other_dealer = django_user_model.objects.create_user("other", password="x-long-password-1")
    other = campaign_create(dealer=other_dealer, name="Elsewhere", setting="")
    client.force_login(other_dealer)
    assert client.get(f"/c/{other.slug}/conflicts/{drawing.conflict.pk}/").status_code == 404
    assert client.get(f"/c/{other.slug}/conflicts/{drawing.conflict.pk}/table/").status_code == 404
    response = client.post(f"/c/{other.slug}/conflicts/{drawing.conflict.pk}/move/call/", {})
    assert response.status_code == 404
