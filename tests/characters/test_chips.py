"""R15 spending outside conflicts, R29 current values, and the ledger, through the services and
through the chips page (plain POST with post/redirect/get, and htmx partials)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from characters.models import Character, ChipEntry, Knack
from characters.selectors import purchases
from characters.services import (
    CharacterError,
    NotEnoughChips,
    attribute_improve,
    chip_totals,
    chips_change,
    chips_grant,
    knack_buy,
    knack_improve,
)
from tests.characters.conftest import text_of

ClientAs = Callable[[Any], Client]
HTMX = {"HX-Request": "true"}


def url(name: str, character: Any) -> str:
    return reverse(f"characters:{name}", args=[character.campaign.slug, character.pk])


def snapshot(character: Any) -> tuple[Any, ...]:
    """Everything a refused purchase must leave alone."""
    fresh = Character.objects.get(pk=character.pk)
    return (
        fresh.chips,
        tuple(fresh.rating(a) for a in ("hand", "eye", "guts", "heart")),
        tuple(fresh.current(a) for a in ("hand", "eye", "guts", "heart")),
        tuple(fresh.knacks.values_list("name", "rating")),
        tuple(fresh.chip_entries.values_list("amount", "balance_after")),
    )


def knack(character: Any, name: str) -> Knack:
    return character.knacks.get(name=name)


# --- The costs, exactly as ruled (R15) -----------------------------------------------------


@pytest.mark.parametrize(("attribute", "cost"), [("hand", 10), ("eye", 8), ("heart", 8)])
def test_it_charges_twice_the_new_rating_for_an_attribute_R15(
    rich_pc_a: Any, player_a: User, attribute: str, cost: int
) -> None:
    """Abe: Hand 4 → 5 costs 10; Eye 3 → 4 and Heart 3 → 4 cost 8."""
    before = rich_pc_a.rating(attribute)
    done = attribute_improve(character_id=rich_pc_a.pk, attribute=attribute, actor=player_a)
    assert done.rating(attribute) == before + 1
    assert done.chips == 30 - cost
    entry = done.chip_entries.last()
    assert (entry.amount, entry.reason, entry.balance_after) == (
        -cost,
        "improve_attribute",
        30 - cost,
    )
    assert entry.actor == player_a


def test_it_raises_the_current_value_with_the_rating_R29(rich_pc_a: Any, player_a: User) -> None:
    """Abe has taken 2 Difficulty in Eye (3, now 1): buying Eye 4 makes it 4, now 2."""
    Character.objects.filter(pk=rich_pc_a.pk).update(eye_current=1)
    done = attribute_improve(character_id=rich_pc_a.pk, attribute="eye", actor=player_a)
    assert (done.eye, done.eye_current) == (4, 2)


@pytest.mark.parametrize(("name", "cost"), [("Ridin'", 4), ("Drinkin'", 3), ("Gamblin'", 3)])
def test_it_charges_the_new_rating_for_a_knack_R15(
    rich_pc_a: Any, player_a: User, name: str, cost: int
) -> None:
    before = knack(rich_pc_a, name).rating
    done = knack_improve(knack_id=knack(rich_pc_a, name).pk, actor=player_a)
    assert done.rating == before + 1
    rich_pc_a.refresh_from_db()
    assert rich_pc_a.chips == 30 - cost


def test_it_sells_a_new_knack_at_1_for_two_chips_R15(pc_a: Any, player_a: User) -> None:
    new = knack_buy(character_id=pc_a.pk, name="  Ropin'  ", actor=player_a)
    pc_a.refresh_from_db()
    assert (new.name, new.rating, pc_a.chips) == ("Ropin'", 1, 1)
    assert pc_a.chip_entries.last().reason == "new_knack"


def test_it_climbs_an_attribute_from_1_to_5_for_28_chips_R15(pc_a: Any, player_a: User) -> None:
    """2 + 4 + ... : 1 → 2 costs 4, → 3 costs 6, → 4 costs 8, → 5 costs 10."""
    Character.objects.filter(pk=pc_a.pk).update(heart=1, heart_current=1)
    chips_grant(character_id=pc_a.pk, amount=25, actor=None)
    for _ in range(4):
        attribute_improve(character_id=pc_a.pk, attribute="heart", actor=player_a)
    pc_a.refresh_from_db()
    assert (pc_a.heart, pc_a.chips) == (5, 0)


# --- Refusals: a plain message, and nothing changes (R15) ----------------------------------


def test_it_refuses_an_attribute_without_enough_chips_R15(pc_a: Any, player_a: User) -> None:
    before = snapshot(pc_a)
    with pytest.raises(NotEnoughChips, match="Abe Slade has 3 chips; this costs 8"):
        attribute_improve(character_id=pc_a.pk, attribute="guts", actor=player_a)
    assert snapshot(pc_a) == before


def test_it_refuses_an_attribute_at_5_R15(rich_pc_a: Any, player_a: User) -> None:
    Character.objects.filter(pk=rich_pc_a.pk).update(hand=5, hand_current=5, guts=2, guts_current=2)
    before = snapshot(rich_pc_a)
    with pytest.raises(CharacterError, match="Hand is already 5, the highest"):
        attribute_improve(character_id=rich_pc_a.pk, attribute="hand", actor=player_a)
    assert snapshot(rich_pc_a) == before


def test_it_refuses_a_knack_at_4_R15(rich_pc_a: Any, player_a: User) -> None:
    before = snapshot(rich_pc_a)
    with pytest.raises(CharacterError, match="Shootin' is already 4"):
        knack_improve(knack_id=knack(rich_pc_a, "Shootin'").pk, actor=player_a)
    assert snapshot(rich_pc_a) == before


def test_it_refuses_a_knack_without_enough_chips_R15(pc_a: Any, player_a: User) -> None:
    before = snapshot(pc_a)
    with pytest.raises(NotEnoughChips, match="this costs 4"):
        knack_improve(knack_id=knack(pc_a, "Ridin'").pk, actor=player_a)
    assert snapshot(pc_a) == before


def test_it_refuses_a_knack_past_the_limit_R15(rich_pc_a: Any, player_a: User) -> None:
    """Hand 4 + Eye 3: at most 7 knacks. Abe has 4; the 8th is refused."""
    for name in ("Ropin'", "Trackin'", "Lyin'"):
        knack_buy(character_id=rich_pc_a.pk, name=name, actor=player_a)
    before = snapshot(rich_pc_a)
    with pytest.raises(CharacterError, match="already has 7 knacks, the most allowed"):
        knack_buy(character_id=rich_pc_a.pk, name="Dancin'", actor=player_a)
    assert snapshot(rich_pc_a) == before


def test_it_refuses_a_knack_the_character_has_R15(rich_pc_a: Any, player_a: User) -> None:
    before = snapshot(rich_pc_a)
    with pytest.raises(CharacterError, match="already has shootin'"):
        knack_buy(character_id=rich_pc_a.pk, name="shootin'", actor=player_a)
    assert snapshot(rich_pc_a) == before


def test_it_refuses_spending_once_out_of_play_R17(rich_pc_a: Any, player_a: User) -> None:
    Character.objects.filter(pk=rich_pc_a.pk).update(out_of_play=True)
    before = snapshot(rich_pc_a)
    with pytest.raises(CharacterError, match="has left play"):
        attribute_improve(character_id=rich_pc_a.pk, attribute="eye", actor=player_a)
    assert snapshot(rich_pc_a) == before


# --- The ledger (R15) ---------------------------------------------------------------------


def test_it_totals_earned_and_spent_from_the_ledger_R15(rich_pc_a: Any, player_a: User) -> None:
    attribute_improve(character_id=rich_pc_a.pk, attribute="eye", actor=player_a)  # -8
    knack_buy(character_id=rich_pc_a.pk, name="Ropin'", actor=player_a)  # -2
    chips_grant(character_id=rich_pc_a.pk, amount=2, actor=None, reason="stakes")  # +2
    rich_pc_a.refresh_from_db()
    assert chip_totals(rich_pc_a) == {"current": 22, "earned": 32, "spent": 10}
    assert rich_pc_a.chips == 22
    balances = list(rich_pc_a.chip_entries.values_list("balance_after", flat=True))
    assert balances == [3, 30, 22, 20, 22]


def test_it_lists_every_ledger_row_on_the_page_R15(
    client_as: ClientAs, rich_pc_a: Any, player_a: User, dealer: User
) -> None:
    chips_grant(character_id=rich_pc_a.pk, amount=2, actor=dealer, note="Saved the preacher")
    attribute_improve(character_id=rich_pc_a.pk, attribute="eye", actor=player_a)
    words = text_of(client_as(player_a).get(url("chips", rich_pc_a)).content.decode())
    assert "Current total 24 Earned 32 Spent 8" in words
    assert "+2 Dealer's grant Saved the preacher dealer 32" in words
    assert "−8 Improved an attribute Eye 3 → 4 player_a 24" in words
    assert "+3 Dealer's grant Starting chips the table 3" in words


def test_it_shows_the_chip_totals_on_the_sheet_R15(
    client_as: ClientAs, rich_pc_a: Any, player_b: User
) -> None:
    knack_buy(character_id=rich_pc_a.pk, name="Ropin'", actor=None)
    words = text_of(client_as(player_b).get(rich_pc_a.get_absolute_url()).content.decode())
    assert "Current total 28 Chips earned 30 Chips spent 2" in words


# --- The buttons: costs shown, disabled with the reason -------------------------------------


def test_it_shows_each_cost_and_why_a_button_is_disabled_R15(pc_a: Any) -> None:
    """Abe, 3 chips: nothing but Drinkin' 2 → 3 (3 chips) and a new knack (2) is affordable."""
    Character.objects.filter(pk=pc_a.pk).update(hand=5, hand_current=5, guts=2, guts_current=2)
    pc_a.refresh_from_db()
    offers = purchases(pc_a)
    hand, eye, guts, _heart = offers.attributes
    assert (hand.allowed, hand.why_not) == (False, "Hand is at 5, the top.")
    assert (eye.label, eye.cost, eye.allowed) == ("Eye 3 → 4", 8, False)
    assert eye.why_not == "Needs 8 chips; Abe Slade has 3."
    assert (guts.label, guts.cost) == ("Guts 2 → 3", 6)
    by_label = {offer.label: offer for offer in offers.knacks}
    assert by_label["Shootin' 4"].why_not == "Shootin' is at 4, the top."
    assert by_label["Drinkin' 2 → 3"].allowed
    assert by_label["Ridin' 3 → 4"].why_not == "Needs 4 chips; Abe Slade has 3."
    assert (offers.new_knack.cost, offers.new_knack.allowed) == (2, True)


def test_it_renders_disabled_buttons_with_reasons(
    client_as: ClientAs, pc_a: Any, player_a: User
) -> None:
    html = client_as(player_a).get(url("chips", pc_a)).content.decode()
    eye_button = html.split('value="eye"', 1)[1].split("</form>", 1)[0]
    assert "disabled" in eye_button
    assert "8 chips" in eye_button
    assert "Needs 8 chips; Abe Slade has 3." in eye_button
    drinkin = html.split(">Drinkin&#x27; 2 → 3</span>", 1)[0].rsplit("<button", 1)[1]
    assert "disabled" not in drinkin


def test_it_says_the_knack_limit_is_reached_R15(rich_pc_a: Any, player_a: User) -> None:
    for name in ("Ropin'", "Trackin'", "Lyin'"):
        knack_buy(character_id=rich_pc_a.pk, name=name, actor=player_a)
    rich_pc_a.refresh_from_db()
    assert "has 7 knacks, the most allowed" in purchases(rich_pc_a).new_knack.why_not


# --- Through the views --------------------------------------------------------------------


def test_it_spends_with_post_redirect_get_R15(
    client_as: ClientAs, rich_pc_a: Any, player_a: User
) -> None:
    client = client_as(player_a)
    response = client.post(url("improve_attribute", rich_pc_a), {"attribute": "heart"})
    assert response.status_code == 302
    assert response["Location"] == url("chips", rich_pc_a)
    rich_pc_a.refresh_from_db()
    assert (rich_pc_a.heart, rich_pc_a.heart_current, rich_pc_a.chips) == (4, 4, 22)
    assert "Heart is now 4." in client.get(response["Location"]).content.decode()


def test_it_swaps_the_chips_section_for_htmx_R15(
    client_as: ClientAs, rich_pc_a: Any, player_a: User
) -> None:
    ridin = knack(rich_pc_a, "Ridin'")
    response = client_as(player_a).post(
        url("improve_knack", rich_pc_a), {"knack": ridin.pk}, headers=HTMX
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="chips-body"')
    assert "Ridin' is now 4." in text_of(html)
    assert "Current total 26" in text_of(html)


def test_it_buys_a_knack_through_the_page_R15(
    client_as: ClientAs, pc_a: Any, player_a: User
) -> None:
    client_as(player_a).post(url("buy_knack", pc_a), {"name": "Ropin'"})
    assert knack(pc_a, "Ropin'").rating == 1


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("improve_attribute", {"attribute": "eye"}, "Abe Slade has 3 chips; this costs 8."),
        ("improve_attribute", {"attribute": "luck"}, "Choose Hand, Eye, Guts or Heart."),
        ("improve_knack", {"knack": "Shootin'"}, "That knack is not on this sheet."),
        ("buy_knack", {"name": "Shootin'"}, "Abe Slade already has Shootin'."),
        ("buy_knack", {"name": ""}, "Name the new knack."),
    ],
)
@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_it_shows_a_refusal_and_changes_nothing_R15(
    client_as: ClientAs,
    pc_a: Any,
    player_a: User,
    name: str,
    data: dict[str, str],
    message: str,
    htmx: bool,
) -> None:
    before = snapshot(pc_a)
    response = client_as(player_a).post(url(name, pc_a), data, headers=HTMX if htmx else {})
    assert response.status_code == 200
    assert f"{message} Nothing changed." in text_of(response.content.decode())
    assert snapshot(pc_a) == before


def test_it_refuses_another_characters_knack_by_id_R15(
    client_as: ClientAs, rich_pc_a: Any, pc_b: Any, player_a: User
) -> None:
    """A knack id from Bess's sheet posted to Abe's page improves nothing."""
    chips_grant(character_id=pc_b.pk, amount=10, actor=None)
    bess_ridin = knack(pc_b, "Ridin'")
    client_as(player_a).post(url("improve_knack", rich_pc_a), {"knack": bess_ridin.pk})
    bess_ridin.refresh_from_db()
    assert bess_ridin.rating == 3
    assert Character.objects.get(pk=pc_b.pk).chips == 10


def test_it_lets_the_dealer_grant_chips_with_a_reason_R15(
    client_as: ClientAs, pc_a: Any, npc: Any, dealer: User
) -> None:
    client = client_as(dealer)
    data = {"amount": 2, "reason": "stakes", "note": "The bank job"}
    assert client.post(url("grant", pc_a), data).status_code == 302
    entry = ChipEntry.objects.filter(character=pc_a).last()
    assert (entry.amount, entry.reason, entry.note, entry.actor) == (
        2,
        "stakes",
        "The bank job",
        dealer,
    )
    assert entry.balance_after == 5
    client.post(url("grant", npc), {"amount": 1, "reason": "grant"}, headers=HTMX)
    assert Character.objects.get(pk=npc.pk).chips == 1  # any character


def test_it_refuses_a_bad_grant_R15(client_as: ClientAs, pc_a: Any, dealer: User) -> None:
    before = snapshot(pc_a)
    response = client_as(dealer).post(url("grant", pc_a), {"amount": 0, "reason": "grant"})
    assert "Grant at least one chip. Nothing changed." in text_of(response.content.decode())
    response = client_as(dealer).post(url("grant", pc_a), {"amount": 1, "reason": "fold"})
    assert "Nothing changed." in text_of(response.content.decode())
    assert snapshot(pc_a) == before


def test_it_offers_spending_only_to_the_characters_player_R15(
    client_as: ClientAs, pc_a: Any, dealer: User, player_b: User
) -> None:
    for viewer in (dealer, player_b):
        html = client_as(viewer).get(url("chips", pc_a)).content.decode()
        assert "Spend chips" not in html
        assert "The ledger" in html
    assert "Grant chips" in client_as(dealer).get(url("chips", pc_a)).content.decode()


def test_it_never_spends_below_zero_one_at_a_time_R15(pc_a: Any) -> None:
    results = []
    for _ in range(5):
        try:
            chips_change(character_id=pc_a.pk, amount=-1, reason="extra_card")
            results.append("spent")
        except NotEnoughChips:
            results.append("refused")
    assert results == ["spent"] * 3 + ["refused"] * 2
    assert Character.objects.get(pk=pc_a.pk).chips == 0


# --- A double click spends once (issue 19: the form's idempotency key) ----------------------


@pytest.mark.parametrize(
    ("name", "data", "who"),
    [
        ("improve_attribute", {"attribute": "heart"}, "player"),
        ("improve_knack", {"knack": "Ridin'"}, "player"),
        ("buy_knack", {"name": "Ropin'"}, "player"),
        ("grant", {"amount": 2, "reason": "grant"}, "dealer"),
    ],
)
@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_it_does_a_form_sent_twice_once_R15(
    client_as: ClientAs,
    rich_pc_a: Any,
    player_a: User,
    dealer: User,
    name: str,
    data: dict[str, Any],
    who: str,
    htmx: bool,
) -> None:
    """The same form (the same key) posted twice: one ledger row, one change, and the second
    answer says it was done already instead of refusing or charging again."""
    if name == "improve_knack":
        data = {"knack": knack(rich_pc_a, "Ridin'").pk}
    client = client_as(player_a if who == "player" else dealer)
    form = {**data, "key": "b1f0c2d3e4a5968778695a4b"}
    first = client.post(url(name, rich_pc_a), form, headers=HTMX if htmx else {})
    after_first = snapshot(rich_pc_a)
    second = client.post(url(name, rich_pc_a), form, headers=HTMX if htmx else {})
    assert snapshot(rich_pc_a) == after_first
    assert ChipEntry.objects.filter(character=rich_pc_a, key=form["key"]).count() == 1
    assert first.status_code == second.status_code
    page = second if htmx else client.get(second["Location"])
    assert "That was done already: a second click changes nothing." in text_of(
        page.content.decode()
    )
    # A new form (a new key) is a new request, judged by the rules again (Ridin' is at 4 now,
    # Ropin' is bought: those are refused for what they are, not as repeats).
    third = client.post(url(name, rich_pc_a), {**form, "key": "another-key"}, headers=HTMX)
    assert "done already" not in third.content.decode()


def test_it_gives_every_chips_form_its_own_key_R15(
    client_as: ClientAs, rich_pc_a: Any, player_a: User
) -> None:
    html = client_as(player_a).get(url("chips", rich_pc_a)).content.decode()
    keys = re.findall(r'name="key" value="([0-9a-f]{24})"', html)
    forms = html.count("<form")
    others = html.count('action="/accounts/logout/"') + html.count('action="/accounts/language/"')
    assert len(keys) == forms - others > 3
    assert len(set(keys)) == len(keys)


def test_it_does_not_mistake_a_refused_form_for_a_done_one_R15(
    client_as: ClientAs, pc_a: Any, player_a: User
) -> None:
    """A refusal writes nothing, not even the key: the same form sent again once the chips
    are there goes through."""
    form = {"attribute": "eye", "key": "refused-then-fine"}
    refused = client_as(player_a).post(url("improve_attribute", pc_a), form)
    assert "has 3 chips; this costs 8" in text_of(refused.content.decode())
    chips_grant(character_id=pc_a.pk, amount=5, actor=None)
    client_as(player_a).post(url("improve_attribute", pc_a), form)
    assert Character.objects.get(pk=pc_a.pk).eye == 4
