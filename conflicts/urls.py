"""URLs of the conflicts app: the Dealer's console, the player's view, the table view, the
Rulings page (included at the root by dustdevils/urls.py)."""

from __future__ import annotations

app_name = "conflicts"

urlpatterns: list = []  # type: ignore[type-arg]
