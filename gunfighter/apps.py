from __future__ import annotations

from django.apps import AppConfig


class GunfighterConfig(AppConfig):
    """The Gunfighter (seed 003): a companion game at the table (the rules live in
    gunfighter.engine; the cards, pistols and mats stay on the table)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "gunfighter"
    verbose_name = "The Gunfighter"

    def ready(self) -> None:
        from campaigns import tablegames
        from campaigns.running import register
        from conflicts import rulings
        from gunfighter.models import Gunfight
        from gunfighter.rulings import RULINGS
        from gunfighter.running import running

        register("gunfighter", running=running, model=Gunfight)
        tablegames.register(
            tablegames.TableGame(
                kind="gunfighter",
                name="The Gunfighter",
                players="2\u20136 players",
                blurb="a real-time card duel: the app keeps lives, covert cards and the clock",
                url_name="gunfighter:list",
                order=20,
            )
        )
        rulings.register(*RULINGS)
