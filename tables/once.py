"""Create forms applied once (issue 28): each form prints a fresh idempotency key
(``dustdevils.idempotency.FreshKey``); the service that carries it out makes its row through
``made_once``, which keeps the key with what it made (``FormKey``). The same form sent again —
a double click, a resent request, twenty identical posts at once — gets the row the first one
made, and nothing more is made. A form sent without a key (a script) is made each time.

A key belongs to its form (issue 37, B8): the same key sent with ANOTHER form is another key
there — never an answer with what the first form made (a note for a new fight was a 500; a
note's key on the invitation form showed a link that answered 404)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import TypeVar

from django.apps import apps
from django.contrib.auth.models import User
from django.db import models, transaction

from campaigns.models import Campaign, FormKey
from campaigns.services import CampaignError, invite_create, invite_token

M = TypeVar("M", bound=models.Model)


class MadeAndGone(CampaignError):
    """The form was carried out before, and what it made has since been removed."""


def form_of(make: Callable[[], object]) -> str:
    """The form a ``make`` carries out: the code it is (its module and qualified name, as
    ``fights.views.fight_new.<locals>.<lambda>``): each view's form makes with its own."""
    return f"{getattr(make, '__module__', '')}.{getattr(make, '__qualname__', repr(make))}"


def stored_key(form: str, key: str) -> str:
    """What ``FormKey.key`` holds for ``key`` sent with ``form``: a digest of both (64 hex
    characters, the column's size), so each form has keys of its own."""
    return hashlib.sha256(f"{form}\n{key}".encode()).hexdigest()


def made_once(*, user: User, key: str, make: Callable[[], M], form: str = "") -> M:
    """``make()`` once per form: the row made by the first request with ``key`` from ``user``
    with this form (``MadeAndGone`` if it was removed since), else ``make()``'s new row, its
    key kept in the same transaction. ``make`` writes in the campaign of what it returns (or
    makes a campaign). ``form`` names the form (by default ``form_of(make)``, the view's own
    code): a key sent with another form is a new key.

    The person's own row is locked first, so their identical requests queue up and each finds
    what the first made (PostgreSQL; SQLite's IMMEDIATE transactions queue anyway); the key's
    unique constraint stands guard all the same."""
    key = key[:64]
    if not key:
        return make()
    key = stored_key(form or form_of(make), key)
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).values_list("pk").first()
        seen = FormKey.objects.filter(user=user, key=key).first()
        if seen is not None:
            found = apps.get_model(seen.made_model)._default_manager.filter(pk=seen.made_id)
            made = found.first()
            if made is None:
                raise MadeAndGone("That form was sent before, and what it made is gone.")
            return made  # type: ignore[no-any-return]
        made = make()
        campaign = made if isinstance(made, Campaign) else made.campaign  # type: ignore[attr-defined]
        FormKey.objects.create(
            user=user, key=key, campaign=campaign, made_model=made._meta.label_lower,
            made_id=made.pk,
        )  # fmt: skip
        return made


def invite_once(*, campaign: Campaign, actor: User, label: str, key: str) -> str:
    """An invitation link's token, made once per form: the same form sent again finds the
    invitation the first made and shows the same link (its token is ``invite_token``'s, worked
    out again: only its hash is stored). Without a key, a new link each time. The form is the
    campaign's invitation form: the same key sent for another campaign, or with another form,
    is another key (and another link)."""
    if not key:
        return invite_create(campaign=campaign, actor=actor, label=label)[1]
    key = stored_key(f"campaigns.invite:{campaign.pk}", key[:64])
    made_once(
        user=actor, key=key, form="campaigns.invite",
        make=lambda: invite_create(campaign=campaign, actor=actor, label=label, key=key)[0],
    )  # fmt: skip
    return invite_token(actor=actor, key=key)
