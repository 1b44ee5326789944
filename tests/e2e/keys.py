"""Playing by keyboard: tab through a page and see which controls the focus never reached, and
whether each one it reached showed where it was."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import Page

# Every control a person can use, numbered (data-kbd) when it is shown: a radio group counts
# once (Tab enters it, the arrows move in it), as the browser's tab order has it.
NUMBER_CONTROLS = """() => {
    const all = [...document.querySelectorAll(
        'a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex="-1"])')];
    const groups = new Set();
    let n = 0;
    for (const el of all) {
        delete el.dataset.kbd;
        if (el.disabled || el.type === 'hidden' || el.tabIndex < 0) continue;
        if (!el.checkVisibility({visibilityProperty: true})) continue;
        if (el.closest('[inert], details:not([open]) > :not(summary)')) continue;
        if (el.type === 'radio') {
            const group = [...document.forms].indexOf(el.form) + '/' + el.name;
            el.dataset.kbdGroup = group;
            if (groups.has(group)) { el.dataset.kbd = 'group'; continue; }
            groups.add(group);
        }
        el.dataset.kbd = String(n++);
    }
    return n;
}"""

WHERE_IS_THE_FOCUS = """() => {
    const el = document.activeElement;
    if (!el || el === document.body) return null;
    const style = getComputedStyle(el);
    const shown = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0
        || style.boxShadow !== 'none';
    const group = el.dataset.kbdGroup;
    const first = group
        ? document.querySelector(`[data-kbd-group="${CSS.escape(group)}"]:not([data-kbd="group"])`)
        : el;
    const name = (el.getAttribute('aria-label') || el.textContent || el.name || el.id || '')
        .trim().slice(0, 40);
    return [first.dataset.kbd || '', el.tagName.toLowerCase() + ' ' + name, shown];
}"""


def tab_through(page: Page) -> tuple[list[str], list[str]]:
    """Press Tab from the top of the page until the focus comes round again: the controls it
    never reached, and those it reached without showing the focus (as "tag name")."""
    total = page.evaluate(NUMBER_CONTROLS)
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); "
                  "window.scrollTo(0, 0); }")  # fmt: skip
    page.keyboard.press("Tab")
    reached: set[str] = set()
    unmarked: list[str] = []
    first = None
    for _ in range(total * 2 + 10):
        focus = page.evaluate(WHERE_IS_THE_FOCUS)
        if focus is not None:
            number, name, shown = focus
            if first is None:
                first = number
            elif number == first:
                break
            reached.add(number)
            if not shown and name not in unmarked:
                unmarked.append(name)
        page.keyboard.press("Tab")
    names = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('[data-kbd]')]
            .filter(e => e.dataset.kbd !== 'group')
            .map(e => [e.dataset.kbd, e.tagName.toLowerCase() + ' '
                + (e.getAttribute('aria-label') || e.textContent || e.name || '').trim()
                  .slice(0, 40)]))"""
    )
    return [names[n] for n in sorted(names, key=int) if n not in reached], unmarked
