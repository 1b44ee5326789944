"""The team's settled readings R35–R39 are on the Rulings page, each with the seed's own words
beside it (issue 36); R36 follows the saloon's S-readings, as docs/rulings.md has it."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("ruling", "seed_words", "text"),
    [
        ("R35", "so the Black Joker can show up again sooner", "waits beside the deck"),
        ("R36", "provided that they have not already asked one", "one extra question at most"),
        ("R37", "sbattilo in gattabuia", "skip their next turn"),
        ("R38", "each gunfighter is now free to play one covert card", "no covert card"),
        ("R39", "most recently seen a western movie", "does not change between showdowns"),
    ],
)
def test_each_settled_reading_is_on_the_rulings_page_with_the_seeds_words(
    client: Client, ruling: str, seed_words: str, text: str
) -> None:
    page = client.get("/rulings/").content.decode()
    start = page.index(f'id="{ruling}"')
    entry = page[start : page.index("</div>", start)]
    assert seed_words in entry
    assert text in entry


def test_the_saloons_settled_reading_follows_its_s_readings(client: Client) -> None:
    page = client.get("/rulings/").content.decode()
    assert page.index('id="R34"') < page.index('id="S1"') < page.index('id="R36"')
    assert "R36 The saloon, settled" in page
