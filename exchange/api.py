"""What the other parts of the project call: export, import, restore (see the package's
docstring for the file format)."""

from __future__ import annotations

from exchange.export import campaign_export, campaign_file_dump
from exchange.importer import ImportResult, campaign_import, campaign_restore
from exchange.reading import (
    FORMAT,
    VERSION,
    ImportRefused,
    campaign_file_parse,
)

__all__ = [
    "FORMAT",
    "VERSION",
    "ImportRefused",
    "ImportResult",
    "campaign_export",
    "campaign_file_dump",
    "campaign_file_parse",
    "campaign_import",
    "campaign_restore",
]
