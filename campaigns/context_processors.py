"""What every page's header needs: the "In play now" ribbon (``tables.running``), so every
running table the viewer is part of — a conflict, a fight, a saloon game — is one tap away from
anywhere (issues 18, 26). Lazy: read only when a template shows it (base.html's header does,
once per page; fragments and streams never do)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from tables import running


def running_tables(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"running_banner": None}
    match = getattr(request, "resolver_match", None)
    kwargs = match.kwargs if match is not None else {}
    # The campaign page shows its own running tables in the page, big.
    on_campaign_page = match is not None and match.view_name == "campaigns:detail"
    return {
        "running_banner": running.banner(
            user,
            here=running.here_of(kwargs),
            shown=kwargs.get("slug", "") if on_campaign_page else "",
        )
    }
