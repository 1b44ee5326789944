"""Issue 36: the interrupt fieldset (R33) is readable on a 390 px phone: its legend and labels
at least 16 px, in ink that stands out from its background (WCAG AA: 4.5:1), and its fields one
under the other, never squeezed three to a row. In Chromium; needs E2E=1."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, expect

from tests.e2e.conftest import ARTIFACTS, PHONE_390, app_url, chromium, login_cookie
from tests.fights.conftest import FightTable
from tests.fights.test_views import deal

pytestmark = pytest.mark.e2e
__all__ = ["app_url", "chromium", "login_cookie"]

# Each text in the fieldset: its font size, and the contrast of its colour with the first
# background colour behind it that is not transparent.
READABLE = """f => {
  const rgb = s => (s.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map(v => v / 255)
    .map(v => v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const behind = el => {
    for (; el; el = el.parentElement) {
      const c = rgb(getComputedStyle(el).backgroundColor);
      if (c.length === 3 || c[3] > 0) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  return [...f.querySelectorAll('legend, label > span, label.check, p')]
    .filter(el => el.textContent.trim())
    .map(el => {
      const style = getComputedStyle(el);
      const a = lum(rgb(style.color)), b = lum(behind(el));
      return {text: el.textContent.trim().slice(0, 30), size: parseFloat(style.fontSize),
              contrast: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)};
    });
}"""


def test_the_interrupt_fieldset_reads_well_on_a_phone(
    app_url: str,
    table: FightTable,
    dealer: User,
    player_b: User,
    cids: dict[str, str],
    login_cookie: Callable[[User], dict[str, str]],
    chromium: Browser,
) -> None:
    deal(table, dealer, cids)  # Bess's K♥ is up; she sleeves it, and another card comes up
    table.ok(player_b, "sleeve", cid=cids["bess"])
    cookie = login_cookie(player_b)
    context = chromium.new_context(viewport=PHONE_390, is_mobile=True, has_touch=True)
    try:
        context.add_cookies([cookie])  # type: ignore[list-item]
        page = context.new_page()
        page.goto(app_url + table.url)
        fieldset = page.locator("fieldset.fight-interrupt").first
        fieldset.scroll_into_view_if_needed()
        expect(fieldset).to_be_visible()
        fieldset.screenshot(path=str(ARTIFACTS / "fight-interrupt-phone.png"))
        texts = fieldset.evaluate(READABLE)
        assert texts
        for t in texts:
            assert t["size"] >= 16, t
            assert t["contrast"] >= 4.5, t
        fields = fieldset.locator(".fight-act__row .field")
        if fields.count() > 1:
            boxes = [fields.nth(i).bounding_box() for i in range(fields.count())]
            assert all(b is not None for b in boxes)
            assert len({round(b["x"]) for b in boxes if b}) == 1, boxes  # one under the other
            assert all(b["width"] >= 280 for b in boxes if b), boxes
    finally:
        context.close()
