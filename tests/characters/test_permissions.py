"""Who may do what: every character URL × the cast (dealer, player_a, player_b, outsider,
anonymous). Outsiders get 404 (they should not learn the campaign exists), anonymous visitors
go to the login page, and players get 403 on other people's sheets and chips and on the
Dealer's own actions. Abe Slade (pc_a) is player_a's; Mayor Crane (npc) is the Dealer's."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from characters.models import Character
from tests.characters.conftest import post_data

WHO = ("dealer", "player_a", "player_b", "outsider", "anonymous")

ABE = {
    "name": "Abe Slade", "vocation": "Drifter", "hand": 4, "eye": 3, "guts": 3, "heart": 3,
    "trait_1": "Quick as a rattler", "trait_2": "Stubborn as a mule",
    "devil": "Ran from the war and never stopped running.", "devil_rating": 2,
    "knacks": {"Shootin'": 4, "Ridin'": 3, "Drinkin'": 2, "Gamblin'": 2},
}  # fmt: skip
CRANE = {
    "name": "Mayor Crane", "hand": 2, "eye": 3, "guts": 2, "heart": 4,
    "devil": "Owns the town and fears losing it.", "devil_rating": 3,
    "knacks": {"Politickin'": 3},
}  # fmt: skip


def body(route: str, target: str, fixtures: dict[str, Any]) -> dict[str, Any]:
    """A valid POST body for each action, so a permitted request succeeds (302)."""
    if route == "improve_attribute":
        return {"attribute": "heart"}
    if route == "improve_knack":
        return {"knack": fixtures[target].knacks.order_by("rating").first().pk}
    if route == "buy_knack":
        return {"name": "Ropin'"}
    if route == "grant":
        return {"amount": 2, "reason": "grant", "note": "reward"}
    if route == "edit":
        return post_data(ABE if target == "pc_a" else CRANE)
    if route == "leave_play":
        return {"fate": "dies", "epitaph": "Gone to glory."}
    return post_data(ABE, kind="pc")  # check, check_existing


# (url name, method, target character or None) → expected status for each of WHO.
MATRIX = [
    ("list", "get", None, (200, 200, 200, 404, 302)),
    ("create", "get", None, (200, 200, 200, 404, 302)),
    ("create_npc", "get", None, (200, 403, 403, 404, 302)),
    ("check", "post", None, (200, 200, 200, 404, 302)),
    ("sheet", "get", "pc_a", (200, 200, 200, 404, 302)),
    ("sheet", "get", "npc", (200, 200, 200, 404, 302)),
    ("edit", "get", "pc_a", (200, 200, 403, 404, 302)),
    ("edit", "post", "pc_a", (302, 302, 403, 404, 302)),
    ("edit", "get", "npc", (200, 403, 403, 404, 302)),
    ("edit", "post", "npc", (302, 403, 403, 404, 302)),
    ("check_existing", "post", "pc_a", (200, 200, 403, 404, 302)),
    ("check_existing", "post", "npc", (200, 403, 403, 404, 302)),
    ("chips", "get", "pc_a", (200, 200, 200, 404, 302)),
    ("chips", "get", "npc", (200, 403, 403, 404, 302)),
    ("improve_attribute", "post", "pc_a", (403, 302, 403, 404, 302)),
    ("improve_knack", "post", "pc_a", (403, 302, 403, 404, 302)),
    ("buy_knack", "post", "pc_a", (403, 302, 403, 404, 302)),
    ("improve_attribute", "post", "npc", (403, 403, 403, 404, 302)),
    ("improve_knack", "post", "npc", (403, 403, 403, 404, 302)),
    ("buy_knack", "post", "npc", (403, 403, 403, 404, 302)),
    ("grant", "post", "pc_a", (302, 403, 403, 404, 302)),
    ("grant", "post", "npc", (302, 403, 403, 404, 302)),
    ("leave_play", "get", "pc_a", (200, 200, 403, 404, 302)),
    ("leave_play", "post", "pc_a", (302, 302, 403, 404, 302)),
    ("leave_play", "get", "npc", (200, 403, 403, 404, 302)),
]
CASES = [
    pytest.param(route, method, target, who, status, id=f"{method}-{route}-{target}-{who}")
    for route, method, target, statuses in MATRIX
    for who, status in zip(WHO, statuses, strict=True)
]


@pytest.fixture
def table(
    campaign: Any, pc_a: Any, npc: Any, dealer: User, player_a: User, player_b: User,
    outsider: User,
) -> dict[str, Any]:  # fmt: skip
    """The table, with Abe rich enough to buy anything and on the Road to Hell (Guts at 0), so
    every permitted action succeeds and every refused one is refused for *who* asks."""
    from characters.services import chips_grant

    chips_grant(character_id=pc_a.pk, amount=20, actor=None)
    Character.objects.filter(pk__in=[pc_a.pk, npc.pk]).update(guts_current=0)
    return {"campaign": campaign, "pc_a": pc_a, "npc": npc, "dealer": dealer,
            "player_a": player_a, "player_b": player_b, "outsider": outsider}  # fmt: skip


@pytest.mark.parametrize(("route", "method", "target", "who", "status"), CASES)
def test_it_answers_each_member_as_the_table_rules_say(
    client: Client, table: dict[str, Any], route: str, method: str, target: str | None,
    who: str, status: int,
) -> None:  # fmt: skip
    slug = table["campaign"].slug
    args = [slug] if target is None else [slug, table[target].pk]
    url = reverse(f"characters:{route}", args=args)
    if who != "anonymous":
        client.force_login(table[who])
    before = _state(table)
    if method == "get":
        response = client.get(url)
    else:
        response = client.post(url, body(route, target or "", table))
    assert response.status_code == status, response.content.decode()[:500]
    if who == "anonymous":
        assert response["Location"].startswith(reverse("login") + "?next=")
    if status in (403, 404) or who == "anonymous":
        assert _state(table) == before  # a refusal changes nothing


def _state(table: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [
        (c.name, c.heart, c.chips, c.out_of_play, c.knacks.count(), c.chip_entries.count())
        for c in Character.objects.order_by("pk")
    ]


def test_it_hides_another_campaigns_character_from_the_dealer(
    client: Client, table: dict[str, Any], outsider: User
) -> None:
    """Character ids are scoped by campaign: the Dealer of Dry Gulch gets 404 for a
    character of a campaign they don't sit at, even through Dry Gulch's URLs."""
    from campaigns.services import campaign_create
    from characters.services import character_create

    other = campaign_create(dealer=outsider, name="Last Oak")
    stranger = character_create(
        campaign=other, kind="npc", player=None, data={"name": "Stranger"}, knacks={}
    )
    client.force_login(table["dealer"])
    for route in ("sheet", "edit", "chips"):
        assert (
            client.get(reverse(f"characters:{route}", args=["dry-gulch", stranger.pk])).status_code
            == 404
        )
    assert (
        client.get(reverse("characters:sheet", args=["last-oak", stranger.pk])).status_code == 404
    )


def test_it_refuses_gets_on_post_only_actions(client: Client, table: dict[str, Any]) -> None:
    client.force_login(table["player_a"])
    for route in ("improve_attribute", "improve_knack", "buy_knack", "grant"):
        url = reverse(f"characters:{route}", args=["dry-gulch", table["pc_a"].pk])
        assert client.get(url).status_code == 405


def test_it_requires_the_csrf_token(table: dict[str, Any]) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(table["player_a"])
    url = reverse("characters:buy_knack", args=["dry-gulch", table["pc_a"].pk])
    assert client.post(url, {"name": "Ropin'"}).status_code == 403
