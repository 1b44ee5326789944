"""Who sees what in a fight (R30): ``visible_cards`` is the one place that decides it.

The running order's progress, the cards played, the card counts and the discards are public. A
combatant's unplayed cards (and its sleeve) are seen by its player and the Dealer; an NPC's or
extras' only by the Dealer, until played; a sleeve shows to others as one face-down card; the
deck's order is seen by nobody. Fixed scenes first, then hypothesis plays random fights (legal
and illegal moves) and checks, after every move, the 54 cards (R25, R31) and visibility.
"""

from __future__ import annotations

import random
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards.deck import RED_JOKER, Card, parse_card
from cards.dice import Opposed
from fights.engine.action_deck import (
    DEALER,
    Abandon,
    Act,
    DealRound,
    EndFight,
    EndRound,
    FightState,
    FightView,
    Guts,
    IllegalMove,
    Join,
    Leave,
    Move,
    Pass,
    Phase,
    Quickness,
    RollQuickness,
    SetCap,
    Sleeve,
    Speed,
    all_cards,
    apply,
    new_fight,
    up,
    view_for,
    visible_cards,
    visible_fate_draws,
)
from tests.conftest import depth
from tests.fights.fight_kit import (
    BART,
    GANG,
    JIM,
    KATE,
    bart,
    check_conserved,
    dealt,
    fight,
    gang,
    jim,
    kate,
    step,
)

TOTALS = {JIM: 13, KATE: 5, BART: 17, GANG: 9}
TOP = "2♣ A♠ 9♦ K♥ 3♠ 10♣ 10♠ 10♥ 10♦ 7♣ 7♦"
PLAYERS = ((JIM,), (KATE,))


def posse() -> FightState:
    return fight(jim(), kate(), bart(), gang())


def _view_cards(view: FightView) -> set[Card]:
    out: set[Card] = set(view.discards)
    out.update(p.card for p in view.table)
    out.update(card for _, card in view.running_order)
    if view.up_card is not None:
        out.add(view.up_card)
    for line in view.combatants:
        out.update(line.hand or ())
        if line.sleeve is not None:
            out.add(line.sleeve)
    return out


def test_r30_after_the_deal_each_player_sees_only_their_own_cards() -> None:
    state = dealt(posse(), TOTALS, TOP).state
    jim_sees = visible_cards(state, [JIM], dealer=False)
    assert set(state.combatant(JIM).hand) <= jim_sees
    assert not set(state.combatant(KATE).hand) & jim_sees
    assert not set(state.combatant(BART).hand) & jim_sees
    dealer_sees = visible_cards(state, [], dealer=True)
    for c in state.combatants:
        assert set(c.hand) <= dealer_sees
    assert visible_cards(state, [], dealer=False) == set()


def test_r30_npc_and_extras_cards_are_never_shown_to_a_player() -> None:
    """Known failure of other tools: NPC cards shown to players. Even a player whose viewer
    wrongly names the NPC does not see its cards; the Dealer does."""
    state = dealt(posse(), TOTALS, TOP).state
    for viewer in ([JIM], [JIM, BART], [BART, GANG], [KATE, GANG]):
        seen = visible_cards(state, viewer, dealer=False)
        assert not set(state.combatant(BART).hand) & seen
        assert not set(state.combatant(GANG).hand) & seen
        view = view_for(state, viewer, dealer=False)
        bart_line = next(line for line in view.combatants if line.cid == BART)
        assert bart_line.hand is None
        assert bart_line.cards == 4  # the count is public
        assert all(cid in (JIM, KATE) for cid, _ in view.running_order)


def test_r30_a_played_npc_card_is_public() -> None:
    state = dealt(posse(), TOTALS, TOP).state
    state = step(state, Act(JIM, "shoots")).state
    state = step(state, Pass(KATE)).state
    state = step(state, Act(BART, "shoots back")).state
    assert parse_card("10♠") in visible_cards(state, [JIM], dealer=False)
    assert parse_card("K♥") in visible_cards(state, [], dealer=False)  # passed: discards
    assert parse_card("10♥") not in visible_cards(state, [JIM], dealer=False)


def test_r30_a_sleeve_is_one_face_down_card_to_others() -> None:
    state = dealt(posse(), TOTALS, TOP).state
    state = step(state, Act(JIM, "shoots")).state
    state = step(state, Sleeve(KATE)).state
    k = parse_card("K♥")
    assert k in visible_cards(state, [KATE], dealer=False)
    assert k in visible_cards(state, [], dealer=True)
    assert k not in visible_cards(state, [JIM], dealer=False)
    line = next(x for x in view_for(state, [JIM], dealer=False).combatants if x.cid == KATE)
    assert (line.has_sleeve, line.sleeve) == (True, None)
    own = next(x for x in view_for(state, [KATE], dealer=False).combatants if x.cid == KATE)
    assert own.sleeve == k


def test_r30_nobody_sees_the_deck_not_even_the_dealer() -> None:
    state = dealt(posse(), TOTALS, TOP).state
    assert not set(state.deck.stock) & visible_cards(state, [JIM, KATE], dealer=True)
    assert view_for(state, [], dealer=True).deck_left == len(state.deck.stock)


def test_r30_whose_card_is_up_is_public_but_not_the_card() -> None:
    state = dealt(posse(), TOTALS, TOP).state
    assert view_for(state, [KATE], dealer=False).up == JIM
    assert view_for(state, [KATE], dealer=False).up_card is None
    assert view_for(state, [JIM], dealer=False).up_card == parse_card("A♠")


def test_r30_the_red_jokers_fate_draw_is_hidden_until_it_is_played() -> None:
    state = dealt(posse(), TOTALS, "2♣ A♠ 9♦ RJ 3♠ 10♣ 10♠ 10♥ 10♦ 7♣ 7♦").state
    assert visible_fate_draws(state, [JIM], dealer=False) == ()
    assert len(visible_fate_draws(state, [KATE], dealer=False)) == 1
    assert len(visible_fate_draws(state, [], dealer=True)) == 1
    assert view_for(state, [JIM], dealer=False).fate_pot is None  # it would count the draw
    state = step(state, Act(KATE, "dives", card=RED_JOKER)).state
    assert len(visible_fate_draws(state, [JIM], dealer=False)) == 1


def test_r30_every_card_in_a_view_is_one_visible_cards_allows() -> None:
    state = dealt(posse(), TOTALS, TOP).state
    state = step(state, Act(JIM, "shoots")).state
    state = step(state, Sleeve(KATE)).state
    for viewer, dealer in (([JIM], False), ([KATE], False), ([], False), ([], True)):
        view = view_for(state, viewer, dealer=dealer)
        assert _view_cards(view) <= visible_cards(state, viewer, dealer=dealer)


# --- Random fights -------------------------------------------------------------------------------

_CARD = re.compile(r"(?:10|[2-9JQKA])[♣♦♥♠]|\bRJ\b|\bBJ\b")
VIEWERS: tuple[tuple[tuple[str, ...], bool], ...] = (
    ((JIM,), False),
    ((KATE,), False),
    ((JIM, BART), False),  # a service mistake: a player's viewer naming an NPC
    ((), False),  # an outsider or anonymous
    ((), True),  # the Dealer
)


def _hidden(state: FightState) -> dict[Card, str]:
    """Every card now in a hand or a sleeve, with its holder."""
    out: dict[Card, str] = {}
    for c in state.combatants:
        for card in c.hand:
            out[card] = c.cid
        if c.sleeve is not None:
            out[c.sleeve] = c.cid
    return out


def _check_visibility(state: FightState) -> None:
    hidden = _hidden(state)
    public = set(state.deck.discards) | {p.card for p in state.table}
    for viewer, dealer in VIEWERS:
        seen = visible_cards(state, viewer, dealer=dealer)
        assert public <= seen
        assert not seen & set(state.deck.stock)  # R30: the deck's order, never
        for card, holder in hidden.items():
            kind = state.combatant(holder).kind.value
            allowed = dealer or (holder in viewer and kind == "pc")
            assert (card in seen) == allowed, (card, holder, viewer, dealer)
        view = view_for(state, viewer, dealer=dealer)
        assert _view_cards(view) <= seen
        for draw in visible_fate_draws(state, viewer, dealer=dealer):
            assert dealer or draw.revealed or draw.who in viewer
        for draw in state.fate_draws:
            if not draw.revealed:
                assert draw.cause is RED_JOKER
                assert draw.who != DEALER


def _moves(state: FightState, draw: st.DrawFn) -> list[Move]:
    cids = [c.cid for c in state.combatants]
    some = draw(st.sampled_from(cids))
    moves: list[Move] = [SetCap(some, draw(st.sampled_from([None, 1, 5, 8]))), Abandon(some)]
    if state.phase == Phase.QUICKNESS:
        moves += [
            Quickness(some, draw(st.integers(0, 30)), bust=draw(st.booleans())),
            RollQuickness(some),
            Guts(some, draw(st.integers(0, 12))),
            DealRound(),
        ]
        # Mostly: settle everyone and deal, so the fights get going.
        for c in state.combatants:
            moves.append(RollQuickness(c.cid) if c.total is None else DealRound())
    elif state.phase == Phase.COUNTDOWN:
        current = up(state)
        holder = current[0].cid if current else some
        speed = draw(st.sampled_from(list(Speed)))
        held = list(_hidden(state)) or [RED_JOKER]
        moves += [
            Act(holder, "acts", speed=speed, cost=draw(st.integers(0, 4)),
                consecutive=draw(st.booleans())),
            Act(holder, "acts"),
            Sleeve(holder),
            Pass(holder),
            Pass(holder),
            Act(some, "out of turn", card=draw(st.sampled_from(held)),
                interrupt=draw(st.booleans()),
                opposed=draw(st.sampled_from([None, *Opposed]))),
            EndRound(),
        ]  # fmt: skip
        if current is None:
            moves += [EndRound()] * 3
        for c in state.combatants:
            if c.sleeve is not None:
                moves.append(Act(c.cid, "sleeve", card=c.sleeve))
                moves.append(Act(c.cid, "cuts in", card=c.sleeve, interrupt=True,
                                 opposed=draw(st.sampled_from(list(Opposed)))))  # fmt: skip
            if RED_JOKER in c.hand:
                moves.append(Act(c.cid, "red", card=RED_JOKER, interrupt=draw(st.booleans())))
    if state.round > 4:
        moves.append(EndFight())
    if draw(st.integers(0, 30)) == 0:  # now and then someone falls, or a newcomer arrives
        moves.append(Leave(some))
        moves.append(Join(jim(cid=f"new{state.round}", name=f"Newcomer {state.round}")))
    return moves


@settings(max_examples=depth(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(min_value=0, max_value=2**32),
    st.lists(st.booleans(), min_size=4, max_size=4),
    st.data(),
)
def test_r25_r30_r31_random_fights_conserve_the_54_and_never_leak_a_card(
    seed: int, surprised: list[bool], data: st.DataObject
) -> None:
    rng = random.Random(seed)
    combatants = [jim(), kate(), bart(), gang()]
    combatants = [
        c if not flag else type(c)(**{**c.__dict__, "surprised": True})
        for c, flag in zip(combatants, surprised, strict=True)
    ]
    state = new_fight(combatants, rng, fate_pot=(("white", 3), ("red", 1)))
    _check_visibility(state)
    for _ in range(data.draw(st.integers(20, 200))):
        if state.phase == Phase.OVER:
            break
        moves = _moves(state, data.draw)
        move = moves[data.draw(st.integers(0, len(moves) - 1))]
        try:
            outcome = apply(state, move, rng)
        except IllegalMove as error:
            refusal = str(error)
        else:
            refusal = ""
        if refusal:
            assert "not enough" not in refusal.lower()  # R25: a reshuffle, never that
            continue
        check_conserved(outcome.state)
        after = outcome.state
        _check_visibility(after)
        # A public timeline line never names a card that is hidden after the move (unless the
        # move shuffled it back out of sight, after it had gone to the public discards).
        shuffled = any("shuffled" in e for e in outcome.events)
        hidden = _hidden(after)
        for line in outcome.events:
            for token in _CARD.findall(line):
                card = parse_card(token)
                assert shuffled or card not in hidden, (line, hidden.get(card))
        public = set(after.deck.discards) | {p.card for p in after.table}
        for secret in outcome.secrets:
            for cid in secret.cids:
                assert after.combatant(cid)  # names real combatants
            # A secret line names only cards its readers may see: their own, or public ones.
            for token in _CARD.findall(secret.text):
                card = parse_card(token)
                assert card in public or hidden.get(card) in secret.cids, secret
        state = after
    assert sorted(c.index for c in all_cards(state)) == list(range(54))
