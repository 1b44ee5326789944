"""Django's ``makemessages`` with this project's defaults (issue 39), so the catalogue is made
the same way by everyone and by the test that keeps it complete
(tests/i18n/test_catalogue.py): the app's own sources only (not the tests, the collected static
files, the browser tests' npm packages or the deployment files) and each string's file without
its line number (a moved line does not change the catalogue).

    python manage.py makemessages -l it     then translate the new entries in locale/it
"""

from __future__ import annotations

from typing import Any

from django.core.management.commands import makemessages

IGNORED = ("tests", "staticfiles", "node_modules", "deploy", "locale")


class Command(makemessages.Command):
    def handle(self, *args: Any, **options: Any) -> None:
        options["ignore_patterns"] = [*(options.get("ignore_patterns") or []), *IGNORED]
        if options.get("add_location") is None:
            options["add_location"] = "file"
        super().handle(*args, **options)
