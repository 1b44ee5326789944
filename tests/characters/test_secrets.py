"""A non-player character's secrets are the Dealer's alone (issue 18), tested like the hidden
cards: every campaign URL (found by walking the URL configuration, as tests/test_every_url.py
does), as a full page and as an htmx fragment, GET and POST, fetched by each player — and the
live streams' first snapshot and the export — never carry them. The Dealer sees them on the
sheet and its form, and they survive an export and import."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from django.test import Client

from characters.forms import SheetForm
from characters.models import Character
from characters.services import character_update
from conflicts.services import HandSpec, conflict_create
from exchange.api import campaign_export
from tests.live.test_streams import in_thread, open_stream
from tests.test_every_url import CAMPAIGN_ROUTES, fill

SECRET = "Buried-the-sheriff-under-the-gallows-XQ7"


@pytest.fixture
def secret_npc(npc: Character) -> Character:
    Character.objects.filter(pk=npc.pk).update(secrets=SECRET)
    npc.refresh_from_db()
    return npc


@pytest.fixture
def scene(
    campaign: Any,
    dealer: Any,
    player_a: Any,
    player_b: Any,
    pc_a: Any,
    pc_b: Any,
    secret_npc: Character,
) -> dict[str, Any]:
    conflict = conflict_create(
        campaign=campaign, actor=dealer, title="At the gallows",
        hands=[HandSpec(character=pc_a), HandSpec(character=secret_npc)],
    )  # fmt: skip
    from campaigns.game_sessions import session_start
    from campaigns.services import note_save, session_plan
    from fights.services import fight_create
    from tests.kit import new_game

    note = note_save(campaign=campaign, title="Gallows", body="Who hanged him?")
    session = session_plan(campaign=campaign)
    fight = fight_create(
        campaign=campaign, actor=dealer, session=session_start(campaign=campaign, actor=dealer),
        title="Shootout at the gallows", characters=[pc_a, secret_npc],
    )  # fmt: skip
    return {
        "slug": campaign.slug,
        "character_id": secret_npc.pk,
        "conflict_id": conflict.pk,
        "fight_id": fight.pk,
        "saloon_id": new_game(
            "saloon", campaign=campaign, actor=dealer, players=[dealer, player_a, player_b]
        ).pk,
        "gunfighter_id": new_game(
            "gunfighter", campaign=campaign, actor=dealer, players=[dealer, player_a]
        ).pk,
        "showdown_id": new_game(
            "showdown",
            campaign=campaign,
            actor=dealer,
            players=[dealer, player_a],
            dealer=dealer.pk,
        ).pk,
        "highcard_id": new_game(
            "highcard", campaign=campaign, actor=dealer, players=[dealer, player_a]
        ).pk,
        "note_id": note.pk,
        "number": session.number,
        "link_id": 1,
        "invite_id": 1,
        "member_id": 1,
        "line_id": 1,
        "action": "call",
    }


@pytest.mark.django_db
def test_the_dealer_sees_the_secrets_on_the_sheet_and_its_form(
    scene: dict, secret_npc: Character, client_as: Any, dealer: Any
) -> None:
    client = client_as(dealer)
    assert SECRET in client.get(secret_npc.get_absolute_url()).content.decode()
    edit = client.get(f"/c/{scene['slug']}/characters/{secret_npc.pk}/edit/").content.decode()
    assert f">{SECRET}</textarea>" in edit


@pytest.mark.django_db
def test_the_dealer_writes_the_secrets_in_the_npc_form(
    campaign: Any, client_as: Any, dealer: Any
) -> None:
    response = client_as(dealer).post(
        f"/c/{campaign.slug}/characters/new/npc/",
        {"name": "Deputy Vance", "hand": 2, "eye": 2, "guts": 2, "heart": 2, "secrets": SECRET},
    )
    assert response.status_code == 302
    assert Character.objects.get(name="Deputy Vance").secrets == SECRET


@pytest.mark.django_db
def test_a_player_character_keeps_no_secrets(pc_a: Character) -> None:
    form = SheetForm(is_pc=True)
    assert "secrets" not in form.fields
    data = {
        "name": pc_a.name, "hand": 4, "eye": 3, "guts": 3, "heart": 3,
        "trait_1": pc_a.trait_1, "trait_2": pc_a.trait_2, "devil": pc_a.devil,
        "devil_rating": 2, "secrets": SECRET,
    }  # fmt: skip
    knacks = dict(pc_a.knacks.values_list("name", "rating"))
    character_update(character_id=pc_a.pk, data=data, knacks=knacks)
    pc_a.refresh_from_db()
    assert pc_a.secrets == ""


@pytest.mark.django_db
@pytest.mark.parametrize("route", [r for r in CAMPAIGN_ROUTES if not r.endswith("stream/")])
def test_no_page_nor_fragment_shows_a_player_the_secrets(
    route: str, scene: dict, player_a: Any, player_b: Any
) -> None:
    url = fill(route, scene)
    for player in (player_a, player_b):
        client = Client(raise_request_exception=False)
        client.force_login(player)
        for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
            for response in (client.get(url, **headers), client.post(url, {}, **headers)):
                body = b"".join(response) if response.streaming else response.content
                assert SECRET.encode() not in body, (url, player.username, headers)


@pytest.mark.django_db(transaction=True)
def test_no_stream_shows_a_player_the_secrets(
    scene: dict, player_a: Any, player_b: Any, dealer: Any
) -> None:
    slug, conflict_id = scene["slug"], scene["conflict_id"]
    urls = [
        f"/c/{slug}/conflicts/{conflict_id}/stream/",
        f"/c/{slug}/conflicts/{conflict_id}/table/stream/",
        f"/c/{slug}/characters/{scene['character_id']}/stream/",
        f"/c/{slug}/fights/{scene['fight_id']}/stream/",
        f"/c/{slug}/fights/{scene['fight_id']}/table/stream/",
    ]

    async def first_event(user: Any, url: str) -> str:
        status, stream = await open_stream(user, url)
        if stream is None:
            return str(status)
        try:
            return (await stream.next()).data
        finally:
            await stream.close()

    async def run() -> None:
        for user in (player_a, player_b):
            for url in urls:
                data = await first_event(user, url)
                assert SECRET not in data, (url, user.username)
        # The stream does carry the NPC's hand to the Dealer: the check is not vacuous.
        assert "At the gallows" in await first_event(dealer, urls[0])

    asyncio.run(run())
    asyncio.run(in_thread(lambda: None))


@pytest.mark.django_db
def test_only_the_dealer_exports_and_the_secrets_go_with_the_file(
    scene: dict, campaign: Any, player_a: Any, client_as: Any, dealer: Any
) -> None:
    response = client_as(player_a).get(f"/c/{campaign.slug}/export.json")
    assert response.status_code in (403, 404)
    assert SECRET.encode() not in response.content
    data = campaign_export(campaign)
    npc = next(c for c in data["characters"] if c["kind"] == "npc")
    assert npc["secrets"] == SECRET
    assert all(c["secrets"] == "" for c in data["characters"] if c["kind"] == "pc")
    assert SECRET in json.dumps(data)
