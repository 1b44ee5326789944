"""Sign up; logging in and out and changing the password are Django's own views."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from dustdevils.accounts.forms import SignupForm
from dustdevils.types import HtmxHttpRequest


def safe_next(request: HtmxHttpRequest) -> str:
    """``next`` from the form or query string if it is a path on this site, else "".
    (This is how an invitation link brings a new player back to it after signing up.)"""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target.startswith("/") and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return ""


@require_http_methods(["GET", "POST"])
def signup(request: HtmxHttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect(safe_next(request) or settings.LOGIN_REDIRECT_URL)
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(safe_next(request) or settings.LOGIN_REDIRECT_URL)
    return render(request, "registration/signup.html", {"form": form, "next": safe_next(request)})


def locked_out(request: HttpRequest, *_: Any) -> HttpResponse:
    """django-axes' lockout response (AXES_LOCKOUT_CALLABLE): a page in plain words, 429."""
    cool_off: timedelta = settings.AXES_COOLOFF_TIME
    context = {
        "username": request.POST.get("username", ""),
        "failure_limit": settings.AXES_FAILURE_LIMIT,
        "minutes": round(cool_off.total_seconds() / 60),
    }
    return render(request, "registration/locked_out.html", context, status=429)
