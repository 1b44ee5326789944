"""The sign-up form: a username, an optional email address and the password twice."""

from __future__ import annotations

from typing import ClassVar

from django import forms
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm, UsernameField
from django.contrib.auth.models import User
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class SignupForm(UserCreationForm):  # type: ignore[type-arg]
    email = forms.EmailField(
        required=False,
        help_text=_("Only for your own records: the table never emails anyone."),
    )

    class Meta:
        model = User
        fields = ("username", "email")
        field_classes: ClassVar[dict[str, type[forms.Field]]] = {"username": UsernameField}


class LoginForm(AuthenticationForm):
    """Django's login form, refusing a username longer than any account's before anything is
    looked up: django-axes would write it into a 255-character column (a 500 on PostgreSQL).
    Django's own form only sets the field's ``max_length`` attribute, without its validator."""

    def clean_username(self) -> str:
        username: str = self.cleaned_data.get("username") or ""
        limit = User._meta.get_field("username").max_length or 150
        if len(username) > limit:
            raise forms.ValidationError(
                gettext("No username is longer than {limit} characters.").format(limit=limit),
                code="max_length",
            )
        return username
