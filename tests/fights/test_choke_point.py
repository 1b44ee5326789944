"""The per-viewer choke point, ``selectors.fight_view`` (R30), over random fights (hypothesis):
for every state of a random fight (sleeves, both jokers, interrupts, extended actions, Fate
draws, newcomers and leavers) and every viewer, every card anywhere in the context it gives a
template is one the engine's ``visible_cards`` allows that viewer; the rendered screens write no
other card; the table view gets public cards only; the Fate pot's counts are the Dealer's."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.template.loader import render_to_string
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaigns.models import GameSession, Membership
from conflicts.selectors import CardView
from fights.engine import action_deck as engine
from fights.engine.serial import state_to_data
from fights.models import Fight, FightSeat
from fights.reads import load_fight
from fights.selectors import fight_view
from fights.services import fight_create
from tests.conflicts.test_views import card_tokens, texts
from tests.fights.fight_kit import BART, GANG, JIM, KATE, random_states

pytestmark = pytest.mark.django_db


def cards_in(value: Any, seen: set[int] | None = None) -> Iterator[str]:
    """Every card anywhere in a context: CardViews inside dicts, lists, tuples, dataclasses."""
    seen = set() if seen is None else seen
    if id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, CardView):
        yield value.text
    elif isinstance(value, dict):
        for v in value.values():
            yield from cards_in(v, seen)
    elif isinstance(value, list | tuple | set):
        for v in value:
            yield from cards_in(v, seen)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from cards_in(getattr(value, f.name), seen)


@pytest.fixture
def kit_fight(
    campaign: Any, dealer: User, pc_a: Any, pc_b: Any, npc: Any, session: GameSession
) -> Fight:
    """A fight whose seats carry the engine kit's ids: Jim is Abe (player_a's), Kate is Bess
    (player_b's), Bart the Mayor (an NPC), the gang a line of extras."""
    fight = fight_create(
        campaign=campaign, actor=dealer, session=session, title="Kit", characters=[pc_a, pc_b, npc]
    )
    seats = {s.character_id: s for s in fight.seats.all()}
    for character, cid in ((pc_a, JIM), (pc_b, KATE), (npc, BART)):
        FightSeat.objects.filter(pk=seats[character.pk].pk).update(cid=cid)
    FightSeat.objects.create(fight=fight, cid=GANG, kind="extras", name="3 Pinkertons", size=3)
    loaded = load_fight(fight.pk)
    assert loaded is not None
    return loaded


MINE = {"dealer": set(), "player_a": {JIM}, "player_b": {KATE}}


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 100_000))
def test_r30_the_choke_point_gives_each_viewer_only_their_cards_over_random_fights(
    kit_fight: Fight, dealer: User, player_a: User, player_b: User, seed: int
) -> None:
    members = {
        m.user.username: m
        for m in Membership.objects.select_related("user", "campaign").filter(
            campaign=kit_fight.campaign
        )
    }
    states = random_states(seed, steps=60)
    for n, state in enumerate(states[:: max(1, len(states) // 10)]):
        kit_fight.state = state_to_data(state)
        public = texts(engine.visible_cards(state, (), dealer=False))
        for name in ("dealer", "player_a", "player_b"):
            membership = members[name]
            dealer_ = membership.is_dealer
            may = texts(engine.visible_cards(state, MINE[name], dealer=dealer_))
            context = fight_view(kit_fight, membership)
            given_ = set(cards_in(context))
            where = f"seed {seed}, state {n}, {name}"
            assert given_ <= may, f"{where}: the context holds {sorted(given_ - may)}"
            assert (context["fate_pot"] is not None) == dealer_, where
            html = render_to_string("fights/detail.html#main", context)
            assert card_tokens(html) <= may, (
                f"{where}: the screen writes {sorted(card_tokens(html) - may)}"
            )
            shared = fight_view(kit_fight, membership, as_table=True)
            assert set(cards_in(shared)) <= public, f"{where} (table view)"
            assert shared["fate_pot"] is None, where
            html = render_to_string("fights/table.html#main", shared)
            assert card_tokens(html) <= public, f"{where} (table view)"


def test_r30_the_choke_point_hides_other_hands_even_if_the_context_is_rendered_carelessly(
    kit_fight: Fight, player_a: User
) -> None:
    """The context itself holds no foreign card (not only what today's templates render): a
    player's view of another combatant has its hand as None and its sleeve as None."""
    membership = Membership.objects.select_related("campaign").get(
        user=player_a, campaign=kit_fight.campaign
    )
    states = [s for s in random_states(3, steps=80) if s.phase == engine.Phase.COUNTDOWN]
    assert states
    for state in states:
        kit_fight.state = state_to_data(state)
        context = fight_view(kit_fight, membership)
        for line in context["lines"]:
            if line.cid != JIM:
                assert not line.hand
                assert line.sleeve is None
        assert all(card.text for _, card, mine in context["order"] if mine)
        assert all(mine for _, _, mine in context["order"])
