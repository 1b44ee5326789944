"""The sign-up form: a username, an optional email address and the password twice."""

from __future__ import annotations

from typing import ClassVar

from django import forms
from django.contrib.auth.forms import UserCreationForm, UsernameField
from django.contrib.auth.models import User


class SignupForm(UserCreationForm):  # type: ignore[type-arg]
    email = forms.EmailField(
        required=False,
        help_text="Only for your own records: the table never emails anyone.",
    )

    class Meta:
        model = User
        fields = ("username", "email")
        field_classes: ClassVar[dict[str, type[forms.Field]]] = {"username": UsernameField}
