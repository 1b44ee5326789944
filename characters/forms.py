"""Forms for the character pages. The sheet form leaves the rules to ``rules.check_sheet``
(R28): the form only parses, and hangs each plain-words problem on the field it is about.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import zip_longest
from typing import Any

from django import forms
from django.contrib.auth.models import User
from django.core.validators import ProhibitNullCharactersValidator
from django.db.models import QuerySet
from django.http import QueryDict

from characters.models import Character, ChipEntry, Knack
from characters.rules import (
    ATTRIBUTE_LABELS,
    ATTRIBUTE_MAX,
    ATTRIBUTE_MIN_NPC,
    ATTRIBUTE_MIN_PC,
    ATTRIBUTE_SUITS,
    ATTRIBUTES,
    TRAIT_EXAMPLE,
    Problem,
    SheetSummary,
    check_sheet,
)

# Problems about a group of inputs rather than one: shown by the group's fieldset.
GROUPS = ("attributes", "traits", "knacks")
KNACK_NAME_MAX = 80
_NO_NUL = ProhibitNullCharactersValidator()  # what every Django CharField checks
BLANK_KNACK_ROWS = 6  # without JavaScript: this many empty rows, up to the knack limit


@dataclass(frozen=True)
class KnackRow:
    name: str
    rating: str  # as typed, so a re-rendered form shows what the player wrote


def _as_int(value: object) -> int:
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return 0


TRAIT_HELP = (
    f"Written as a simile, the way the table would say it: \u201c{TRAIT_EXAMPLE}\u201d, "
    "\u201cStubborn as a mule\u201d, \u201cQuiet like a church\u201d."
)


class SheetForm(forms.Form):
    """One character sheet: details, attributes, traits, knacks and Devil.

    ``is_pc`` picks the rules (R28 for player characters; non-player characters are free).
    ``players`` adds the "whose character" choice (the Dealer making a PC for a seated player).
    ``with_currents`` adds the current values (the Dealer editing an NPC, R29).
    ``bought`` is the points a PC bought with chips since creation (R15).
    ``locked``: a player editing their approved character — the ratings (attributes and
    knacks) and the traits (+1 card each, R11) are the saved ones whatever the page sends;
    only the other words change.
    """

    name = forms.CharField(
        max_length=120, error_messages={"required": "Give the character a name."}
    )
    vocation = forms.CharField(max_length=120, required=False)
    description = forms.CharField(widget=forms.Textarea, required=False)
    back_story = forms.CharField(widget=forms.Textarea, required=False)
    hand = forms.IntegerField()
    eye = forms.IntegerField()
    guts = forms.IntegerField()
    heart = forms.IntegerField()
    trait_1 = forms.CharField(max_length=120, required=False, help_text=TRAIT_HELP)
    trait_2 = forms.CharField(max_length=120, required=False, help_text=TRAIT_HELP)
    devil = forms.CharField(widget=forms.Textarea, required=False)
    # A non-player character's secrets (the Dealer's form only; see Character.secrets).
    secrets = forms.CharField(widget=forms.Textarea, required=False)
    devil_rating = forms.IntegerField(
        required=False, error_messages={"invalid": "The Devil's rating is a number, 1 to 3."}
    )

    def __init__(
        self,
        *args: Any,
        is_pc: bool,
        players: QuerySet[User] | None = None,
        with_currents: bool = False,
        bought: tuple[int, int] = (0, 0),
        locked: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.is_pc = is_pc
        self.locked = locked
        if locked and self.is_bound:
            data = QueryDict(mutable=True)
            if hasattr(self.data, "lists"):
                for key, values in self.data.lists():
                    data.setlist(key, values)
            else:
                data.update(self.data)
            for name in (*ATTRIBUTES, "trait_1", "trait_2"):  # a trait is +1 card (R11)
                data[name] = str(self.initial.get(name, ""))
            knacks = self.initial.get("knacks", [])
            data.setlist("knack_name", [k["name"] for k in knacks])
            data.setlist("knack_rating", [str(k["rating"]) for k in knacks])
            self.data = data
        if is_pc:
            del self.fields["secrets"]
        self.bought = bought
        self.group_errors: dict[str, list[str]] = {group: [] for group in GROUPS}
        low = ATTRIBUTE_MIN_PC if is_pc else ATTRIBUTE_MIN_NPC
        for name in ATTRIBUTES:
            message = f"{ATTRIBUTE_LABELS[name]} needs a number from {low} to {ATTRIBUTE_MAX}."
            self.fields[name].error_messages = {"required": message, "invalid": message}
        if players is not None:
            self.fields["player"] = forms.ModelChoiceField(
                queryset=players,
                empty_label="Choose the player",
                error_messages={"required": "Choose whose character this is."},
            )
        self.with_currents = with_currents
        if with_currents:
            for name in ATTRIBUTES:
                self.fields[f"{name}_current"] = forms.IntegerField(required=False, min_value=0)

    # --- Knacks: a list of (name, rating) rows, as many as the page sent ----------------------

    def knack_rows(self) -> list[KnackRow]:
        """The rows as typed, blank ones dropped (bound), or the initial knacks (unbound)."""
        if not self.is_bound:
            return [KnackRow(k["name"], str(k["rating"])) for k in self.initial.get("knacks", [])]
        names = self.data.getlist("knack_name") if hasattr(self.data, "getlist") else []
        ratings = self.data.getlist("knack_rating") if hasattr(self.data, "getlist") else []
        rows = []
        for name, rating in zip_longest(names, ratings, fillvalue=""):
            row = KnackRow(" ".join(str(name).split()), str(rating).strip())
            if row.name or row.rating:
                rows.append(row)
        return rows

    def knacks(self) -> dict[str, int]:
        """Knack name → rating, for the rules and the service (nameless rows left out)."""
        out: dict[str, int] = {}
        for row in self.knack_rows():
            if row.name and row.name.lower() not in {n.lower() for n in out}:
                out[row.name] = _as_int(row.rating)
        return out

    def _knack_row_problems(self) -> list[Problem]:
        problems, seen = [], set()
        for row in self.knack_rows():
            if not row.name:
                problems.append(Problem("knacks", f"A knack rated {row.rating} has no name."))
            elif row.name.lower() in seen:
                problems.append(Problem("knacks", f"{row.name} is listed twice: list it once."))
            elif len(row.name) > KNACK_NAME_MAX:
                problems.append(Problem("knacks", f"Keep knack names under {KNACK_NAME_MAX}."))
            elif "\x00" in row.name + row.rating:  # read from the raw request: no field ran
                problems.append(Problem("knacks", str(_NO_NUL.message)))
            seen.add(row.name.lower())
        return problems

    # --- The rules ---------------------------------------------------------------------------

    def _value(self, name: str) -> Any:
        """A field's value, lenient: the cleaned value if there is one, else what was typed."""
        cleaned = getattr(self, "cleaned_data", {})
        if name in cleaned:
            return cleaned[name]
        if self.is_bound:
            return self.data.get(name, "")
        return self.initial.get(name, "")

    def summary(self) -> SheetSummary:
        """R28, as the live feedback shows it: works on half-typed forms too (blank is 0)."""
        devil_rating = self._value("devil_rating")
        summary = check_sheet(
            is_pc=self.is_pc,
            ratings={name: _as_int(self._value(name)) for name in ATTRIBUTES},
            traits=[str(self._value("trait_1")), str(self._value("trait_2"))],
            knacks=self.knacks(),
            devil=str(self._value("devil") or ""),
            devil_rating=None if devil_rating in (None, "") else _as_int(devil_rating),
            bought_attribute_points=self.bought[0],
            bought_knack_points=self.bought[1],
        )
        named = bool(str(self._value("name") or "").strip())
        first = [] if named else [Problem("name", "Give the character a name.")]
        rows = self._knack_row_problems()
        return replace(summary, problems=(*first, *summary.problems, *rows))

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        for problem in self.summary().problems:
            self.add_problem(problem)
        if self.with_currents:
            for name in ATTRIBUTES:
                current, rating = cleaned.get(f"{name}_current"), cleaned.get(name)
                if current is not None and rating is not None and current > rating:
                    self.add_error(
                        f"{name}_current",
                        f"Current {ATTRIBUTE_LABELS[name]} can't be above its rating ({rating}).",
                    )
        return cleaned

    def add_problem(self, problem: Problem) -> None:
        """Hang a rules problem on its field, or on its group (attributes, traits, knacks)."""
        if problem.field in GROUPS:
            if problem.message not in self.group_errors[problem.field]:
                self.group_errors[problem.field].append(problem.message)
        elif problem.field in self.fields:
            if not self.has_error(problem.field):
                self.add_error(problem.field, problem.message)
        else:
            self.add_error(None, problem.message)

    def is_valid(self) -> bool:
        valid = super().is_valid()
        return valid and not any(self.group_errors.values())

    # --- For the service ------------------------------------------------------------------------

    def sheet_data(self) -> dict[str, Any]:
        data = {
            key: self.cleaned_data.get(key) or ""
            for key in ("name", "vocation", "description", "back_story", "trait_1", "trait_2")
        }
        data.update({name: self.cleaned_data[name] for name in ATTRIBUTES})
        data["devil"] = self.cleaned_data.get("devil") or ""
        data["secrets"] = "" if self.is_pc else self.cleaned_data.get("secrets") or ""
        # No Devil, no rating (an NPC's Devil is optional, R28).
        has_devil = bool(data["devil"].strip())
        data["devil_rating"] = self.cleaned_data.get("devil_rating") if has_devil else None
        return data

    def currents(self) -> dict[str, int] | None:
        if not self.with_currents:
            return None
        values = {name: self.cleaned_data.get(f"{name}_current") for name in ATTRIBUTES}
        return {name: value for name, value in values.items() if value is not None}

    def attribute_rows(self, character: Character | None = None) -> list[dict[str, Any]]:
        """For the template: each attribute's field, suit, current-value field or value."""
        return [
            {
                "name": name,
                "label": ATTRIBUTE_LABELS[name],
                "suit": ATTRIBUTE_SUITS[name],
                "field": self[name],
                "current_field": self[f"{name}_current"] if self.with_currents else None,
                "current": character.current(name) if character else None,
            }
            for name in ATTRIBUTES
        ]

    def blank_knack_rows(self) -> range:
        """Empty rows for typing new knacks: up to six, and never past the knack limit."""
        if self.locked:
            return range(0)
        filled = len(self.knack_rows())
        limit = self.summary().knack_limit
        return range(max(0, min(BLANK_KNACK_ROWS, limit - filled)))


def sheet_initial(character: Character) -> dict[str, Any]:
    """The editing form's starting values: the sheet as saved."""
    initial: dict[str, Any] = {
        field: getattr(character, field)
        for field in (
            "name", "vocation", "description", "back_story", "trait_1", "trait_2", "devil",
            "devil_rating", "secrets", *ATTRIBUTES,
        )
    }  # fmt: skip
    initial.update({f"{name}_current": character.current(name) for name in ATTRIBUTES})
    initial["knacks"] = [{"name": k.name, "rating": k.rating} for k in character.knacks.all()]
    return initial


class KnackBuyForm(forms.Form):
    name = forms.CharField(
        max_length=KNACK_NAME_MAX, error_messages={"required": "Name the new knack."}
    )


class KnackImproveForm(forms.Form):
    knack = forms.ModelChoiceField(
        queryset=Knack.objects.none(),
        error_messages={"invalid_choice": "That knack is not on this sheet."},
    )

    def __init__(self, *args: Any, character: Character, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["knack"].queryset = character.knacks.all()  # type: ignore[attr-defined]


class AttributeImproveForm(forms.Form):
    attribute = forms.ChoiceField(
        choices=[(name, ATTRIBUTE_LABELS[name]) for name in ATTRIBUTES],
        error_messages={"invalid_choice": "Choose Hand, Eye, Guts or Heart."},
    )


GRANT_REASONS = [
    (ChipEntry.Reason.GRANT.value, "Reward"),
    (ChipEntry.Reason.STARTING.value, ChipEntry.Reason.STARTING.label),
    (ChipEntry.Reason.STAKES.value, ChipEntry.Reason.STAKES.label),
]


class ChipGrantForm(forms.Form):
    amount = forms.IntegerField(
        min_value=1,
        max_value=50,
        error_messages={
            "required": "How many chips?",
            "min_value": "Grant at least one chip.",
            "max_value": "At most 50 chips at a time.",
        },
    )
    reason = forms.ChoiceField(choices=GRANT_REASONS)
    note = forms.CharField(max_length=200, required=False)


class LeavePlayForm(forms.Form):
    fate = forms.ChoiceField(
        choices=Character.Fate.choices,
        widget=forms.RadioSelect,
        error_messages={"required": "Choose how the story ends."},
    )
    epitaph = forms.CharField(
        widget=forms.Textarea,
        error_messages={"required": "Write a few words for the headstone, or the last word."},
    )
