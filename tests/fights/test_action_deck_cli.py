"""The action deck as a program: ``python -m fights.engine.action_deck`` (issue 17's engine
contract). One JSON object per line in, one per line out; a bad line answers {"error": ...}
and the next lines still work; never a traceback. Cards are written as in the hands CLI (R1)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cards.deck import FULL_DECK
from cards.dice import DiceSpec, roll

REPO = Path(__file__).resolve().parents[2]


def run(lines: list[Any] | bytes) -> tuple[list[dict[str, Any]], str, int]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    if isinstance(lines, bytes):
        data = lines
    else:
        text = "".join(
            (x if isinstance(x, str) else json.dumps(x, ensure_ascii=False)) + "\n" for x in lines
        )
        data = text.encode("utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "fights.engine.action_deck"],
        input=data,
        capture_output=True,
        cwd=REPO,
        env=env,
        timeout=120,
        check=False,
    )
    out = done.stdout.decode("utf-8")
    assert out == "" or out.endswith("\n")
    return (
        [json.loads(line) for line in out.splitlines()],
        done.stderr.decode("utf-8", "replace"),
        done.returncode,
    )


def deck(top: str) -> list[str]:
    """The 54 cards with ``top`` first, the rest in the fresh deck's order."""
    first = top.split()
    return first + [c.text for c in FULL_DECK if c.text not in first]


def test_r23_cards_13_gives_3_17_gives_4_and_the_cap() -> None:
    results, stderr, code = run(
        [
            {"op": "cards", "total": 13},
            {"op": "cards", "total": 17},
            {"op": "cards", "total": 7},
            {"op": "cards", "total": 40},
            {"op": "cards", "total": 40, "cap": 7},
            {"op": "cards", "total": 40, "cap": None},
            {"op": "cards", "total": 17, "bust": True},
        ]
    )
    assert (stderr, code) == ("", 0)
    assert [r["cards"] for r in results] == [3, 4, 2, 5, 7, 9, 0]


def test_r24_order_jokers_first_red_before_black_ties_by_suit() -> None:
    (result,), stderr, _ = run([{"op": "order", "cards": ["2♣", "RJ", "A♠", "A♥", "BJ"]}])
    assert stderr == ""
    assert result == {"order": ["RJ", "BJ", "A♠", "A♥", "2♣"]}
    (result,), _, _ = run([{"op": "order", "cards": ["ah", "as", "AD", "ac", "kS"]}])
    assert result == {"order": ["A♠", "A♥", "A♦", "A♣", "K♠"]}


def test_r27_roll_keeps_each_die_and_a_seed_repeats_it() -> None:
    results, stderr, _ = run([{"op": "roll", "dice": 3, "sides": 6, "seed": 7}] * 2)
    assert stderr == ""
    assert results[0] == results[1]
    expected = roll(DiceSpec(3, 6), random.Random(7))
    assert results[0] == {
        "dice": [list(f) for f in expected.faces],
        "total": expected.total,
        "bust": expected.bust,
    }
    seeded = [{"op": "roll", "dice": 5, "sides": 4, "seed": s} for s in range(40)]
    results, _, _ = run(seeded)
    assert any(len(die) > 1 for r in results for die in r["dice"])  # aces explode
    for r in results:
        assert r["total"] == max(sum(die) for die in r["dice"])
        assert r["bust"] == (sum(die == [1] for die in r["dice"]) * 2 > 5)


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ({"op": "roll", "dice": 0, "sides": 6}, "at least one die"),
        ({"op": "roll", "dice": 3, "sides": 7}, "no d7"),
        ({"op": "roll", "dice": 1, "sides": 20}, "no d20"),
        ({"op": "cards", "total": "thirteen"}, "whole number"),
        ({"op": "cards", "total": -2}, "whole number"),
        ({"op": "cards", "total": 13, "cap": 0}, "card cap"),
        ({"op": "order", "cards": ["A♠", "1♥"]}, "1♥"),
        ({"op": "order", "cards": ["A♠", "as"]}, "twice"),
        ({"op": "shuffle"}, "unknown op"),
        ("not json", "not a JSON object"),
        ([1, 2], "not a JSON object"),
        ({"op": "round", "deck": ["A♠"], "combatants": [{"name": "Jim", "total": 5}]}, "54"),
    ],
)
def test_an_illegal_line_answers_an_error_and_the_cli_goes_on(line: Any, words: str) -> None:
    results, stderr, code = run([{"op": "cards", "total": 5}, line, {"op": "cards", "total": 10}])
    assert (stderr, code) == ("", 0)
    assert results[0] == {"cards": 2}
    assert words in results[1]["error"]
    assert results[1]["line"] == 2
    assert results[2] == {"cards": 3}


def test_a_line_that_is_not_utf8_is_an_error_not_a_traceback() -> None:
    results, stderr, _ = run(b"\xff\xfe{\n" + b'{"op": "cards", "total": 13}\n\n')
    assert "Traceback" not in stderr
    assert "error" in results[0]
    assert results[1] == {"cards": 3}


def test_r25_round_deals_in_seat_order_from_the_top() -> None:
    (result,), stderr, _ = run(
        [
            {
                "op": "round",
                "deck": deck("2♣ A♠ 9♦ K♥ 3♠ 10♣ 10♠ 10♥ 10♦"),
                "combatants": [
                    {"name": "Jim", "total": 13, "bust": False, "surprised": False},
                    {"name": "Kate", "total": 5},
                    {"name": "Bart", "total": 17},
                    {"name": "Lou", "total": 30, "bust": True},
                    {"name": "Sam", "total": 30, "surprised": True},
                ],
                "discards": [],
                "round": 1,
            }
        ]
    )
    assert stderr == ""
    assert result["hands"] == {
        "Jim": ["A♠", "9♦", "2♣"],
        "Kate": ["K♥", "3♠"],
        "Bart": ["10♠", "10♥", "10♦", "10♣"],
        "Lou": [],
        "Sam": [],
    }
    assert result["order"] == [
        ["Jim", "A♠"], ["Kate", "K♥"], ["Bart", "10♠"], ["Bart", "10♥"], ["Bart", "10♦"],
        ["Bart", "10♣"], ["Jim", "9♦"], ["Kate", "3♠"], ["Jim", "2♣"],
    ]  # fmt: skip
    assert result["fate_draws"] == []
    assert result["sleeves"] == {"Jim": None, "Kate": None, "Bart": None, "Lou": None, "Sam": None}
    assert result["reshuffle_after_round"] is False
    assert result["reshuffled_during_deal"] is False
    assert result["deck_left"] == 54 - 9
    assert result["discards"] == []


def test_r25_round_jokers_black_takes_the_sleeve_red_draws_for_its_holder() -> None:
    top = "2♣ BJ 9♦ RJ 3♠"
    cards = [c for c in deck(top) if c not in ("7♣", "5♦")]
    (result,), stderr, _ = run(
        [
            {
                "op": "round",
                "deck": cards,
                "sleeves": {"Jim": "7♣", "Kate": "5♦"},
                "combatants": [{"name": "Jim", "total": 13}, {"name": "Kate", "total": 5}],
                "discards": [],
                "round": 2,
            }
        ]
    )
    assert stderr == ""
    assert result["hands"] == {"Jim": ["9♦", "2♣"], "Kate": ["RJ", "3♠"]}
    assert result["fate_draws"] == ["Dealer", "Kate"]
    assert result["sleeves"] == {"Jim": None, "Kate": "5♦"}
    assert result["discards"] == ["BJ", "7♣"]
    assert result["reshuffle_after_round"] is True
    assert result["order"][0] == ["Kate", "RJ"]


def test_r25_round_reshuffles_mid_deal_and_later_surprise_means_a_failed_guts() -> None:
    all_cards = deck("A♠ K♠ Q♠ J♠ 10♠")
    (result,), stderr, _ = run(
        [
            {
                "op": "round",
                "deck": all_cards[:5],
                "discards": all_cards[5:],
                "combatants": [
                    {"name": "Jim", "total": 13},
                    {"name": "Kate", "total": 17},
                    {"name": "Sam", "total": 17, "surprised": True},
                ],
                "round": 3,
                "seed": 4,
            }
        ]
    )
    assert stderr == ""
    assert result["hands"]["Jim"] == ["A♠", "K♠", "Q♠"]
    assert len(result["hands"]["Kate"]) + ("BJ" in result["discards"]) == 4
    assert result["hands"]["Sam"] == []
    assert result["reshuffled_during_deal"] is True
    assert result["deck_left"] == 54 - 3 - 4


def test_r25_round_refuses_the_red_joker_up_a_sleeve_and_a_deck_that_is_not_54() -> None:
    cards = [c for c in deck("") if c != "RJ"]
    results, _, _ = run(
        [
            {"op": "round", "deck": cards, "sleeves": {"Jim": "RJ"},
             "combatants": [{"name": "Jim", "total": 5}]},
            {"op": "round", "deck": cards, "combatants": [{"name": "Jim", "total": 5}]},
            {"op": "round", "deck": deck(""), "combatants": [{"name": "Jim", "total": 5}] * 2},
        ]
    )  # fmt: skip
    assert "red joker cannot go up the sleeve" in results[0]["error"]
    assert "missing RJ" in results[1]["error"]
    assert "different" in results[2]["error"]
    no_black = [c for c in deck("") if c != "BJ"]
    (black,), _, _ = run(
        [
            {
                "op": "round",
                "deck": no_black,
                "sleeves": {"Jim": "BJ"},
                "combatants": [{"name": "Jim", "total": 5}],
            }
        ]
    )
    assert "black joker is discarded as soon as it is drawn" in black["error"]


def test_r23_round_a_bust_gets_no_cards_and_keeps_its_sleeve() -> None:
    cards = [c for c in deck("A♠ K♠ Q♠") if c != "5♦"]
    (result,), stderr, _ = run(
        [
            {
                "op": "round",
                "deck": cards,
                "sleeves": {"Kate": "5♦"},
                "combatants": [
                    {"name": "Kate", "total": 17, "bust": True},
                    {"name": "Jim", "total": 13},
                ],
                "round": 2,
            }
        ]
    )
    assert stderr == ""
    assert result["hands"] == {"Kate": [], "Jim": ["A♠", "K♠", "Q♠"]}
    assert result["sleeves"] == {"Kate": "5♦", "Jim": None}
