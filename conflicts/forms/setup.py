"""The form that sets a conflict up: who sits where, their goals and sides, the Devil in play,
the studs, and the session (the conflict wizard)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms

from campaigns.models import Campaign, GameSession
from characters.models import Character
from characters.rules import ATTRIBUTES
from characters.selectors import in_play as characters_in_play
from conflicts.engine import conflict as engine
from conflicts.models import Side
from conflicts.services import HandSpec
from fights.models import Fight


class SessionChoiceField(forms.ModelChoiceField):  # type: ignore[type-arg]
    def label_from_instance(self, obj: Any) -> str:
        return f"Session {obj.number}"


@dataclass(frozen=True)
class SeatRow:
    """One character's line on the new-conflict form."""

    character: Character
    take: forms.BoundField
    goal: forms.BoundField
    side: forms.BoundField

    @property
    def fields(self) -> tuple[forms.BoundField, ...]:
        return (self.take, self.goal, self.side)


class ConflictCreateForm(forms.Form):
    """The Dealer's set-up: title, Stakes (R18), who takes part and on which side (R14), the
    Dealer's stud hand (R12), the session, and an optional recovery conflict (R22)."""

    title = forms.CharField(max_length=160, label="Title")
    # The form's idempotency key (dustdevils.idempotency): a double click sets up one conflict.
    key = forms.CharField(max_length=64, required=False, widget=forms.HiddenInput)
    stakes = forms.TypedChoiceField(
        choices=[(n, str(n) if n else "None") for n in range(4)], coerce=int, initial=0,
        label="Stakes (chips)",
    )  # fmt: skip
    stud = forms.TypedChoiceField(
        choices=[(0, "No stud hand"), (3, "3-card stud"), (5, "5-card stud"), (7, "7-card stud")],
        coerce=int, initial=5, label="The Dealer's stud hand",
    )  # fmt: skip
    stud_goal = forms.CharField(max_length=300, required=False, label="What the stud stands for")
    session = SessionChoiceField(
        queryset=GameSession.objects.none(), required=False, label="Session",
        empty_label="No session",
        # A session ended (or removed) since the form was loaded: say so, never a bare refusal.
        error_messages={"invalid_choice": "That session has ended or is gone since this page "
                        "was loaded: choose another, or no session."},
    )  # fmt: skip
    recovery_character = forms.ModelChoiceField(
        queryset=Character.objects.none(), required=False, label="Recovery conflict for",
        empty_label="Not a recovery conflict",
        error_messages={"invalid_choice": "That character has nothing to recover now (or has "
                        "left play): choose another."},
    )  # fmt: skip
    recovery_points = forms.IntegerField(
        min_value=1, max_value=20, required=False, label="Points to recover"
    )
    # R32: a conflict that settles an action of a fight's round (from the fight's console).
    fight_round = forms.IntegerField(min_value=1, required=False, widget=forms.HiddenInput)

    def __init__(
        self, campaign: Campaign, *args: Any, fight: Fight | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        self.fight = fight
        sessions = campaign.sessions.exclude(status=GameSession.Status.ENDED).order_by("-number")
        session_field = self.fields["session"]
        assert isinstance(session_field, forms.ModelChoiceField)
        session_field.queryset = sessions
        self.fields["session"].initial = next(
            (s.pk for s in sessions if s.status == GameSession.Status.OPEN), None
        )
        in_play = list(characters_in_play(campaign).select_related("player"))  # R17: none gone
        chosen = [c for c in in_play if c.is_pc or c.is_important]
        self.characters = sorted(chosen, key=lambda c: (not c.is_pc, c.name))  # PCs first
        recovery_field = self.fields["recovery_character"]
        assert isinstance(recovery_field, forms.ModelChoiceField)
        recovery_field.queryset = campaign.characters.filter(
            pk__in=[c.pk for c in in_play if c.is_pc and recoverable(c)]
        )
        fighting = {s.character_id for s in fight.seats.all() if s.character_id} if fight else set()
        if fight is not None:
            self.fields["title"].initial = f"{fight.title}, round {fight.round}"
            self.fields["fight_round"].initial = fight.round
            self.fields["session"].initial = fight.session_id
        for c in self.characters:
            self.fields[f"take_{c.pk}"] = forms.BooleanField(
                required=False, initial=c.pk in fighting if fight else c.is_pc,
                label=f"{c.name} takes part",
            )  # fmt: skip
            self.fields[f"goal_{c.pk}"] = forms.CharField(
                max_length=300, required=False, label=f"{c.name}'s goal"
            )
            self.fields[f"side_{c.pk}"] = forms.ChoiceField(
                choices=Side.choices, initial="players" if c.is_pc else "dealer",
                label=f"{c.name}'s side",
            )  # fmt: skip

    @property
    def rows(self) -> list[SeatRow]:
        return [
            SeatRow(c, self[f"take_{c.pk}"], self[f"goal_{c.pk}"], self[f"side_{c.pk}"])
            for c in self.characters
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        recovering = data.get("recovery_character")
        if recovering is not None:
            points = data.get("recovery_points")
            if not points:
                raise forms.ValidationError("Say how many points the recovery would restore (R22).")
            if points > recoverable(recovering):
                raise forms.ValidationError(
                    f"{recovering.name} has only {recoverable(recovering)} point(s) to recover "
                    "(attributes at 0 don't recover, R17)."
                )
            data[f"take_{recovering.pk}"] = True
        if not any(data.get(f"take_{c.pk}") for c in self.characters if c.is_pc):
            raise forms.ValidationError("Tick at least one player character.")
        return data

    def stud_size(self) -> int:
        if self.cleaned_data.get("recovery_character") is not None:
            return engine.recovery_stud_size(self.cleaned_data["recovery_points"])  # R22
        return int(self.cleaned_data["stud"])

    def hands(self) -> list[HandSpec]:
        d = self.cleaned_data
        out = [
            HandSpec(character=c, side=d[f"side_{c.pk}"], goal=d.get(f"goal_{c.pk}", ""))
            for c in self.characters
            if d.get(f"take_{c.pk}")
        ]
        if self.stud_size():
            out.append(HandSpec(stud_size=self.stud_size(), side="dealer", goal=d["stud_goal"]))
        return out

    def recovery(self) -> tuple[Character, int] | None:
        c = self.cleaned_data.get("recovery_character")
        return (c, self.cleaned_data["recovery_points"]) if c is not None else None


def recoverable(character: Character) -> int:
    """R22/R17: Difficulty that recovery can give back (attributes at 0 don't recover)."""
    return sum(
        character.rating(a) - character.current(a) for a in ATTRIBUTES if character.current(a) > 0
    )
