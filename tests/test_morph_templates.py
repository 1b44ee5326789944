"""The games' main panels are morphed in place (issue 26): idiomorph's htmx extension is vendored
(no CDN) and loaded on every game page; the live panels morph what the stream sends; every move
form carries hx-ext="morph" itself — htmx looks the extension up from the element that sent the
request, and a live update may have taken that form off the page before its answer came (without
it, the answer would be put *inside* the panel). The browser tests: tests/e2e/test_phone_stays.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings

TEMPLATES = Path(settings.BASE_DIR) / "templates"
STATIC = Path(settings.BASE_DIR) / "static"
GAMES = ("conflicts", "fights", "saloon", "gunfighter", "tables")
# The games' pages with a main panel (the lobbies' forms answer their own small parts).
FORMS = sorted(
    path
    for game in GAMES
    for path in (TEMPLATES / game).rglob("*.html")
    if path.name not in {"list.html", "new.html", "join.html"}
)


def test_idiomorph_is_vendored_and_loaded_with_the_table_kit() -> None:
    assert (STATIC / "vendor/idiomorph-ext-0.8.0.min.js").is_file()
    assert (STATIC / "js/moves.js").is_file()
    for assets in ("conflicts/_assets.html", "saloon/_assets.html"):  # fights use the first
        text = (TEMPLATES / assets).read_text()
        morph = text.index("vendor/idiomorph-ext-0.8.0.min.js")
        assert morph < text.index("js/moves.js"), assets


@pytest.mark.parametrize("live_open", ["conflicts/_live_open.html", "saloon/_live_open.html"])
def test_the_live_panel_morphs_what_the_stream_sends(live_open: str) -> None:
    text = (TEMPLATES / live_open).read_text()
    panel = re.search(r'<div class="live__panel"[^>]*>', text)
    assert panel, live_open
    assert 'hx-ext="morph"' in panel.group(0)
    assert 'hx-swap="morph:innerHTML"' in panel.group(0)


@pytest.mark.parametrize("template", FORMS, ids=lambda p: str(p.relative_to(TEMPLATES)))
def test_every_move_form_is_answered_by_a_morph(template: Path) -> None:
    text = template.read_text()
    for tag in re.findall(r"<form\b[^>]*\bhx-post=[^>]*>", text):
        if "deal_again" in tag or "again_url" in tag:
            continue  # answered by a redirect to the next hand (HX-Redirect)
        assert 'hx-ext="morph"' in tag, f"{template}: {tag[:120]}"
        assert 'hx-swap="outerHTML"' not in tag, f"{template}: a plain swap: {tag[:120]}"
