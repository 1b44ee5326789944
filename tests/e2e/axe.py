"""axe-core, the accessibility checker, run on a page in Chromium: WCAG 2.1 A and AA.

axe-core comes from the npm registry, pinned in tests/e2e/package.json (and its lock file);
``npm ci`` puts it in tests/e2e/node_modules/ the first time a test asks for it (.ci/run makes
sure npm is there). It is evaluated in the page through the DevTools protocol, so the app's
Content-Security-Policy (no inline or foreign scripts) need not be loosened for it.
"""

from __future__ import annotations

import fcntl
import shutil
import subprocess
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Page

HERE = Path(__file__).resolve().parent
AXE = HERE / "node_modules" / "axe-core" / "axe.min.js"
WCAG21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


@cache
def axe_source() -> str:
    """axe.min.js, installed with ``npm ci`` if it is not there yet (one installer at a time:
    the xdist workers share the folder)."""
    if not AXE.exists():
        npm = shutil.which("npm")
        if npm is None:
            pytest.fail("the accessibility tests need npm (apt-get install npm) for axe-core")
        with (HERE / ".npm-install.lock").open("w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not AXE.exists():
                subprocess.run(
                    [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
                    cwd=HERE, check=True, timeout=300,
                )  # fmt: skip
    return AXE.read_text(encoding="utf-8")


def violations(page: Page) -> list[str]:
    """What axe finds against WCAG 2.1 A and AA on the page as it is now, one line each: the
    rule, its help and the elements (empty: none)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(axe_source() + "\n;void 0")
    found: list[dict[str, Any]] = page.evaluate(
        """async (tags) => (await axe.run(document, {
            runOnly: {type: 'tag', values: tags}, resultTypes: ['violations'], preload: false,
        })).violations.map(v => ({
            id: v.id, help: v.help,
            nodes: v.nodes.map(n => n.target.join(' ') + ': '
                + n.failureSummary.split('\\n').slice(1).join(' ').trim()),
        }))""",
        WCAG21_AA,
    )
    return [f"{v['id']} ({v['help']}): " + " | ".join(v["nodes"][:4]) for v in found]


def unnamed_cards(page: Page) -> list[str]:
    """Cards on the page (``data-card``) not announced by their name in words ("ten of
    hearts", "red joker"): each as "code: what a screen reader is given instead"."""
    from cards.deck import FULL_DECK

    words = {c.text: c.words for c in FULL_DECK}
    named: list[list[str]] = page.evaluate(
        """() => [...document.querySelectorAll('[data-card]')].filter(e => e.tagName !== 'INPUT')
            .map(e => [e.dataset.card, e.getAttribute('aria-label')
                || (e.querySelector('.visually-hidden') || {}).textContent || e.textContent])"""
    )
    return [
        f"{code}: {name!r}"
        for code, name in named
        if not name.strip().startswith(words.get(code) or "?")
    ]


def bare_card_codes(page: Page) -> list[str]:
    """Card codes written in the page's text ("10♥") with no name in words around them: a
    screen reader would read "10 heart suit"."""
    found: list[str] = page.evaluate(
        r"""() => {
            const NAMED = '[data-card], button[aria-label], [aria-hidden="true"], script, style';
            const code = /(?:^|[^\w♣♦♥♠])(?:10|[2-9JQKA])[♣♦♥♠](?![\w♣♦♥♠])/;
            const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
            const out = [];
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                const el = node.parentElement;
                if (!code.test(node.data) || !el || !el.checkVisibility()) continue;
                if (el.closest(NAMED)) continue;
                out.push(node.data.trim().slice(0, 60));
            }
            return out;
        }"""
    )
    return found


def assert_readable(page: Page, where: str) -> None:
    """No WCAG 2.1 A/AA violation on the page, at its current size."""
    size = page.viewport_size or {}
    found = violations(page)
    assert not found, f"{where} at {size.get('width')}×{size.get('height')}:\n" + "\n".join(found)
