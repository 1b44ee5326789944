"""R21: the Devil rating a player sets for a session is the one every Deal of that session uses
(R11: + or − the Devil rating when the Devil is in play); without one, the standing rating."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth.models import User

from campaigns.models import Membership
from campaigns.services import devil_rating_set
from conflicts.engine import conflict as engine
from conflicts.engine.serial import state_from_data
from conflicts.services import HandSpec, conflict_create, conflict_move

pytestmark = pytest.mark.django_db


def dealt(campaign: Any, dealer: User, pc: Any, session: Any, devil: int) -> int:
    """Cards in ``pc``'s hand after a Deal on Hand + Eye (4 + 3) with the Devil in play."""
    conflict = conflict_create(
        campaign=campaign,
        actor=dealer,
        title="Whiskey at the Silver Dollar",
        hands=[HandSpec(character=pc), HandSpec(stud_size=5)],
        session=session,
    )
    seat = Membership.objects.get(campaign=campaign, user=dealer)
    pid = f"c{pc.pk}"
    for version, move in enumerate(
        [engine.Approve(pid, ("hand", "eye"), devil=devil), engine.Deal(salt="")]
    ):
        conflict_move(
            conflict_id=conflict.pk,
            membership=seat,
            move=move,
            version=version,
            rng=random.Random(3),
        )
    conflict.refresh_from_db()
    return len(state_from_data(conflict.state).participant(pid).hand)


def test_it_deals_with_the_sessions_devil_rating_R21(
    campaign: Any, dealer: User, player_a: User, pc_a: Any, open_session: Any
) -> None:
    assert pc_a.devil_rating == 2  # the standing rating
    devil_rating_set(session=open_session, character=pc_a, rating=3, actor=player_a)
    assert dealt(campaign, dealer, pc_a, open_session, devil=+1) == 4 + 3 + 3
    assert dealt(campaign, dealer, pc_a, open_session, devil=-1) == 4 + 3 - 3
    devil_rating_set(session=open_session, character=pc_a, rating=1, actor=player_a)
    assert dealt(campaign, dealer, pc_a, open_session, devil=+1) == 4 + 3 + 1


def test_it_falls_back_to_the_standing_rating_R21(
    campaign: Any, dealer: User, player_a: User, pc_a: Any, pc_b: Any, open_session: Any
) -> None:
    devil_rating_set(session=open_session, character=pc_b, rating=3, actor=dealer)
    assert dealt(campaign, dealer, pc_a, open_session, devil=+1) == 4 + 3 + 2  # none set
    assert dealt(campaign, dealer, pc_a, None, devil=+1) == 4 + 3 + 2  # no session


def test_it_keeps_the_rating_of_its_own_session_R21(
    campaign: Any, dealer: User, player_a: User, pc_a: Any, open_session: Any
) -> None:
    from campaigns.game_sessions import session_end, session_start

    devil_rating_set(session=open_session, character=pc_a, rating=3, actor=player_a)
    session_end(session_id=open_session.pk, actor=dealer)
    second = session_start(campaign=campaign, actor=dealer)
    devil_rating_set(session=second, character=pc_a, rating=1, actor=player_a)
    assert dealt(campaign, dealer, pc_a, second, devil=+1) == 4 + 3 + 1


def test_it_uses_the_rating_the_dealer_set_for_an_npc_R21(
    campaign: Any, dealer: User, pc_a: Any, npc: Any, open_session: Any
) -> None:
    devil_rating_set(session=open_session, character=npc, rating=1, actor=dealer)
    conflict = conflict_create(
        campaign=campaign,
        actor=dealer,
        title="The mayor's offer",
        hands=[HandSpec(character=pc_a), HandSpec(character=npc)],
        session=open_session,
    )
    state = state_from_data(conflict.state)
    assert state.participant(f"c{npc.pk}").devil_rating == 1  # not the standing 3


def test_the_campaign_page_calls_each_player_to_set_their_devil_rating_at_the_start_R21(
    client_as: Any, campaign: Any, dealer: User, player_a: User, player_b: User, pc_a: Any,
    pc_b: Any, open_session: Any,
) -> None:  # fmt: skip
    """The game night: players scrolled 5,132 px to set their Devil rating. At a session's
    start the campaign page says so at the top of the characters, with the form; the call
    goes once the rating is set, and names only the viewer's own characters."""
    from tests.characters.conftest import text_of

    url = campaign.get_absolute_url()
    html = client_as(player_a).get(url).content.decode()
    words = text_of(html)
    assert "Session 1 has started: set your Devil rating R21" in words
    call = html.split('class="devil-call"')[1].split("</div>")[0]
    assert f'name="character" value="{pc_a.pk}"' in call
    assert f'name="character" value="{pc_b.pk}"' not in call
    # It sits at the top of the characters, before the first character's card.
    assert html.index('class="devil-call"') < html.index(f">{pc_a.name}<")
    response = client_as(player_a).post(
        f"/c/{campaign.slug}/sessions/1/devil/", {"character": pc_a.pk, "rating": 3}
    )
    assert response.status_code == 302
    assert "set your Devil rating" not in text_of(client_as(player_a).get(url).content.decode())
    assert "set your Devil rating" in text_of(client_as(player_b).get(url).content.decode())
    assert "set your Devil rating" not in text_of(client_as(dealer).get(url).content.decode())
