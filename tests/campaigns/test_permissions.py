"""The permission matrix: every URL of the campaign and account pages, for each of the cast.

The rule, the same everywhere:
- anonymous visitors are redirected to the login page (302 to /accounts/login/?next=...) from
  every page that needs an account, campaign pages included, before any lookup: the redirect
  is the same whether the campaign exists or not, so it tells nothing. The exceptions are the
  public pages (home, login, sign up) and /join/<token>/, which explains the invitation first;
- logged-in people who do not sit at the campaign get 404 (it might as well not exist);
- players trying a Dealer action get 403 with a plain message (DealerOnly, R21's
  NotYourCharacter);
- POST actions answer with a redirect (post/redirect/get), except the new invitation link,
  shown in the response itself because it is never stored (200).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from campaigns.models import Invite, Membership

ROLES = ("dealer", "player_a", "player_b", "outsider", "anonymous")
LOGIN = "/accounts/login/"


@dataclass(frozen=True)
class Case:
    name: str
    method: str
    path: Callable[[dict[str, Any]], str]
    # Expected status for dealer, player_a, player_b, outsider, anonymous.
    expect: tuple[int, int, int, int, int]
    data: Callable[[dict[str, Any]], dict[str, Any]] = field(default=lambda t: {})


def c(name: str, *args: Callable[[dict[str, Any]], Any]) -> Callable[[dict[str, Any]], str]:
    """The path of ``campaigns:<name>`` for the table, with extra args taken from it."""
    return lambda t: reverse(f"campaigns:{name}", args=[t["slug"], *(a(t) for a in args)])


PAGE = (200, 200, 200, 404, 302)
DEALER_PAGE = (200, 403, 403, 404, 302)
DEALER_ACTION = (302, 403, 403, 404, 302)

CASES = [
    # Pages every member may see.
    Case("campaign page", "GET", c("detail"), PAGE),
    Case("members", "GET", c("members"), PAGE),
    Case("session", "GET", c("session", lambda t: 1), PAGE),
    # Dealer pages.
    Case("invitations", "GET", c("invites"), DEALER_PAGE),
    Case("note edit form", "GET", c("note_edit", lambda t: t["note"].pk), DEALER_PAGE),
    Case("link edit form", "GET", c("wanted_edit", lambda t: t["link"].pk), DEALER_PAGE),
    Case("remove: confirm", "GET", c("member_remove", lambda t: t["seat_b"].pk), DEALER_PAGE),
    Case("hand over: confirm", "GET", c("dealer_hand_over", lambda t: t["seat_b"].pk), DEALER_PAGE),
    # Dealer actions.
    Case(
        "add a note",
        "POST",
        c("note_create"),
        DEALER_ACTION,
        lambda t: {"title": "T", "body": ""},
    ),
    Case(
        "edit a note",
        "POST",
        c("note_edit", lambda t: t["note"].pk),
        DEALER_ACTION,
        lambda t: {"title": "T", "body": ""},
    ),
    Case("delete a note", "POST", c("note_delete", lambda t: t["note"].pk), DEALER_ACTION),
    Case(
        "move a note",
        "POST",
        c("note_move", lambda t: t["note"].pk),
        DEALER_ACTION,
        lambda t: {"direction": "up"},
    ),
    Case(
        "add a link",
        "POST",
        c("wanted_create"),
        DEALER_ACTION,
        lambda t: {"npc": t["npc"].pk, "pc": t["pc_b"].pk},
    ),
    Case(
        "edit a link",
        "POST",
        c("wanted_edit", lambda t: t["link"].pk),
        DEALER_ACTION,
        lambda t: {"npc": t["npc"].pk, "pc": t["pc_a"].pk},
    ),
    Case("delete a link", "POST", c("wanted_delete", lambda t: t["link"].pk), DEALER_ACTION),
    Case("plan a session", "POST", c("session_plan"), DEALER_ACTION, lambda t: {"date": ""}),
    Case(
        "make an invitation",
        "POST",
        c("invite_create"),
        (200, 403, 403, 404, 302),
        lambda t: {"label": "x"},
    ),
    Case("revoke", "POST", c("invite_revoke", lambda t: t["invite"].pk), DEALER_ACTION),
    Case("remove a player", "POST", c("member_remove", lambda t: t["seat_b"].pk), DEALER_ACTION),
    Case("hand over", "POST", c("dealer_hand_over", lambda t: t["seat_b"].pk), DEALER_ACTION),
    # R21: a player sets their own character's Devil rating; the Dealer anyone's.
    Case(
        "rate pc_a's Devil",
        "POST",
        c("devil_rating", lambda t: 1),
        (302, 302, 403, 404, 302),
        lambda t: {"character": t["pc_a"].pk, "rating": 2},
    ),
    Case(
        "rate the NPC's Devil",
        "POST",
        c("devil_rating", lambda t: 1),
        (302, 403, 403, 404, 302),
        lambda t: {"character": t["npc"].pk, "rating": 2},
    ),
    # A campaign that does not exist looks just like one you do not sit at.
    Case("no such campaign", "GET", lambda t: "/c/no-such-place/", (404, 404, 404, 404, 302)),
    Case(
        "no such campaign: action",
        "POST",
        lambda t: "/c/no-such-place/notes/new/",
        (404, 404, 404, 404, 302),
    ),
    # Outside any campaign.
    Case("home", "GET", lambda t: "/", (200, 200, 200, 200, 200)),
    Case(
        "new campaign", "POST", lambda t: "/campaigns/new/", (302,) * 5, lambda t: {"name": "New"}
    ),
    Case("invitation", "GET", lambda t: f"/join/{t['token']}/", (200, 200, 200, 200, 200)),
    Case("take the seat", "POST", lambda t: f"/join/{t['token']}/", (302,) * 5),
    Case("sign up", "GET", lambda t: "/accounts/signup/", (302, 302, 302, 302, 200)),
    Case("log in", "GET", lambda t: LOGIN, (302, 302, 302, 302, 200)),
    Case("change password", "GET", lambda t: "/accounts/password/", (200, 200, 200, 200, 302)),
]


@pytest.fixture
def table(
    campaign: Any, pc_a: Any, pc_b: Any, npc: Any, note: Any, link: Any, session_1: Any
) -> dict[str, Any]:
    from campaigns.services import invite_create

    invite, token = invite_create(campaign=campaign, actor=None)  # type: ignore[arg-type]
    return {
        "slug": campaign.slug,
        "pc_a": pc_a,
        "pc_b": pc_b,
        "npc": npc,
        "note": note,
        "link": link,
        "invite": invite,
        "token": token,
        "seat_b": Membership.objects.get(campaign=campaign, user__username="player_b"),
    }


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_it_answers_each_of_the_cast_as_the_rule_says(
    case: Case,
    role: str,
    table: dict[str, Any],
    client: Client,
    request: pytest.FixtureRequest,
) -> None:
    if role != "anonymous":
        client.force_login(request.getfixturevalue(role))
    path = case.path(table)
    response = client.get(path) if case.method == "GET" else client.post(path, case.data(table))
    expected = case.expect[ROLES.index(role)]
    assert response.status_code == expected, f"{case.method} {path} as {role}"
    location = response.get("Location", "")
    if role == "anonymous" and expected == 302:
        assert location.startswith(f"{LOGIN}?next="), location
    elif expected == 302:
        assert not location.startswith(LOGIN), location
    if expected == 403:
        assert "Only the Dealer can" in response.content.decode() or (
            "is not your character" in response.content.decode()
        )


def test_it_says_in_plain_words_what_only_the_dealer_may_do(
    client_as: Callable[[Any], Client], table: dict[str, Any], player_a: Any
) -> None:
    response = client_as(player_a).get(reverse("campaigns:invites", args=[table["slug"]]))
    html = response.content.decode()
    assert response.status_code == 403
    assert "Only the Dealer can see the invitations." in html
    assert "Nothing was changed." in html
    assert 'class="topbar"' in html  # the house style, not a bare error page


def test_it_changes_nothing_when_refusing(
    client_as: Callable[[Any], Client], table: dict[str, Any], player_a: Any
) -> None:
    client = client_as(player_a)
    client.post(reverse("campaigns:invite_revoke", args=[table["slug"], table["invite"].pk]))
    client.post(reverse("campaigns:member_remove", args=[table["slug"], table["seat_b"].pk]))
    assert Invite.objects.get(pk=table["invite"].pk).status == "open"
    assert Membership.objects.filter(pk=table["seat_b"].pk).exists()


def test_it_shows_a_plain_not_found_page(
    client_as: Callable[[Any], Client], table: dict[str, Any], outsider: Any
) -> None:
    response = client_as(outsider).get(f"/c/{table['slug']}/")
    html = response.content.decode()
    assert response.status_code == 404
    assert "Nothing here but tumbleweed" in html
    assert "Dry Gulch" not in html


def test_it_refuses_get_on_actions(
    client_as: Callable[[Any], Client], table: dict[str, Any], dealer: Any
) -> None:
    path = reverse("campaigns:note_delete", args=[table["slug"], table["note"].pk])
    assert client_as(dealer).get(path).status_code == 405
