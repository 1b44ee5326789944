"""“This turns into a gunfight” (issues 17, 26): the conflict a fight breaks out of hears of it
on its timeline, live, with the link to the fight (R32's mirror), and is settled by it, so it
never stays “running” beside the fight (the reading beside R32 on the Rulings page):

* before the Deal, it is called off by the engine's own Cancel, through the conflicts' move
  pipeline (chips spent in it go back; the phase is "cancelled", one of ``Conflict.OVER``);
* once over (done, folded, cancelled), it stays as it ended;
* with its cards out, the rules end it first (the Dealer finishes it, or folds it, R15): the
  fight is refused, and nothing is written.

Called by ``fights.services.fight_create`` inside its transaction, through the table kit only.
"""

from __future__ import annotations

from django.contrib.auth.models import User

from campaigns.models import Membership
from conflicts.engine.conflict import Cancel
from conflicts.models import Conflict
from tables.errors import Refused
from tables.moves import locked_read, table_note


def settle_the_conflict(conflict_id: int, actor: User, text: str) -> None:
    """``text`` on the conflict's timeline, then the conflict settled (the module's docstring).
    Raises ``Refused`` (the fights' ``FightError``) for a conflict whose cards are out, or for a
    Cancel the conflicts refuse (not the Dealer): the caller's transaction writes nothing."""
    # Not at the top: conflicts.services imports fights.services, which imports this module.
    from conflicts.services.moves import CONFLICTS, conflict_move

    conflict = locked_read(CONFLICTS, conflict_id, {}).conflict  # its phase, as it is now
    before_the_deal = conflict.phase == Conflict.Phase.SIZING
    if not (before_the_deal or conflict.is_over):
        raise Refused(
            f"The cards of “{conflict.title}” are out: finish it, or fold it, first; then it "
            "turns into a gunfight (before the Deal, starting the fight calls it off)."
        )
    table_note(CONFLICTS, table_id=conflict_id, lines=[{"actor": actor, "text": text}])
    if before_the_deal:
        dealer = Membership.objects.get(campaign_id=conflict.campaign_id, user=actor)
        conflict_move(conflict_id=conflict_id, membership=dealer, move=Cancel(), version=None)
