"""What is left of English on a page read in Italian (issue 39): each sentence the Italian
catalogue translates (its English ``msgid``, cut at its placeholders into the runs of words
between them) looked for in the page's text and in the attributes a person reads or hears
(``aria-label``, ``title``, ``hx-confirm``, a clock's labels)."""

from __future__ import annotations

import html
import re
from functools import cache
from pathlib import Path

import polib  # type: ignore[import-untyped]
from django.conf import settings

PO = Path(settings.BASE_DIR) / "locale" / "it" / "LC_MESSAGES" / "django.po"
PLACE = re.compile(r"%\(\w+\)s|\{\w+\}|<[^>]+>|&\w+;|[“”\"()]")
READ = re.compile(r'(?:aria-label|title|hx-confirm|data-clock-labels|placeholder)="([^"]*)"')


@cache
def english_runs() -> tuple[re.Pattern[str], ...]:
    """The catalogue's English runs of words that its Italian does not keep (the catalogue read
    by polib, however its lines are wrapped)."""
    runs: set[str] = set()
    for entry in polib.pofile(str(PO)):
        if entry.obsolete or not entry.msgid:
            continue
        ids = [entry.msgid, *([entry.msgid_plural] if entry.msgid_plural else [])]
        said = {entry.msgstr, *entry.msgstr_plural.values()}
        for msgid in ids:
            if msgid in said:
                continue  # the same in Italian ("Via!", "“E tu?”")
            whole = PLACE.sub("", msgid).strip(" .,:;!?’'—–-…$")
            for run in PLACE.split(msgid):
                run = run.strip(" .,:;!?’'—–-…$")
                # A run of two words or more, or a label of one word (a lone "and" or "the"
                # between two names tells nothing: Italian pages hold names and numbers too).
                if (" " in run or run == whole) and not any(run in s for s in said):
                    runs.add(run)
    return tuple(re.compile(rf"(?<![\w’']){re.escape(run)}(?![\w’'])") for run in sorted(runs))


def read_text(page: str) -> str:
    """What a person reads or hears of a page: its text and its read attributes."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    attributes = " | ".join(READ.findall(page))
    text = re.sub(r"<[^>]+>", " | ", page)
    return html.unescape(text + " | " + attributes)


def english_left(page: str) -> list[str]:
    """The catalogue's English runs still on ``page``, each with where it was found."""
    text = read_text(page)
    found = [run.search(text) for run in english_runs()]
    return [text[max(0, m.start() - 60) : m.end() + 60] for m in found if m is not None]
