"""The campaign file's structure as a JSON Schema (exchange/schema/campaign.schema.json): a
valid draft 2020-12 schema that any tool can check a file with, in step with the models, with
the app's words for each of its rules."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from jsonschema import Draft202012Validator

from campaigns.models import Campaign, GameSession, Membership
from characters.models import Character, ChipEntry
from characters.rules import ATTRIBUTES
from conflicts.models import Conflict
from exchange.api import ImportRefused, campaign_export, campaign_import
from exchange.reading import DB_INT_MAX
from exchange.structure import (
    FORMATS,
    PATTERNS,
    SPECIAL,
    TYPES,
    _Checker,
    _validator,
    schema,
    structure_problems,
)
from tests.exchange.conftest import at

Data = dict[str, Any]
JIM = "gentleman-jim-harris"


def _rules(node: Data, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Data]]:
    """Every subschema, with the names leading to it."""
    yield path, node
    for key, value in node.items():
        if key in ("properties", "$defs"):
            for name, rule in value.items():
                yield from _rules(rule, (*path, key, name))
        elif isinstance(value, dict):
            yield from _rules(value, (*path, key))


def test_it_is_a_valid_draft_2020_12_schema() -> None:
    Draft202012Validator.check_schema(schema())
    assert schema()["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_its_choices_are_the_models() -> None:
    defs, top = schema()["$defs"], schema()["properties"]
    assert top["campaign"]["properties"]["kind"]["enum"] == Campaign.Kind.values
    assert top["members"]["items"]["properties"]["role"]["enum"] == Membership.Role.values
    character = defs["character"]["properties"]
    assert character["kind"]["enum"] == Character.Kind.values
    assert character["fate"]["enum"] == ["", *Character.Fate.values]
    assert character["attributes"]["required"] == list(ATTRIBUTES)
    assert defs["entry"]["properties"]["reason"]["enum"] == ChipEntry.Reason.values
    assert defs["session"]["properties"]["status"]["enum"] == GameSession.Status.values
    assert defs["conflict"]["properties"]["phase"]["enum"] == Conflict.Phase.values


def test_the_app_has_words_for_every_rule_of_the_schema() -> None:
    said = {"type", "minimum", "maximum", "maxLength", "pattern", "enum", "const", "required",
            "maxItems", "maxProperties"}  # fmt: skip
    structure = {"$schema", "$id", "$defs", "$ref", "title", "description", "properties",
                 "items", "additionalProperties", "propertyNames", "format"}  # fmt: skip
    for path, rule in _rules(schema()):
        for keyword in set(rule) - said - structure:  # words for one field's rule
            assert path[-2:-1] == ("properties",), (path, keyword)
            assert (path[-1], keyword) in SPECIAL, (path, keyword)
        types = rule.get("type", [])
        assert set([types] if isinstance(types, str) else types) <= {*TYPES, "null"}, path
        assert rule.get("format", "date") in FORMATS, path
        assert rule.get("pattern", "^[-a-zA-Z0-9_]+$") in PATTERNS, path
        if "minimum" in rule or "maximum" in rule:  # both, so that a message gives the range
            assert -DB_INT_MAX <= rule["minimum"] <= rule["maximum"] <= DB_INT_MAX, path
    assert {name for name, _ in SPECIAL} == {"traits", "amount"}


def test_an_export_fits_the_schema(played: Campaign) -> None:
    data = campaign_export(played)
    assert list(Draft202012Validator(schema()).iter_errors(data)) == []
    assert structure_problems(data) == []


def test_it_still_imports_a_version_1_file_as_first_written(played: Campaign, dealer: User) -> None:
    """The first files had no conflicts, no session logs, no secrets and no approval: a
    character without them has none and is approved."""
    data = campaign_export(played)
    data["version"] = 1
    del data["conflicts"]
    for session in data["sessions"]:
        del session["log"]
    for character in data["characters"]:
        del character["secrets"], character["approved"]

    copy = campaign_import(data, dealer=dealer).campaign

    assert copy.characters.count() == played.characters.count()
    assert all(c.approved and not c.secrets for c in copy.characters.all())


def _jim(data: Data) -> Data:
    character: Data = data["characters"][at(data, JIM)]
    return character


CHANGES = [
        (lambda d: _jim(d)["attributes"]["hand"].update(rating=3.0),
         "characters[{jim}].attributes.hand.rating: must be a whole number, got 3.0"),
        (lambda d: _jim(d)["knacks"].update({"R" * 81: 2}),
         'characters[{jim}].knacks["RRRRRRRRRRRRR'),
        (lambda d: _jim(d)["knacks"].update({" ": 2}),
         'characters[{jim}].knacks[" "]: a knack\'s name must be 1–80 characters, with no NUL'),
        (lambda d: d.update(hat="black"), "hat: is not part of this format"),
        (lambda d: d["campaign"].pop("pitch"), "campaign.pitch: is missing"),
        (lambda d: d["campaign"].update(slug=""), "campaign.slug: must not be empty"),
        (lambda d: d["sessions"][0].update(date=20261120),
         "sessions[0].date: must be a date like 2026-11-22, got 20261120"),
        (lambda d: d["sessions"][0].update(started_at=True),
         "sessions[0].started_at: must be a date and time like 2026-11-22T20:15:00+00:00, got "
         "true"),
        (lambda d: d["notes"].insert(1, []), "notes[1]: must be an object {{...}}, got a list"),
        (lambda d: _jim(d).update(traits="Cool"),
         'characters[{jim}].traits: must be a list [...], got "Cool"'),
        (lambda d: _jim(d).update(out_of_play="no"),
         'characters[{jim}].out_of_play: must be true or false, got "no"'),
        (lambda d: _jim(d)["chips"]["ledger"][0].update(amount=0),
         "characters[{jim}].chips.ledger[0].amount: must add or take at least one chip, got 0"),
        (lambda d: d["sessions"][0]["devil_ratings"].update({JIM: 0}),
         f'sessions[0].devil_ratings["{JIM}"]: must be 1–3, got 0'),
        (lambda d: d["members"][0].update(role="sheriff"),
         'members[0].role: must be one of "dealer", "player"; got "sheriff"'),
]  # fmt: skip


@pytest.mark.parametrize(("change", "expected"), CHANGES)
def test_it_says_each_rule_in_the_apps_words(
    played: Campaign, dealer: User, change: Any, expected: str
) -> None:
    data = campaign_export(played)
    change(data)
    with pytest.raises(ImportRefused) as refused:
        campaign_import(data, dealer=dealer)
    expected = expected.format(jim=at(data, JIM))
    assert any(p.startswith(expected) for p in refused.value.problems), refused.value.problems


def test_it_says_one_problem_a_place_and_at_most_twenty(played: Campaign) -> None:
    data = campaign_export(played)
    data["campaign"]["slug"] = " "  # empty, and not letters and digits: said once
    for character in data["characters"]:
        character["attributes"] = {"hand": True, "eye": None, "guts": [], "heart": {}}
    problems = structure_problems(data)
    assert problems[0] == "campaign.slug: must not be empty"
    assert len(problems) == 20
    assert len({p.split(": ")[0] for p in problems}) == 20


def test_the_schema_as_checked_says_what_the_schema_file_says(played: Campaign) -> None:
    """The validator works on the schema with its definitions inlined (for speed): the same
    errors, in the same places, as the schema file itself gives."""
    data = campaign_export(played)
    for change, _ in CHANGES:
        change(data)

    def errors(validator: Any) -> list[tuple[Any, ...]]:
        found = validator.iter_errors(data)
        return sorted((repr(list(e.absolute_path)), e.validator, repr(e.instance)) for e in found)

    assert errors(_validator()) == errors(_Checker(schema()))
    assert len(errors(_validator())) >= len(CHANGES)
