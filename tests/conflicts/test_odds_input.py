"""The odds meter reckons against the table as it is (issue 30), from what the viewer may see
alone (R10): its input is built from the same ``visible_cards`` set as every card a screen
shows, so it holds no hidden card, and two viewers whose hidden opposing cards differ get the
same input."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from typing import Any

import pytest

from cards.deck import FULL_DECK, Card, Deck, parse_cards
from cards.odds import Opponent, Table
from conflicts.engine import conflict as engine
from conflicts.selectors import advice


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def hand(pid: str, name: str, text: str, kind: engine.Kind = engine.Kind.PC, **kw: Any) -> Any:
    return engine.Participant(pid=pid, name=name, kind=kind, hand=cards(text), **kw)


def state_of(*participants: engine.Participant) -> engine.ConflictState:
    return engine.ConflictState(phase=engine.Phase.DRAW, participants=participants)


def input_for(state: engine.ConflictState, pid: str, *mine: str) -> Table:
    """What the meter of hand ``pid`` is worked out from, for the player of ``mine``."""
    seen = engine.visible_cards(state, set(mine) or {pid}, dealer=False)
    return advice.odds_table(advice.table_view(state, seen), pid)


JIM = "3♥ 3♣ 7♦ 7♣ 9♦ Q♦"


def posse(tom: str, stud: str, zeke: str, **jim: Any) -> engine.ConflictState:
    return state_of(
        hand("jim", "Jim", JIM, **jim),
        hand("tom", "Long Tom", tom, engine.Kind.NPC, side="dealer"),
        hand("stud", "The Dealer's stud", stud, engine.Kind.STUD, side="dealer", stud_size=5),
        hand("zeke", "Zeke", zeke),
    )


def test_two_viewers_with_different_hidden_opposing_cards_get_the_same_odds_input() -> None:
    """R10: the hidden cards differ, the input does not (and neither does the cache key)."""
    one = posse("A♠ A♥ K♠ K♥ Q♠ Q♥ J♠ J♥", "2♣ 2♦ 4♠ 5♠ 6♠", "8♣ 8♦ 10♠ 10♥ RJ")
    two = posse("4♣ 5♦ 6♥ 8♠ 10♣ J♣ K♦ A♦", "BJ 2♥ 2♠ 4♥ 5♥", "6♦ 8♥ J♦ Q♣ A♣")
    first, second = input_for(one, "jim"), input_for(two, "jim")
    assert first == second
    assert advice._table_key(9, "jim", first) == advice._table_key(9, "jim", second)
    assert first == Table(cards(JIM), (Opponent(8), Opponent(5), Opponent(5)), ())


def test_the_input_holds_only_cards_the_viewer_may_see_R10() -> None:
    state = posse(
        "A♠ A♥ K♠ K♥ Q♠ Q♥ J♠ J♥", "2♣ 2♦ 4♠ 5♠ 6♠", "8♣ 8♦ 10♠ 10♥ RJ",
        discarded=cards("5♣ 6♣"),
    )  # fmt: skip
    table = input_for(state, "jim")
    seen = engine.visible_cards(state, {"jim"}, dealer=False)
    assert set(table.cards_seen()) <= seen
    assert table.out == cards("5♣ 6♣")  # the player's own discards are out of the draw
    assert not set(table.unseen()) & seen
    hidden = {c for p in state.participants if p.pid != "jim" for c in p.hand}
    assert hidden <= set(table.unseen())  # every hidden card is still a card that may come


def test_it_reckons_with_every_other_hand_still_in_play_at_its_size_now() -> None:
    """Folded hands are out; the other hands count whatever their side (R14: the winner is
    the best lay at the table), at the sizes they have now (after a draw or an award)."""
    state = posse("A♠ A♥ K♠ K♥ Q♠ Q♥ J♠", "2♣ 2♦ 4♠ 5♠ 6♠ 7♠", "8♣ 8♦")
    folded = replace(state.participant("zeke"), folded=True)
    table = input_for(state.with_participant(folded), "jim")
    assert [o.size for o in table.opponents] == [7, 6]


def test_a_players_other_hand_is_known_to_them() -> None:
    """A player with two characters sees both hands: the other one is an opponent whose cards
    are all known, and none of them is dealt to anyone else."""
    state = posse("A♠ A♥ K♠ K♥ Q♠ Q♥ J♠ J♥", "2♣ 2♦ 4♠ 5♠ 6♠", "8♣ 8♦ 10♠ 10♥ RJ")
    table = input_for(state, "jim", "jim", "zeke")
    assert Opponent(5, cards("8♣ 8♦ 10♠ 10♥ RJ")) in table.opponents
    assert not set(cards("8♣ 8♦ 10♠ 10♥ RJ")) & set(table.unseen())


@pytest.mark.parametrize(
    ("folded", "words"),
    [
        ((), "against Long Tom's 8 cards and two other hands"),
        (("zeke",), "against Long Tom's 8 cards and the Dealer's 5-card stud"),
        (("zeke", "stud"), "against Long Tom's 8 cards"),
        (("zeke", "stud", "tom"), "with no other hand in play"),
    ],
)
def test_the_panel_names_what_it_reckons_against(folded: tuple[str, ...], words: str) -> None:
    state = posse("A♠ A♥ K♠ K♥ Q♠ Q♥ J♠ J♥", "2♣ 2♦ 4♠ 5♠ 6♠", "8♣ 8♦ 10♠ 10♥ RJ")
    for pid in folded:
        p = state.participant(pid)
        state = state.with_participant(replace(p, folded=True))
    seen = engine.visible_cards(state, {"jim"}, dealer=False)
    assert advice.reckons_against(advice.table_view(state, seen), "jim") == words


def test_the_meter_and_the_advisor_reckon_with_the_same_opponents(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The advisor ranks the discards against the opponents the meter reckons with."""
    state = posse("A♠ A♥ K♠ K♥ Q♠ Q♥ J♠ J♥", "2♣ 2♦ 4♠ 5♠ 6♠", "8♣ 8♦ 10♠ 10♥ RJ")
    seen = engine.visible_cards(state, {"jim"}, dealer=False)
    view = advice.table_view(state, seen)
    tables: list[Table] = []
    real = advice.discard_advice
    monkeypatch.setattr(advice, "ADVICE_DEALS", 100)
    monkeypatch.setattr(
        advice,
        "discard_advice",
        lambda table, *a, **kw: tables.append(table) or real(table, *a, **kw),
    )
    jim = state.participant("jim")
    advised = advice.hand_advice(1, jim, view, 2, compute=True)
    assert advised is not None
    assert len(advised) == 3
    assert tables == [advice.odds_table(view, "jim")]
    assert all(set(discards) <= set(jim.hand) for discards, _ in advised)


def test_the_deck_never_reaches_the_input() -> None:
    state = posse("A♠ A♥ K♠ K♥ Q♠ Q♥ J♠ J♥", "2♣ 2♦ 4♠ 5♠ 6♠", "8♣ 8♦ 10♠ 10♥ RJ")
    in_hands = {c for p in state.participants for c in p.hand}
    deck = Deck(tuple(c for c in FULL_DECK if c not in in_hands))
    dealt = replace(state, deck=deck)
    assert input_for(dealt, "jim") == input_for(state, "jim")


@pytest.mark.django_db
def test_the_rulings_page_states_the_opponents_model(client: Any) -> None:
    rulings = client.get("/rulings/").content.decode()
    assert "every other hand still in play" in rulings
    assert "its size now, no draw foreseen" in rulings
    assert "never a card you may not see (R10)" in rulings


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("The Dealer's stud", "against the Dealer's 7-card stud"),
        ("The posse", "against the posse's 7-card stud"),
        ("Rattlesnakes", "against Rattlesnakes' 7-card stud"),
    ],
)
def test_a_stud_is_named_as_the_dealer_named_it(name: str, words: str) -> None:
    state = state_of(
        hand("jim", "Jim", JIM),
        hand("stud", name, "2♣ 2♦ 4♠ 5♠ 6♠ 8♠ 9♠", engine.Kind.STUD, side="dealer", stud_size=7),
    )
    seen = engine.visible_cards(state, {"jim"}, dealer=False)
    assert advice.reckons_against(advice.table_view(state, seen), "jim") == words


def test_the_shared_cache_holds_no_card_under_keys_that_name_no_conflict_nor_seat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 28: the advisor's values in the shared cache (Redis, in production) held the
    player's cards in plain text under keys naming the conflict and the seat. Now a key is an
    HMAC of the whole input, and the advice's discards are places in the hand."""
    stored: dict[str, Any] = {}
    monkeypatch.setattr(advice.cache, "get", lambda key, default=None: stored.get(key, default))
    monkeypatch.setattr(
        advice.cache, "set", lambda key, value, *a, **kw: stored.update({key: value})
    )
    monkeypatch.setattr(advice, "ADVICE_DEALS", 100)
    state = posse("A♠ A♥ K♠ K♥ Q♠ Q♥ J♠ J♥", "2♣ 2♦ 4♠ 5♠ 6♠", "8♣ 8♦ 10♠ 10♥ RJ")
    view = advice.table_view(state, engine.visible_cards(state, {"jim"}, dealer=False))
    jim = state.participant("jim")
    advice.hand_odds(4242, jim, view, None)
    advised = advice.hand_advice(4242, jim, view, 2, compute=True)

    assert stored
    texts = {card.text for card in FULL_DECK}
    for key, value in stored.items():
        assert "4242" not in key
        assert "jim" not in key
        assert not any(text in repr(value) for text in texts)
    # Read back from the cache alone: the same advice, cards and all.
    assert advice.hand_advice(4242, jim, view, 2, compute=False) == advised


def test_a_screen_rendered_in_the_event_loop_never_waits_on_the_shared_cache(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 29: a live screen is rendered in the streams' event loop; a call to Redis there
    (the advice and the odds used to ask it at every update) held up every stream of the
    process, for a second a screen while Redis stalled. In the loop only the process's memory
    is asked: advice found before (in a worker thread: the streams' read) shows, advice never
    found shows as on its way, and the shared cache is never touched."""
    stalled: list[str] = []

    def stall(key: str, *args: Any, **kwargs: Any) -> None:
        stalled.append(key)
        time.sleep(0.5)  # what a stalled Redis does to its caller

    monkeypatch.setattr(advice.cache, "get", stall)
    monkeypatch.setattr(advice.cache, "set", stall)
    state = posse("A♠ A♥ K♠ K♥ Q♠ Q♥ J♠ J♥", "2♣ 2♦ 4♠ 5♠ 6♠", "8♣ 8♦ 10♠ 10♥ RJ")
    view = advice.table_view(state, engine.visible_cards(state, {"jim"}, dealer=False))
    jim = state.participant("jim")
    known = [([0, 1], 61)]
    found_key = f"{advice._table_key(7, 'jim', advice.odds_table(view, 'jim'))}:advice:1"
    advice._ADVICE.put(found_key, known)  # found by the streams' read, in its worker thread

    async def screens() -> tuple[Any, Any, Any, int]:
        ticks = 0

        async def other_streams() -> None:
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0.01)

        beating = asyncio.create_task(other_streams())
        await asyncio.sleep(0.05)
        odds = advice.hand_odds(7, jim, view, None)
        never_found = advice.hand_advice(7, jim, view, 2, compute=False)
        found = advice.hand_advice(7, jim, view, 1, compute=False)
        await asyncio.sleep(0.05)
        beating.cancel()
        return odds, never_found, found, ticks

    odds, never_found, found, ticks = asyncio.run(screens())
    assert stalled == []  # the shared cache was not asked in the loop
    assert odds.percent >= 0
    assert never_found is None
    assert found is not None
    assert [pct for _, pct in found] == [61]
    assert ticks >= 5  # the other streams went on meanwhile
