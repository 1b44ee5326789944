"""The upload forms: a campaign file, read and parsed as the form is cleaned."""

from __future__ import annotations

from typing import Any

from django import forms

from exchange.reading import ImportRefused, campaign_file_parse, max_file_bytes, too_big


class CampaignFileForm(forms.Form):
    file = forms.FileField(
        label="Campaign file",
        help_text="A .json file exported from a Dust Devils table.",
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
    )

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > max_file_bytes():  # refused before it is read, let alone parsed
            raise forms.ValidationError(too_big())
        try:
            self.cleaned_data["data"] = campaign_file_parse(upload.read())
        except ImportRefused as refused:
            raise forms.ValidationError(list(refused.problems)) from None
        return upload

    def refuse(self, refused: ImportRefused) -> None:
        """Show every problem the import found, in plain words, above the form."""
        for problem in refused.problems:
            self.add_error(None, problem)


class RestoreForm(CampaignFileForm):
    confirm = forms.BooleanField(
        label=(
            "Replace this campaign's characters, chips, notes, sessions and conflicts with "
            "the file's, and remove its fights"
        ),
        error_messages={"required": "Tick the box to confirm: restoring replaces what is here."},
    )
