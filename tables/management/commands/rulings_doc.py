"""``manage.py rulings_doc``: docs/rulings.md, the rules as the app reads them, written from the
Rulings page's registry (``tables.rulings``: the Dust Devils rulings and every declared
game's readings). ``--check`` fails when the file is not current (tests/test_docs.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from tables import rulings

PATH = Path(settings.BASE_DIR) / "docs" / "rulings.md"


def markdown() -> str:
    """The Rulings page as Markdown."""
    from saloon.engine.state import READINGS as saloon_readings

    out = [
        "# Rulings: the rules as the app reads them",
        "",
        "Written by `manage.py rulings_doc` from the app's Rulings page (`/rulings/`), which has",
        "the same text; do not edit by hand. Where a rulebook or a seed is silent or unclear, this",
        "is what the app does. Code comments and tests cite these ids.",
        "",
    ]
    for group, items in rulings.grouped():
        out += [f"## {group}", ""]
        for r in items:
            house = " *(house rule inside)*" if r.house_rule else ""
            out += [f"### {r.id} {r.title}{house}", ""]
            if r.seed_words:
                out += [f"> {r.seed_words}", ""]
            out += [r.text, ""]
            if r.reading:
                out += [f"**Our reading.** {r.reading}", ""]
            if r.id == "R34":
                out += [f"- **{sid}** {text}" for sid, text in saloon_readings] + [""]
    return "\n".join(out).rstrip() + "\n"


class Command(BaseCommand):
    help = "Write docs/rulings.md from the Rulings page's registry (--check: only compare)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--check", action="store_true", help="fail if it is not current")

    def handle(self, *args: Any, **options: Any) -> None:
        text = markdown()
        if options["check"]:
            if not PATH.exists() or PATH.read_text() != text:
                raise CommandError("docs/rulings.md is not current: run manage.py rulings_doc")
            return
        PATH.write_text(text)
        self.stdout.write(f"Wrote {PATH.relative_to(settings.BASE_DIR)}")
