from __future__ import annotations

from django.apps import AppConfig


class SaloonConfig(AppConfig):
    """Death Enters the Saloon (seed 000): a second game at the same table (the rules live in
    saloon.engine)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "saloon"
    verbose_name = "Death Enters the Saloon"

    def ready(self) -> None:
        from campaigns import tablegames
        from campaigns.running import register
        from saloon.models import Saloon
        from saloon.running import running

        # Its tables in every page's "In play now" banner, their set-up and end announced.
        register("saloon", running=running, model=Saloon)
        tablegames.register(
            tablegames.TableGame(
                kind="saloon",
                name="Death Enters the Saloon",
                players="3\u20135 players",
                blurb="a one-shot about guilt and the fear of Death",
                url_name="saloon:list",
                order=0,
            )
        )
