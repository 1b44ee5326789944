"""``export_campaign`` and ``import_campaign``."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError

from campaigns.models import Campaign
from exchange.api import campaign_export, campaign_file_dump
from tests.exchange.conftest import model_counts


def _run(*args: str) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_it_exports_to_stdout(played: Campaign) -> None:
    out, _ = _run("export_campaign", "the-hanged-man")
    assert out == campaign_file_dump(campaign_export(played))
    assert json.loads(out)["campaign"]["slug"] == "the-hanged-man"


def test_it_exports_to_a_file(played: Campaign, tmp_path: Path) -> None:
    target = tmp_path / "last-oak.json"
    out, err = _run("export_campaign", "the-hanged-man", "-o", str(target))
    assert out == ""
    assert str(target) in err
    assert json.loads(target.read_text(encoding="utf-8")) == campaign_export(played)


def test_it_says_when_there_is_no_such_campaign(db: None) -> None:
    with pytest.raises(CommandError, match="No campaign with the slug 'nowhere'"):
        _run("export_campaign", "nowhere")


def test_it_imports_a_file_for_a_dealer(played: Campaign, tmp_path: Path, outsider: User) -> None:
    target = tmp_path / "last-oak.json"
    _run("export_campaign", "the-hanged-man", "-o", str(target))

    out, err = _run("import_campaign", str(target), "--dealer", "outsider")

    copy = Campaign.objects.get(slug="the-hanged-man-2")
    assert out.strip() == (
        "Imported “The Hanged Man” as /c/the-hanged-man-2/ (13 characters), dealt by outsider."
    )
    assert "Note: The address /c/the-hanged-man/ is taken here" in err
    assert copy.memberships.get(role="dealer").user == outsider
    exported = campaign_export(copy)
    assert exported["characters"] == campaign_export(played)["characters"]


def test_it_imports_for_the_first_superuser_by_default(played: Campaign, tmp_path: Path) -> None:
    boss = User.objects.create_superuser("boss", password="x" * 20)
    target = tmp_path / "f.json"
    target.write_text(campaign_file_dump(campaign_export(played)), encoding="utf-8")
    _run("import_campaign", str(target))
    assert Campaign.objects.get(slug="the-hanged-man-2").memberships.get(role="dealer").user == boss


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("truncated", "The file stops in the middle"),
        ('{"format": "dustdevils.campaign", "version": 7}', "version: this app reads versions 1"),
        ("rating", "characters[{jim}].attributes.hand.rating: must be 0–5, got 7"),
    ],
)
def test_it_refuses_a_bad_file_with_the_message_and_writes_nothing(
    played: Campaign, tmp_path: Path, content: str, expected: str
) -> None:
    data = campaign_export(played)
    jim = next(i for i, c in enumerate(data["characters"]) if c["name"].startswith('"Gent'))
    if content == "truncated":
        text = campaign_file_dump(data)[:5000]
    elif content == "rating":
        data["characters"][jim]["attributes"]["hand"]["rating"] = 7
        text = campaign_file_dump(data)
    else:
        text = content
    target = tmp_path / "bad.json"
    target.write_text(text, encoding="utf-8")
    before = model_counts()

    with pytest.raises(CommandError) as error:
        _run("import_campaign", str(target), "--dealer", "dealer")

    assert str(error.value).startswith(f"{target}: nothing imported.\n  - ")
    assert expected.format(jim=jim) in str(error.value)
    assert model_counts() == before


def test_it_says_when_the_file_cannot_be_read(dealer: User, tmp_path: Path) -> None:
    with pytest.raises(CommandError, match=r"Cannot read .*missing\.json: No such file"):
        _run("import_campaign", str(tmp_path / "missing.json"), "--dealer", "dealer")
