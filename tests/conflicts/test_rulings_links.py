"""A ruling looked up at a live table never takes the viewer away from it: every link to the
Rulings page on a conflict's screens opens in a new tab (issue 18), and the Rulings page's
index names each ruling by its title."""

from __future__ import annotations

import re
from typing import Any

import pytest

from conflicts.rulings import RULINGS
from conflicts.services import HandSpec, conflict_create

pytestmark = pytest.mark.django_db


def test_every_rulings_link_on_a_conflict_opens_a_new_tab(
    campaign: Any, dealer: Any, player_a: Any, pc_a: Any, pc_b: Any, client_as: Any
) -> None:
    conflict = conflict_create(
        campaign=campaign, actor=dealer, title="Showdown",
        hands=[HandSpec(character=pc_a), HandSpec(character=pc_b), HandSpec(stud_size=5)],
    )  # fmt: skip
    base = f"/c/{campaign.slug}/conflicts/{conflict.pk}/"
    for user, url in ((player_a, base), (dealer, base), (player_a, base + "table/")):
        html = client_as(user).get(url).content.decode()
        links = re.findall(r"<a\b[^>]*href=\"/rulings/[^\"]*\"[^>]*>", html)
        assert len(links) >= 2, url
        for link in links:
            assert 'target="_blank"' in link, (url, link)
            assert 'rel="noopener"' in link, (url, link)


def test_the_rulings_index_names_each_ruling(client: Any) -> None:
    html = client.get("/rulings/").content.decode()
    index = html.split('class="panel rulings-index"', 1)[1].split("</nav>", 1)[0]
    for ruling in RULINGS:
        assert f'href="#{ruling.anchor}">{ruling.id} {ruling.title}</a>' in index.replace(
            "&#x27;", "'"
        )
