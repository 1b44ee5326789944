"""What the campaign views share: the logged-in request type and the PRG/htmx helpers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import User
from django.forms import BaseForm
from django.http import HttpResponse
from django.shortcuts import redirect
from django_htmx.http import HttpResponseClientRedirect

from campaigns.services import CampaignError
from dustdevils.parsing import an_id
from dustdevils.types import HtmxHttpRequest


class AuthedRequest(HtmxHttpRequest):
    """A request that passed ``login_required``."""

    user: User


def go(request: HtmxHttpRequest, url: str) -> HttpResponse:
    """Redirect; htmx follows it as a full page load."""
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


def apply(form: BaseForm, action: Callable[[dict[str, Any]], object]) -> bool:
    """Run ``action`` on a valid form; a refusal becomes the form's error. True if done."""
    if not form.is_valid():
        return False
    try:
        action(form.cleaned_data)
    except CampaignError as error:
        form.add_error(None, str(error))
        return False
    return True


def as_int(value: object) -> int:
    """A posted id or number; 0 (which matches nothing) when it is not one the database can
    hold (``dustdevils.parsing``)."""
    return an_id(value) or 0
