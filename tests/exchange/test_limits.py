"""Issue 19 #6 and #7: what a client sends to the import never makes a 500 nor half a
campaign. Files beyond the size limit (IMPORT_MAX_BYTES) or the ledger-row limit
(IMPORT_MAX_LEDGER_ROWS) are refused in plain words before they are parsed or checked; a legal
file at the limit is imported in seconds."""

from __future__ import annotations

import datetime as dt
import json
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from campaigns.models import Campaign
from characters.models import ChipEntry
from exchange.api import (
    ImportRefused,
    campaign_export,
    campaign_file_dump,
    campaign_file_parse,
    campaign_import,
)
from tests.exchange.conftest import at, model_counts

ClientAs = Callable[[Any], Client]
IMPORT = "/import/"


def _post(client: Client, raw: bytes) -> str:
    upload = SimpleUploadedFile("big.json", raw, content_type="application/json")
    response = client.post(IMPORT, {"file": upload})
    assert response.status_code == 200
    return response.content.decode()


def test_the_limits_are_settings() -> None:
    assert settings.IMPORT_MAX_BYTES == 16 * 1024 * 1024
    assert settings.IMPORT_MAX_LEDGER_ROWS == 5000


def test_it_refuses_a_file_over_16_mb_before_parsing_it(
    client_as: ClientAs, outsider: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    parsed: list[int] = []
    monkeypatch.setattr("exchange.forms.campaign_file_parse", lambda raw: parsed.append(1))
    before = model_counts()
    html = _post(client_as(outsider), b" " * (16 * 1024 * 1024) + b"{}")
    assert "The file is larger than 16 MB, the most this table imports." in html
    assert parsed == []
    assert model_counts() == before


def test_it_refuses_a_number_of_thousands_of_digits_in_plain_words() -> None:
    raw = b'{"format": "dustdevils.campaign", "version": ' + b"9" * 5000 + b"}"
    with pytest.raises(ImportRefused, match="a number far too long"):
        campaign_file_parse(raw)


def _ledger_file(played: Campaign, rows: int) -> dict[str, Any]:
    data = campaign_export(played)
    jim = data["characters"][at(data, "gentleman-jim-harris")]
    start = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    jim["chips"]["ledger"] = [
        {
            "amount": 1,
            "reason": "stakes",
            "note": f"row {n}",
            "actor": "dealer",
            "at": (start + dt.timedelta(minutes=n)).isoformat(),
            "session": None,
        }
        for n in range(rows)
    ]
    jim["chips"]["current"] = rows
    for other in data["characters"]:
        if other is not jim:
            other["chips"] = {"current": 0, "ledger": []}
    return data


def test_it_refuses_more_ledger_rows_than_the_limit_before_checking_them(
    client_as: ClientAs, played: Campaign, outsider: User
) -> None:
    data = _ledger_file(played, settings.IMPORT_MAX_LEDGER_ROWS + 1)
    data["characters"][0]["name"] = 7  # not even reached: the row count is said first
    before = model_counts()
    html = _post(client_as(outsider), campaign_file_dump(data).encode())
    assert "characters: the file has 5,001 chip-ledger rows; this table imports at most 5,000." in (
        html
    )
    assert model_counts() == before


@pytest.mark.slow
def test_it_imports_a_file_at_the_limit_whole(played: Campaign, dealer: User) -> None:
    data = _ledger_file(played, settings.IMPORT_MAX_LEDGER_ROWS)
    raw = campaign_file_dump(data).encode()
    assert len(raw) <= settings.IMPORT_MAX_BYTES
    started = time.monotonic()
    result = campaign_import(campaign_file_parse(raw), dealer=dealer, seat_members=True)
    took = time.monotonic() - started
    print(f"\nimported {len(raw):,} bytes, 5,000 ledger rows in {took:.2f} s")  # not asserted
    jim = result.campaign.characters.get(name='"Gentleman" Jim Harris')
    rows = list(ChipEntry.objects.filter(character=jim).order_by("created_at", "id"))
    assert len(rows) == 5000
    assert [r.balance_after for r in rows[:3]] == [1, 2, 3]
    assert rows[-1].created_at == dt.datetime(2026, 1, 1, tzinfo=dt.UTC) + dt.timedelta(
        minutes=4999
    )
    assert campaign_export(result.campaign)["characters"] == data["characters"]


# --- Issue 37 (S7): every list a file brings has a stated maximum --------------------------------

# The place of a list in the file → its maximum (the schema's maxItems/maxProperties); the chip
# ledgers' is IMPORT_MAX_LEDGER_ROWS in all (above).
LIMITS = {
    "members": 100,
    "characters": 300,
    "links": 1000,
    "notes": 500,
    "sessions": 500,
    "conflicts": 300,
    "fights": 300,
    "characters[0].knacks": 20,
    "sessions[0].devil_ratings": 300,
    "sessions[0].log": 1000,
    "conflicts[0].seats": 12,
    "conflicts[0].timeline": 2000,
    "conflicts[0].snapshots": 2000,
    "fights[0].timeline": 2000,
}


def _one_too_many(data: dict[str, Any], where: str, most: int) -> None:
    """Put ``most + 1`` entries in the list (or map) at ``where``."""
    steps = where.replace("[0]", ".0").split(".")
    target: Any = data
    for step in steps[:-1]:
        if step == "0":
            if not target:
                target.append({})
            target = target[0]
        else:
            target = target.setdefault(step, [])
    last = steps[-1]
    many = most + 1
    target[last] = (
        {f"k{n}": 1 for n in range(many)} if last in ("knacks", "devil_ratings") else [{}] * many
    )


@pytest.mark.parametrize("where", list(LIMITS))
def test_every_list_of_the_file_has_a_maximum_said_by_name(
    played: Campaign, dealer: User, where: str
) -> None:
    data = campaign_export(played)
    _one_too_many(data, where, LIMITS[where])
    before = model_counts()
    with pytest.raises(ImportRefused) as refused:
        campaign_import(data, dealer=dealer)
    assert refused.value.problems == (
        f"{where}: holds {LIMITS[where] + 1:,}; this table imports at most {LIMITS[where]:,}",
    )
    assert model_counts() == before


def test_the_schema_states_each_maximum() -> None:
    from exchange.structure import schema

    text = json.dumps(schema())
    assert text.count('"maxItems"') + text.count('"maxProperties"') >= len(LIMITS) + 1  # +traits


def test_the_probes_file_of_100000_notes_is_refused_at_once(
    client_as: ClientAs, played: Campaign, outsider: User
) -> None:
    data = campaign_export(played)
    data["notes"] = [{"title": f"Note {n}", "body": "x" * 10} for n in range(100_000)]
    raw = campaign_file_dump(data).encode()
    began = time.perf_counter()
    html = _post(client_as(outsider), raw)
    took = time.perf_counter() - began
    assert "notes: holds 100,000; this table imports at most 500" in html
    assert took < 5, f"refused after {took:.1f} s"
