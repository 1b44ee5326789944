"""Making and editing sheets through the form (R28, R29): per-field errors, nothing saved on a
problem, the live tally, and who gets which form."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from characters.models import Character, Knack
from characters.services import attribute_improve, character_update, chips_grant
from tests.characters.conftest import HANGED_MAN, post_data, sheet_of, text_of

ClientAs = Callable[[Any], Client]


def create_url(campaign: Any, kind: str = "pc") -> str:
    name = "characters:create" if kind == "pc" else "characters:create_npc"
    return reverse(name, kwargs={"slug": campaign.slug})


def edit_url(character: Any) -> str:
    return reverse("characters:edit", args=[character.campaign.slug, character.pk])


def check_url(campaign: Any) -> str:
    return reverse("characters:check", kwargs={"slug": campaign.slug})


def field_error(html: str, field: str) -> str:
    """The error text the form shows for one field (by its err-<field> id)."""
    match = re.search(rf'id="err-{field}"[^>]*>(.*?)</', html, re.S)
    return text_of(match.group(1)) if match else ""


def knack_rows_in(html: str) -> list[tuple[str, str]]:
    """(name, rating) of each knack row in the form's list (not the <template>)."""
    block = html.split('id="knack-rows"', 1)[1].split("</ul>", 1)[0]
    names = re.findall(r'name="knack_name" value="([^"]*)"', block)
    ratings = re.findall(r'name="knack_rating" value="([^"]*)"', block)
    return list(zip(names, ratings, strict=True))


# --- Making a player character -------------------------------------------------------------


@pytest.mark.parametrize("key", sorted(HANGED_MAN))
def test_it_saves_each_hanged_man_pc_through_the_form_R28(
    client_as: ClientAs, campaign: Any, player_a: User, key: str
) -> None:
    response = client_as(player_a).post(create_url(campaign), post_data(sheet_of(key)))
    character = Character.objects.get(campaign=campaign)
    assert response.status_code == 302
    assert response["Location"] == character.get_absolute_url()
    assert character.player == player_a
    assert character.kind == "pc"
    assert {k.name: k.rating for k in character.knacks.all()} == HANGED_MAN[key]["knacks"]
    assert character.current("hand") == character.hand == HANGED_MAN[key]["hand"]
    assert character.devil_rating == HANGED_MAN[key]["devil_rating"]
    assert character.trait_2 == HANGED_MAN[key]["trait_2"]


JIM_BUT_DRINKIN = {"Shootin'": 4, "Bargainin'": 2, "Philanderin'": 2, "Gamblin'": 2}
REFUSED = {
    "12 points": ({"heart": 1}, "attributes", "add up to 12"),
    "attr 0": ({"hand": 0, "eye": 5, "guts": 4, "heart": 4}, "hand", "Hand must be from 1 to 5"),
    "attr 6": ({"hand": 6, "eye": 3, "guts": 2, "heart": 2}, "hand", "Hand must be from 1 to 5"),
    "not a number": ({"hand": "lots"}, "hand", "Hand needs a number from 1 to 5"),
    "one trait": ({"trait_2": ""}, "traits", "exactly two traits"),
    "10 knack points": ({"knacks": JIM_BUT_DRINKIN}, "knacks", "add up to 10"),
    "knack 5": (
        {"knacks": {**JIM_BUT_DRINKIN, "Shootin'": 5, "Drinkin'": 1, "Gamblin'": 1}},
        "knacks",
        "Shootin' must be rated 1 to 4",
    ),
    "9 knacks": (
        {"knacks": {"Shootin'": 3, **{f"Knack {n}": 1 for n in range(8)}}},
        "knacks",
        "At most 8 knacks",
    ),
    "no devil": ({"devil": ""}, "devil", "Every player character has a Devil"),
    "devil 4": ({"devil_rating": 4}, "devil_rating", "must be 1 to 3"),
    "no name": ({"name": "  "}, "name", "Give the character a name"),
}


@pytest.mark.parametrize(("changes", "where", "words"), REFUSED.values(), ids=REFUSED.keys())
def test_it_saves_nothing_and_shows_the_problem_by_its_field_R28(
    client_as: ClientAs,
    campaign: Any,
    player_a: User,
    changes: dict[str, Any],
    where: str,
    words: str,
) -> None:
    response = client_as(player_a).post(create_url(campaign), post_data(sheet_of("jim", **changes)))
    html = response.content.decode()
    assert response.status_code == 200
    assert Character.objects.count() == 0
    assert Knack.objects.count() == 0
    assert "Nothing was saved" in html
    if where in {"attributes", "traits", "knacks"}:
        # Group problems sit in their fieldset, marked invalid.
        fieldset = html.split(f">{where.title()}</legend>", 1)[1].split("</fieldset>", 1)[0]
        assert words in text_of(fieldset)
    elif where in {"devil", "devil_rating"}:
        fieldset = html.split(">Devil</legend>", 1)[1].split("</fieldset>", 1)[0]
        assert words in text_of(fieldset)
    else:
        assert words in field_error(html, where)


def test_it_keeps_what_was_typed_when_it_refuses_R28(
    client_as: ClientAs, campaign: Any, player_a: User
) -> None:
    html = (
        client_as(player_a)
        .post(create_url(campaign), post_data(sheet_of("zeke", heart=1)))
        .content.decode()
    )
    assert 'value="Zeke Munroe"' in html
    assert ("Trackin&#x27;", "3") in knack_rows_in(html)


def test_it_refuses_a_knack_listed_twice(
    client_as: ClientAs, campaign: Any, player_a: User
) -> None:
    data = post_data(sheet_of("jack"))
    data["knack_name"] = ["Gamblin'", "Lyin'", "Shootin'", "gamblin'"]
    data["knack_rating"] = ["4", "3", "2", "2"]
    html = client_as(player_a).post(create_url(campaign), data).content.decode()
    assert "listed twice" in html
    assert Character.objects.count() == 0


@pytest.mark.parametrize(
    ("names", "ratings"),
    [
        (["Gamblin'", "Ly\x00in'", "Shootin'"], ["4", "3", "2"]),
        (["Gamblin'", "Lyin'", "Shootin'"], ["4", "3\x00", "2"]),
    ],
    ids=["name", "rating"],
)
def test_it_refuses_a_nul_byte_in_a_knack_row_plainly(
    client_as: ClientAs, campaign: Any, player_a: User, names: list[str], ratings: list[str]
) -> None:
    """Issue 19: knack rows are read from the raw request, past the fields' validators: a NUL
    byte (which PostgreSQL cannot store) gets Django's own plain message, not a 500."""
    data = post_data(sheet_of("jack"))
    data["knack_name"], data["knack_rating"] = names, ratings
    response = client_as(player_a).post(create_url(campaign), data)
    assert response.status_code == 200
    assert "Null characters are not allowed." in text_of(response.content.decode())
    assert Character.objects.count() == 0


def test_it_ignores_blank_knack_rows_R28(
    client_as: ClientAs, campaign: Any, player_a: User
) -> None:
    data = post_data(sheet_of("jack"))
    data["knack_name"] = [*data["knack_name"], "", ""]
    data["knack_rating"] = [*data["knack_rating"], "", ""]
    assert client_as(player_a).post(create_url(campaign), data).status_code == 302
    assert Knack.objects.count() == 4


def test_it_offers_six_blank_knack_rows_without_javascript(
    client_as: ClientAs, campaign: Any, player_a: User
) -> None:
    html = client_as(player_a).get(create_url(campaign)).content.decode()
    assert knack_rows_in(html) == [("", "")] * 6
    assert 'hx-trigger="input changed delay:300ms' in html


def test_it_fills_blank_rows_only_up_to_the_knack_limit(
    client_as: ClientAs, pc_a: Any, dealer: User
) -> None:
    """Abe Slade: 4 knacks, Hand 4 + Eye 3 = a limit of 7, so three blank rows (for the
    Dealer: once approved, its player no longer adds knacks by editing, issue 18)."""
    rows = knack_rows_in(client_as(dealer).get(edit_url(pc_a)).content.decode())
    names = ["Shootin&#x27;", "Ridin&#x27;", "Drinkin&#x27;", "Gamblin&#x27;"]
    assert rows[:4] == list(zip(names, ["4", "3", "2", "2"], strict=True))
    assert rows[4:] == [("", "")] * 3


def test_it_lets_the_dealer_make_a_pc_for_a_seated_player_R28(
    client_as: ClientAs, campaign: Any, dealer: User, player_b: User, outsider: User
) -> None:
    client = client_as(dealer)
    html = client.get(create_url(campaign)).content.decode()
    options = html.split('name="player"', 1)[1].split("</select>", 1)[0]
    assert "player_a" in options
    assert "player_b" in options
    assert "outsider" not in options  # only players seated at this table
    assert "dealer" not in options

    response = client.post(create_url(campaign), post_data(sheet_of("luke"), player=player_b.pk))
    assert response.status_code == 302
    assert Character.objects.get().player == player_b


def test_it_makes_the_dealer_choose_the_player(
    client_as: ClientAs, campaign: Any, dealer: User, outsider: User
) -> None:
    client = client_as(dealer)
    html = client.post(create_url(campaign), post_data(sheet_of("luke"))).content.decode()
    assert "Choose whose character this is." in html
    html = client.post(
        create_url(campaign), post_data(sheet_of("luke"), player=outsider.pk)
    ).content.decode()
    assert "Select a valid choice" in html
    assert Character.objects.count() == 0


def test_it_ignores_a_player_field_from_a_player(
    client_as: ClientAs, campaign: Any, player_a: User, player_b: User
) -> None:
    """A player always makes their own character, whatever the POST says."""
    client_as(player_a).post(create_url(campaign), post_data(sheet_of("luke"), player=player_b.pk))
    assert Character.objects.get().player == player_a


# --- Non-player characters -----------------------------------------------------------------


def test_it_lets_the_dealer_make_a_free_npc_R28(
    client_as: ClientAs, campaign: Any, dealer: User
) -> None:
    thug = {"name": "Saloon thug", "hand": 3, "eye": 0, "guts": 2, "heart": 0}
    response = client_as(dealer).post(create_url(campaign, "npc"), post_data(thug))
    npc = Character.objects.get()
    assert response.status_code == 302
    assert (npc.kind, npc.player, npc.is_important) == ("npc", None, False)
    assert npc.devil_rating is None


def test_it_makes_an_npc_with_a_devil_important_R12_R28(
    client_as: ClientAs, campaign: Any, dealer: User
) -> None:
    sheet = {"name": "Merrill Randolph", "hand": 3, "eye": 3, "guts": 3, "heart": 4,
             "devil": "Greed", "devil_rating": 3, "knacks": {"Politickin'": 4}}  # fmt: skip
    client_as(dealer).post(create_url(campaign, "npc"), post_data(sheet))
    npc = Character.objects.get()
    assert npc.is_important
    assert npc.devil_rating == 3


def test_it_checks_an_npcs_ranges_and_saves_nothing(
    client_as: ClientAs, campaign: Any, dealer: User
) -> None:
    sheet = {"name": "Giant", "hand": 6, "eye": 1, "guts": 1, "heart": 1}
    html = client_as(dealer).post(create_url(campaign, "npc"), post_data(sheet)).content.decode()
    assert "Hand must be from 0 to 5" in field_error(html, "hand")
    assert Character.objects.count() == 0


def test_it_lets_the_dealer_set_an_npcs_current_values_R29(
    client_as: ClientAs, npc: Any, dealer: User
) -> None:
    client = client_as(dealer)
    assert 'name="guts_current"' in client.get(edit_url(npc)).content.decode()
    sheet = {"name": "Mayor Crane", "hand": 2, "eye": 3, "guts": 2, "heart": 4,
             "devil": npc.devil, "devil_rating": 3, "knacks": {"Politickin'": 3}}  # fmt: skip
    data = post_data(sheet, hand_current=1, eye_current=3, guts_current=0, heart_current=4)
    assert client.post(edit_url(npc), data).status_code == 302
    npc.refresh_from_db()
    assert [npc.current(a) for a in ("hand", "eye", "guts", "heart")] == [1, 3, 0, 4]
    assert npc.status == "road"

    html = client.post(edit_url(npc), {**data, "heart_current": 5}).content.decode()
    assert "Current Heart can&#x27;t be above its rating (4)." in html


# --- Editing a player character ------------------------------------------------------------


def abe_sheet(**changes: Any) -> dict[str, Any]:
    sheet = {
        "name": "Abe Slade", "vocation": "Drifter", "hand": 4, "eye": 3, "guts": 3, "heart": 3,
        "trait_1": "Quick as a rattler", "trait_2": "Stubborn as a mule",
        "devil": "Ran from the war and never stopped running.", "devil_rating": 2,
        "knacks": {"Shootin'": 4, "Ridin'": 3, "Drinkin'": 2, "Gamblin'": 2},
    }  # fmt: skip
    sheet.update(changes)
    return sheet


def test_it_shows_current_values_and_moves_them_with_the_ratings_R29(
    client_as: ClientAs, pc_a: Any, player_a: User
) -> None:
    """Abe took 2 Difficulty in Hand; moving a point from Guts to Hand keeps it taken (his
    player may still move points: the Dealer has not approved the sheet yet, issue 18)."""
    pc_a.hand_current = 2
    pc_a.approved = False
    pc_a.save(update_fields=["hand_current", "approved"])
    client = client_as(player_a)
    html = client.get(edit_url(pc_a)).content.decode()
    assert "current 2" in text_of(html)
    assert 'name="hand_current"' not in html  # players don't type current values

    response = client.post(edit_url(pc_a), post_data(abe_sheet(hand=5, guts=2, vocation="Scout")))
    assert response.status_code == 302
    pc_a.refresh_from_db()
    assert (pc_a.hand, pc_a.hand_current, pc_a.guts, pc_a.guts_current) == (5, 3, 2, 2)
    assert pc_a.vocation == "Scout"


def test_it_edits_a_sheet_improved_with_chips_R15_R28(
    client_as: ClientAs, rich_pc_a: Any, player_a: User
) -> None:
    """Hand bought up to 5: the sheet now holds 14 points, and an edit must not be refused."""
    attribute_improve(character_id=rich_pc_a.pk, attribute="hand", actor=player_a)
    client = client_as(player_a)
    html = client.get(edit_url(rich_pc_a)).content.decode()
    assert "Points left: 0 of 14" in text_of(html)
    response = client.post(edit_url(rich_pc_a), post_data(abe_sheet(hand=5, description="Tall")))
    assert response.status_code == 302
    rich_pc_a.refresh_from_db()
    assert rich_pc_a.description == "Tall"


def test_it_saves_nothing_from_an_invalid_edit_R28(
    client_as: ClientAs, pc_a: Any, player_a: User
) -> None:
    pc_a.approved = False  # before approval its player still sets the ratings (issue 18)
    pc_a.save(update_fields=["approved"])
    response = client_as(player_a).post(
        edit_url(pc_a), post_data(abe_sheet(heart=5, name="Renamed"))
    )
    assert response.status_code == 200
    pc_a.refresh_from_db()
    assert (pc_a.name, pc_a.heart) == ("Abe Slade", 3)
    assert pc_a.knacks.count() == 4


def test_it_keeps_a_sheet_out_of_play_read_only_R17(
    client_as: ClientAs, pc_a: Any, player_a: User
) -> None:
    Character.objects.filter(pk=pc_a.pk).update(out_of_play=True, fate="dies")
    client = client_as(player_a)
    response = client.get(edit_url(pc_a))
    assert response.status_code == 302
    assert response["Location"] == pc_a.get_absolute_url()
    client.post(edit_url(pc_a), post_data(abe_sheet(name="Back from the dead")))
    pc_a.refresh_from_db()
    assert pc_a.name == "Abe Slade"
    html = client.get(pc_a.get_absolute_url()).content.decode()
    assert "Edit the sheet" not in html
    assert "has left play" in html


# --- The live check ------------------------------------------------------------------------


def test_it_checks_a_half_typed_sheet_live_R28(
    client_as: ClientAs, campaign: Any, player_a: User
) -> None:
    data = {"kind": "pc", "name": "Jim", "hand": "4", "eye": "4", "guts": "", "heart": "",
            "knack_name": ["Shootin'", "Drinkin'", ""], "knack_rating": ["4", "1", ""]}  # fmt: skip
    response = client_as(player_a).post(check_url(campaign), data, headers={"HX-Request": "true"})
    html = response.content.decode()
    words = text_of(html)
    assert response.status_code == 200
    assert html.lstrip().startswith('<aside id="sheet-summary"')  # the partial, not a page
    assert "Points left: 5 of 13" in words
    assert "Knack points left: 6 of 11" in words
    assert "Knacks: 2 of 8" in words
    assert "Guts must be from 1 to 5" in words
    assert "Write exactly two traits" in words


def test_it_says_a_finished_sheet_is_ready_R28(
    client_as: ClientAs, campaign: Any, player_a: User
) -> None:
    data = post_data(sheet_of("luke"), kind="pc")
    words = text_of(client_as(player_a).post(check_url(campaign), data).content.decode())
    assert "Points left: 0 of 13" in words
    assert "Knack points left: 0 of 11" in words
    assert "Knacks: 5 of 6" in words
    assert "The sheet follows the rules" in words
    assert Character.objects.count() == 0  # checking saves nothing


def test_it_shows_when_points_are_overspent_R28(
    client_as: ClientAs, campaign: Any, player_a: User
) -> None:
    data = post_data(sheet_of("zeke", heart=4), kind="pc")
    words = text_of(client_as(player_a).post(check_url(campaign), data).content.decode())
    assert "Points left: -2 of 13" in words
    assert "Spend 2 fewer points." in words


def test_it_checks_npcs_by_the_free_rules_only_for_the_dealer_R28(
    client_as: ClientAs, campaign: Any, dealer: User, player_a: User
) -> None:
    data = {"kind": "npc", "name": "Thug", "hand": "0", "eye": "5", "guts": "1", "heart": "0"}
    words = text_of(client_as(dealer).post(check_url(campaign), data).content.decode())
    assert "Non-player characters are free" in words
    assert "The sheet follows the rules" in words
    # A player cannot ask for the free rules: their sheets are player characters.
    words = text_of(client_as(player_a).post(check_url(campaign), data).content.decode())
    assert "Points left: 7 of 13" in words


def test_it_checks_an_existing_sheet_with_its_bought_points_R15(
    client_as: ClientAs, rich_pc_a: Any, player_a: User
) -> None:
    attribute_improve(character_id=rich_pc_a.pk, attribute="heart", actor=player_a)
    url = reverse("characters:check_existing", args=[rich_pc_a.campaign.slug, rich_pc_a.pk])
    words = text_of(client_as(player_a).post(url, post_data(abe_sheet(heart=4))).content.decode())
    assert "Points left: 0 of 14" in words
    assert "The sheet follows the rules" in words


def test_it_refuses_a_sheet_update_from_the_service_too_R28(pc_a: Any) -> None:
    """The service checks again whatever the form did (belt and braces)."""
    from characters.services import CharacterError

    with pytest.raises(CharacterError) as refused:
        character_update(character_id=pc_a.pk, data=abe_sheet(heart=5), knacks={"Shootin'": 4})
    assert {p.field for p in refused.value.problems} == {"attributes", "knacks"}
    chips_grant(character_id=pc_a.pk, amount=1, actor=None)  # and the sheet still works
