from __future__ import annotations

from django.apps import AppConfig


class ShowdownConfig(AppConfig):
    """Saloon Showdown (seed 001): a companion game at the table (the rules live in
    showdown.engine; how the app reads them, in showdown.rulings)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "showdown"
    verbose_name = "Saloon Showdown"

    def ready(self) -> None:
        from campaigns import tablegames
        from campaigns.running import register
        from conflicts import rulings
        from showdown.models import Showdown
        from showdown.rulings import RULINGS
        from showdown.running import running

        register("showdown", running=running, model=Showdown)
        tablegames.register(
            tablegames.TableGame(
                kind="showdown",
                name="Saloon Showdown",
                players="2\u20137 players",
                blurb="bluffs, duels and bounties: the cards on the table, the money on the phones",
                url_name="showdown:list",
                order=10,
            )
        )
        rulings.register(*RULINGS)
