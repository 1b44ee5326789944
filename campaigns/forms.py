"""Forms of the campaign pages. They parse and tidy input; the rules live in the services."""

from __future__ import annotations

from typing import Any, ClassVar

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.models import Campaign, Note
from campaigns.starters import form_choices
from characters.models import Character
from dustdevils.idempotency import key_field
from dustdevils.parsing import IdsField


class CampaignForm(forms.Form):
    key = key_field()  # the form's idempotency key: twenty identical posts open one campaign
    name = forms.CharField(max_length=120, label=_("Name"))
    setting = forms.CharField(
        max_length=200,
        required=False,
        label=_("Setting"),
        help_text=_("Where it happens, e.g. Tombstone, Arizona Territory."),
    )
    pitch = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        label=_("Pitch"),
        help_text=_("The situation, in a few lines."),
    )
    starter = forms.ChoiceField(
        label=_("Start from"),
        choices=form_choices,  # a callable: the starters registered at start-up
        required=False,
        initial="",
        widget=forms.RadioSelect,
        help_text=_(
            "The Hanged Man is the rule book's sample situation: the town, its "
            "important non-player characters and the Dealer's notes, ready to play."
        ),
    )


class InviteForm(forms.Form):
    key = key_field()  # twenty identical posts make one link, shown to each of them
    label = forms.CharField(
        max_length=80,
        required=False,
        help_text="Who it is for, so you can tell the links apart.",
    )


class NoteForm(forms.ModelForm):  # type: ignore[type-arg]
    key = key_field()  # a new note's form: twenty identical posts write one note

    class Meta:
        model = Note
        fields = ("title", "body")
        widgets: ClassVar[dict[str, forms.Widget]] = {"body": forms.Textarea(attrs={"rows": 4})}


class NoteMoveForm(forms.Form):
    direction = forms.ChoiceField(choices=[("up", "Up"), ("down", "Down")])
    key = key_field()  # a double click moves the note one place


class WantedLinkForm(forms.Form):
    key = key_field()  # a new link's form: twenty identical posts make one link
    npc = forms.ModelChoiceField(queryset=Character.objects.none(), label="Non-player character")
    pc = forms.ModelChoiceField(queryset=Character.objects.none(), label="Player character")
    devil_touched = forms.CharField(
        max_length=200,
        required=False,
        label="Devil it touches",
        help_text="Which part of that character's Devil this one stirs up.",
    )
    notes = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(self, *args: Any, campaign: Campaign, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        characters = campaign.characters.filter(out_of_play=False).order_by("name")
        self.fields["npc"].queryset = characters.filter(kind=Character.Kind.NPC)  # type: ignore[attr-defined]
        self.fields["pc"].queryset = characters.filter(kind=Character.Kind.PC)  # type: ignore[attr-defined]


class SessionPlanForm(forms.Form):
    key = key_field()  # twenty identical posts plan one session
    date = forms.DateField(
        required=False, widget=forms.DateInput(attrs={"type": "date"}), label="Date"
    )
    notes = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        label="Plan",
        help_text="Only you see it.",
    )


class DevilRatingForm(forms.Form):
    """R21. Any whole number passes here: the service says in plain words what is allowed."""

    character = forms.IntegerField(widget=forms.HiddenInput)
    rating = forms.IntegerField(
        error_messages={
            "required": "Pick a Devil rating: 1, 2 or 3.",
            "invalid": "Pick a Devil rating: 1, 2 or 3.",
        }
    )


class SessionEndForm(forms.Form):
    """R22: ending a session, and whether damage carries over (for everyone or some)."""

    carry_over = forms.BooleanField(
        required=False, label="Damage carries over for everyone into the next session"
    )
    carry_over_for = IdsField(
        queryset=Character.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Damage carries over for",
    )
    # What to do with conflicts still in play (campaigns.game_sessions.session_end).
    in_play = forms.ChoiceField(
        choices=[("", "—"), ("finish", "Finish"), ("fold", "Fold"), ("leave", "Leave")],
        required=False,
    )

    def __init__(self, *args: Any, campaign: Campaign, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["carry_over_for"]
        assert isinstance(field, forms.ModelMultipleChoiceField)
        field.queryset = campaign.characters.filter(out_of_play=False)
