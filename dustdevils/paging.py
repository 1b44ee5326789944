"""Long lists on a page come a page at a time (issue 37, S7): an import may bring hundreds of
notes, links, sessions and characters, thousands of ledger rows and timeline lines, and no
page's time may grow with them. ``paged`` cuts a list (or a queryset, sliced in the database)
into Django's ``Page``; ``templates/_pager.html`` prints its way to the others, as
``?<name>=<n>#<anchor>``, so each list on a page pages on its own."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.core.paginator import Page, Paginator

PER_PAGE = 25


def paged(items: Sequence[Any] | Any, query: Mapping[str, str] | None, name: str,
          per: int = PER_PAGE) -> Page[Any]:  # fmt: skip
    """The page of ``items`` that ``query[name]`` asks for (the first for anything else; the
    last for a number beyond it), ``per`` to a page. Page objects know their ``name``."""
    page = Paginator(items, per).get_page((query or {}).get(name))
    page.name = name  # type: ignore[attr-defined]  # for the pager's links
    return page


def paged_into(context: dict[str, Any], query: Mapping[str, str] | None, *names: str,
               per: int = PER_PAGE) -> None:  # fmt: skip
    """Each of ``context[name]`` replaced by the rows of its page, its Page at ``<name>_page``."""
    for name in names:
        if name in context:
            page = paged(context[name], query, name, per)
            context[name], context[f"{name}_page"] = list(page.object_list), page
