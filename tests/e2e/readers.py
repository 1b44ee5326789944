"""People reading a table's pages: a browser context each (their own cookies), every page checked
by axe-core (WCAG 2.1 A and AA) on a phone (390×844) and on a laptop (1280×800). The tables are
driven to each phase through the services between looks, never by clicking."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable

from django.contrib.auth.models import User
from playwright.sync_api import Browser, BrowserContext, Page

from tests.e2e.axe import bare_card_codes, unnamed_cards, violations
from tests.e2e.conftest import DESKTOP, PHONE_390

SIZES = (("phone", PHONE_390), ("laptop", DESKTOP))
# What changes from one look to the next without changing what is to be read: numbers (versions,
# counts, times), form values and data attributes (keys, tokens). A page whose markup is the same
# once these are taken out was checked already.
VOLATILE = re.compile(r'\d+|(?:value|data-[\w-]+)="[^"]*"')


class Readers:
    """``look(path, "where")`` opens the page for each reader and runs axe at both sizes;
    ``assert_none()`` fails with every violation found, once per rule and element."""

    def __init__(
        self,
        browser: Browser,
        app_url: str,
        login_cookie: Callable[[User], dict[str, str]],
        users: dict[str, User | None],
    ) -> None:
        self.app_url = app_url
        self.contexts: dict[str, BrowserContext] = {}
        self.pages: dict[str, Page] = {}
        for name, user in users.items():
            context = browser.new_context(viewport=PHONE_390)
            if user is not None:
                context.add_cookies([login_cookie(user)])  # type: ignore[list-item]
            self.contexts[name] = context
            self.pages[name] = context.new_page()
        self.found: dict[str, str] = {}
        self.looked = 0
        self.seen: set[tuple[str, str]] = set()

    def look(self, path: str, where: str, who: tuple[str, ...] = ()) -> None:
        for name in who or tuple(self.pages):
            page = self.pages[name]
            page.set_viewport_size(PHONE_390)
            response = page.goto(self.app_url + path, wait_until="domcontentloaded")
            assert response is not None, (where, name, path)
            assert response.status == 200, (where, name, path)
            # The page at rest: no request of its own in flight (htmx fades what it reloads).
            page.wait_for_function("() => !document.querySelector('.htmx-request')")
            markup = VOLATILE.sub("", page.evaluate("() => document.body.outerHTML"))
            same = (name, hashlib.sha1(markup.encode()).hexdigest())
            if same in self.seen:
                continue
            self.seen.add(same)
            for code in unnamed_cards(page):
                said = f"{where} ({name}): a card not in words, {code}"
                self.found.setdefault(f"card {code}", said)
            for text in bare_card_codes(page):
                said = f"{where} ({name}): a card code not in words, {text!r}"
                self.found.setdefault(f"code {text}", said)
            for size, viewport in SIZES:
                page.set_viewport_size(viewport)
                self.looked += 1
                for line in violations(page):
                    rule = line.split(" ", 1)[0]
                    self.found.setdefault(f"{rule} {line}", f"{where} ({name}, {size}): {line}")

    def assert_none(self) -> None:
        assert not self.found, f"{len(self.found)} WCAG 2.1 A/AA violations:\n" + "\n".join(
            sorted(self.found.values())
        )

    def close(self) -> None:
        for context in self.contexts.values():
            context.close()
