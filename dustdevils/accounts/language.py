"""Which language a person reads (issue 39): the one they chose in the header, else their
browser's ``Accept-Language`` (Django's ``LocaleMiddleware``), else English.

The choice is kept in the session (a guest's lives there only) and, for a logged-in person, on
their account (``Preference``), copied into the session at each login: a request reads the
session it already has, never one more query. The picker posts to ``choose``, which is
Django's own ``set_language`` (its checks, its cookie, its safe redirect) plus the saving."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from asgiref.sync import iscoroutinefunction
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.utils import translation
from django.utils.decorators import sync_and_async_middleware
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

from dustdevils.accounts.models import Preference

SESSION_KEY = "language"


def known(code: object) -> str | None:
    """``code`` if it is one of the site's languages, else None."""
    return code if isinstance(code, str) and code in dict(settings.LANGUAGES) else None


def _use(request: HttpRequest, code: str | None) -> None:
    if code is not None and code != getattr(request, "LANGUAGE_CODE", None):
        translation.activate(code)
        request.LANGUAGE_CODE = code


@sync_and_async_middleware
def chosen_language(get_response: Callable[[HttpRequest], Any]) -> Callable[..., Any]:
    """Middleware, after ``LocaleMiddleware`` and the session: a language chosen in the picker
    wins over the browser's. (A live stream, async, reads its session the async way.)"""
    if iscoroutinefunction(get_response):

        async def middleware(request: HttpRequest) -> HttpResponseBase:
            session = getattr(request, "session", None)
            _use(request, known(await session.aget(SESSION_KEY)) if session is not None else None)
            response: HttpResponseBase = await get_response(request)
            return response

        return middleware

    def sync_middleware(request: HttpRequest) -> HttpResponseBase:
        session = getattr(request, "session", None)
        _use(request, known(session.get(SESSION_KEY)) if session is not None else None)
        response: HttpResponseBase = get_response(request)
        return response

    return sync_middleware


@require_POST
def choose(request: HttpRequest) -> HttpResponse:
    """The header's picker: ``language`` and ``next``, through Django's ``set_language``."""
    response = set_language(request)
    code = known(request.POST.get("language"))
    if code is not None:
        request.session[SESSION_KEY] = code
        if request.user.is_authenticated:
            Preference.objects.update_or_create(user=request.user, defaults={"language": code})
    return response


def on_login(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """At login the account's language comes into the session; a guest's choice made before
    logging in is kept for an account that has none yet."""
    if request is None or not hasattr(request, "session"):
        return
    saved = Preference.objects.filter(user=user).values_list("language", flat=True).first()
    if known(saved):
        request.session[SESSION_KEY] = saved
    elif (guest := known(request.session.get(SESSION_KEY))) is not None:
        Preference.objects.create(user=user, language=guest)
