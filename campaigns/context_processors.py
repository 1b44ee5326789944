"""What every page's header needs: the conflicts the viewer is seated in right now, so the
running table is one tap away from anywhere (issue 18). Lazy: read only when a template shows
it (base.html's header does, once per page; fragments and streams never do)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from campaigns.selectors import running_conflicts


def running_tables(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"running_tables": []}
    match = getattr(request, "resolver_match", None)
    kwargs = match.kwargs if match is not None else {}
    here = kwargs.get("conflict_id")
    # The campaign page shows its own running conflicts in the page, big.
    shown = (
        kwargs.get("slug") if match is not None and match.view_name == "campaigns:detail" else None
    )

    def read() -> list[Any]:
        # Not what this page already is, or already shows.
        return [
            r
            for r in running_conflicts(user)
            if r.conflict_id != here and (shown is None or r.campaign_slug != shown)
        ]

    return {"running_tables": SimpleLazyObject(read)}
