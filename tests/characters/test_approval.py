"""After creation a player no longer moves rating points (issue 18): a player's new character
waits for the Dealer's approval before it is seated; once approved, its attributes change by
Difficulty, recovery, chips and the Dealer's edits only, each in the history. Traits are asked
for as similes, and a lone adjective gets a gentle hint that never stops a save."""

from __future__ import annotations

import re
from typing import Any

import pytest

from characters.models import AttributeChange, Character
from characters.rules import trait_hints
from characters.selectors import in_play
from characters.services import CharacterError, character_update

pytestmark = pytest.mark.django_db


def sheet(**changes: Any) -> dict[str, Any]:
    data = {
        "name": "Cole Brody", "vocation": "Drover",
        "hand": 4, "eye": 3, "guts": 3, "heart": 3,
        "trait_1": "Quick as a rattler", "trait_2": "Stubborn as a mule",
        "devil": "Left his brother to hang.", "devil_rating": 2,
        "knack_name": ["Shootin'", "Ridin'", "Drinkin'", "Gamblin'"],
        "knack_rating": [4, 3, 2, 2],
    }  # fmt: skip
    return data | changes


def test_a_players_new_character_waits_for_the_dealer(
    campaign: Any, player_a: Any, dealer: Any, client_as: Any
) -> None:
    client = client_as(player_a)
    response = client.post(f"/c/{campaign.slug}/characters/new/", sheet())
    assert response.status_code == 302
    cole = Character.objects.get(name="Cole Brody")
    assert not cole.approved
    assert cole not in in_play(campaign)
    assert "Waiting for the Dealer" in client.get(cole.get_absolute_url()).content.decode()
    # Not offered in the conflict set-up.
    set_up = client_as(dealer).get(f"/c/{campaign.slug}/conflicts/new/").content.decode()
    assert "Cole Brody" not in set_up
    # A player cannot approve it; the Dealer does, from the campaign page.
    approve = f"/c/{campaign.slug}/characters/{cole.pk}/approve/"
    assert client_as(player_a).post(approve).status_code == 403
    page = client_as(dealer).get(f"/c/{campaign.slug}/").content.decode()
    assert f'action="{approve}"' in page
    assert "Waiting for the Dealer" in page
    assert client_as(dealer).post(approve).status_code == 302
    cole.refresh_from_db()
    assert cole.approved
    assert cole in in_play(campaign)
    assert (
        "Cole Brody" in client_as(dealer).get(f"/c/{campaign.slug}/conflicts/new/").content.decode()
    )
    assert (
        f'action="{approve}"' not in client_as(dealer).get(f"/c/{campaign.slug}/").content.decode()
    )


def test_the_dealers_characters_need_no_approval(
    campaign: Any, dealer: Any, player_b: Any, client_as: Any
) -> None:
    response = client_as(dealer).post(
        f"/c/{campaign.slug}/characters/new/", sheet(player=player_b.pk)
    )
    assert response.status_code == 302
    assert Character.objects.get(name="Cole Brody").approved


def test_before_approval_the_player_still_moves_points(
    campaign: Any, player_a: Any, client_as: Any
) -> None:
    client = client_as(player_a)
    client.post(f"/c/{campaign.slug}/characters/new/", sheet())
    cole = Character.objects.get(name="Cole Brody")
    client.post(f"/c/{campaign.slug}/characters/{cole.pk}/edit/", sheet(hand=3, heart=4))
    cole.refresh_from_db()
    assert (cole.hand, cole.heart) == (3, 4)


def test_after_approval_the_player_changes_the_words_not_the_ratings(
    campaign: Any, pc_a: Any, player_a: Any, client_as: Any
) -> None:
    assert pc_a.approved
    client = client_as(player_a)
    url = f"/c/{campaign.slug}/characters/{pc_a.pk}/edit/"
    page = client.get(url).content.decode()
    assert "ratings now change by Difficulty, recovery, chips" in page
    hand = page.split('name="hand"', 1)[1].split(">", 1)[0]
    assert "readonly" in hand
    moved = sheet(
        name="Abe Slade", vocation="Scout", hand=5, guts=2,
        knack_name=["Shootin'", "Ridin'", "Drinkin'", "Gamblin'", "Ropin'"],
        knack_rating=[4, 3, 2, 1, 1],
    )  # fmt: skip
    assert client.post(url, moved).status_code == 302
    pc_a.refresh_from_db()
    assert pc_a.vocation == "Scout"  # the words changed
    assert (pc_a.hand, pc_a.guts) == (4, 3)  # the ratings did not
    assert dict(pc_a.knacks.values_list("name", "rating")) == {
        "Shootin'": 4, "Ridin'": 3, "Drinkin'": 2, "Gamblin'": 2,
    }  # fmt: skip
    assert not AttributeChange.objects.filter(character=pc_a).exists()


def test_the_service_refuses_a_players_rating_move_on_an_approved_sheet(pc_a: Any) -> None:
    data = {
        "name": pc_a.name, "hand": 5, "eye": 3, "guts": 2, "heart": 3,
        "trait_1": pc_a.trait_1, "trait_2": pc_a.trait_2, "devil": pc_a.devil, "devil_rating": 2,
    }  # fmt: skip
    knacks = dict(pc_a.knacks.values_list("name", "rating"))
    with pytest.raises(CharacterError, match="Ask the Dealer"):
        character_update(character_id=pc_a.pk, data=data, knacks=knacks, by_dealer=False)
    with pytest.raises(CharacterError, match="Ask the Dealer"):
        character_update(
            character_id=pc_a.pk,
            data=data | {"hand": 4, "guts": 3},
            knacks=knacks | {"Shootin'": 3, "Ropin'": 1},
            by_dealer=False,
        )
    pc_a.refresh_from_db()
    assert (pc_a.hand, pc_a.guts) == (4, 3)


def test_a_dealers_edit_goes_into_the_history(
    campaign: Any, pc_a: Any, dealer: Any, client_as: Any
) -> None:
    url = f"/c/{campaign.slug}/characters/{pc_a.pk}/edit/"
    response = client_as(dealer).post(url, sheet(name="Abe Slade", hand=5, guts=2))
    assert response.status_code == 302
    pc_a.refresh_from_db()
    assert (pc_a.hand, pc_a.guts) == (5, 2)
    rows = {
        (c.attribute, c.before, c.after)
        for c in AttributeChange.objects.filter(
            character=pc_a, reason=AttributeChange.Reason.DEALER_EDIT
        )
    }
    assert rows == {("hand", 4, 5), ("guts", 3, 2)}
    history = client_as(dealer).get(pc_a.get_absolute_url()).content.decode()
    assert "Set by the Dealer" in history


def test_the_set_up_form_offers_only_approved_characters(
    campaign: Any, pc_a: Any, pc_b: Any
) -> None:
    Character.objects.filter(pk=pc_b.pk).update(approved=False)
    assert list(in_play(campaign)) == [pc_a]


# --- Traits as similes ---------------------------------------------------------------------------


def test_the_form_asks_for_similes_with_an_example(
    campaign: Any, player_a: Any, client_as: Any
) -> None:
    page = client_as(player_a).get(f"/c/{campaign.slug}/characters/new/").content.decode()
    assert "Fast as a rattler" in page
    assert 'placeholder="e.g. Fast as a rattler"' in page


@pytest.mark.parametrize(
    ("traits", "hinted"),
    [
        (["Fast", "Stubborn as a mule"], ["Fast"]),
        (["brave", "  tough "], ["brave", "tough"]),
        (["Fast as a rattler", "Quiet like a church"], []),
        (["Meaner than a snake", ""], []),
        (["Big hearted", "Fast"], ["Fast"]),  # two words: a phrase, left alone
    ],
)
def test_a_lone_adjective_gets_a_gentle_hint(traits: list[str], hinted: list[str]) -> None:
    hints = trait_hints(traits)
    assert len(hints) == len(hinted)
    for word, hint in zip(hinted, hints, strict=True):
        assert f"\u201c{word}\u201d could say more as a simile" in hint
        assert "Fast as a rattler" in hint


def test_the_hint_never_stops_a_save(campaign: Any, player_a: Any, client_as: Any) -> None:
    client = client_as(player_a)
    live = client.post(f"/c/{campaign.slug}/characters/check/", sheet(trait_1="Fast"))
    assert "could say more as a simile" in live.content.decode()
    assert "The sheet follows the rules" in live.content.decode()
    response = client.post(
        f"/c/{campaign.slug}/characters/new/", sheet(trait_1="Fast"), follow=True
    )
    cole = Character.objects.get(name="Cole Brody")
    assert cole.trait_1 == "Fast"
    assert "could say more as a simile" in response.content.decode()


def test_after_approval_the_traits_are_locked_too_a_trait_is_a_card_R11(
    campaign: Any, pc_a: Any, player_a: Any, dealer: Any, client_as: Any
) -> None:
    """Issue 27: traits stayed editable by the player after approval, without the Dealer. A
    trait is +1 card in the Deal (R11): locked like the ratings; the Dealer may change them."""
    before = (pc_a.trait_1, pc_a.trait_2)
    client = client_as(player_a)
    url = f"/c/{campaign.slug}/characters/{pc_a.pk}/edit/"
    page = client.get(url).content.decode()
    trait = page.split('name="trait_1"', 1)[1].split(">", 1)[0]
    assert "readonly" in trait
    assert "a trait is an extra card in the Deal (R11)" in page
    changed = sheet(name="Abe Slade", hand=4, eye=3, guts=3, heart=3, trait_1="Rich as Croesus")
    changed |= {"knack_name": ["Shootin'", "Ridin'", "Drinkin'", "Gamblin'"]}
    assert client.post(url, changed).status_code == 302
    pc_a.refresh_from_db()
    assert (pc_a.trait_1, pc_a.trait_2) == before
    data = {
        "name": pc_a.name, "hand": 4, "eye": 3, "guts": 3, "heart": 3,
        "trait_1": "Rich as Croesus", "trait_2": pc_a.trait_2, "devil": pc_a.devil,
        "devil_rating": 2,
    }  # fmt: skip
    knacks = dict(pc_a.knacks.values_list("name", "rating"))
    with pytest.raises(CharacterError, match="traits are set"):
        character_update(character_id=pc_a.pk, data=data, knacks=knacks, by_dealer=False)
    character_update(character_id=pc_a.pk, data=data, knacks=knacks, by_dealer=True)
    pc_a.refresh_from_db()
    assert pc_a.trait_1 == "Rich as Croesus"


def test_the_flash_leaves_the_approval_to_the_live_standing(
    campaign: Any, player_a: Any, client_as: Any
) -> None:
    """Issue 36: "waits for the Dealer's approval" was a flash, which stayed above the sheet
    once the approval turned it Active live; it is said in the live standing alone."""
    page = (
        client_as(player_a)
        .post(f"/c/{campaign.slug}/characters/new/", sheet(), follow=True)
        .content.decode()
    )
    flash = re.search(r'<ul class="messages".*?</ul>', page, re.S)
    assert flash is not None
    assert "Cole Brody is ready." in flash.group(0)
    assert "approval" not in flash.group(0)
    standing = re.search(r'<div id="live-standing".*?</header>', page, re.S)
    assert standing is not None
    assert "Waiting for the Dealer" in standing.group(0)
