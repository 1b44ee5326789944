"""Logging pieces the settings name (``LOGGING``)."""

from __future__ import annotations

import logging


class OneLineRefusals(logging.Filter):
    """A refusal (403: not your hand, not the Dealer) is the app answering as designed, not a
    fault: ``django.request`` logs it as one line, without the traceback of the
    ``PermissionDenied`` that made it. Every other record passes unchanged."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) == 403:
            record.exc_info = None
            record.exc_text = None
        return True
