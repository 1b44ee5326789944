"""The hand evaluator as a program: ``python -m cards.hands``.

One hand per input line, one JSON object per output line; a bad line gives a one-line error
naming the bad token (R1) and the next lines still work; blank lines are skipped; never a
traceback.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from cards.deck import FULL_DECK
from cards.hands import best_lay_for_narration, evaluate, parse_cards

REPO = Path(__file__).resolve().parents[2]
REQUIRED = {
    "laid",
    "category",
    "rank_key",
    "combination",
    "difficulty",
    "difficulty_suits",
    "high_card",
    "high_card_key",
}
SUIT_NAMES = ["clubs", "diamonds", "hearts", "spades"]  # R2 order


def run(stdin: str | bytes, **env_extra: str) -> tuple[list[dict], str, int]:
    """Run the program; return its output lines parsed as JSON, its stderr and exit code."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    env.update(env_extra)
    data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    done = subprocess.run(
        [sys.executable, "-m", "cards.hands"],
        input=data,
        capture_output=True,
        cwd=REPO,
        env=env,
        timeout=120,
        check=False,
    )
    out = done.stdout.decode("utf-8")  # strict: the output must be valid UTF-8
    stderr = done.stderr.decode("utf-8", "replace")
    lines = out.splitlines()
    assert out == "" or out.endswith("\n")
    return [json.loads(line) for line in lines], stderr, done.returncode


def test_it_writes_black_jacks_hand_as_one_json_object() -> None:
    """R4/R6/R7/R9 through the command line: the full house, 3s over 7s."""
    (result,), stderr, code = run("3♥ 3♣ 7♦ 7♣ 3♦ K♠\n")
    assert stderr == ""
    assert code == 0
    assert set(result) >= REQUIRED
    assert result["category"] == "full_house"
    assert sorted(result["laid"]) == sorted(["3♥", "3♣", "3♦", "7♦", "7♣"])
    assert result["combination"] == result["laid"]
    assert result["rank_key"] == [6, 3, 3, 3, 7, 7, 2, 1, 3, 2, 1, 0, 0, 0, 0, 0]
    assert result["difficulty"] == 5
    assert result["difficulty_suits"] == ["clubs", "diamonds", "hearts"]
    assert result["high_card"] == "7♦"
    assert result["high_card_key"] == [7, 2, 0]


def test_it_writes_symbols_whatever_notation_comes_in() -> None:
    """R1: output always uses the symbols."""
    (result,), stderr, _ = run("as ks QS jS ts\n")
    assert stderr == ""
    assert result["category"] == "royal_flush"
    assert result["laid"] == ["A♠", "K♠", "Q♠", "J♠", "10♠"]
    assert result["high_card"] == "A♠"
    assert result["difficulty_suits"] == ["spades"]


def test_it_names_only_natural_suits_for_difficulty() -> None:
    """R9: Luke's three 5s with a joker hurt Heart and Guts only; all jokers hurt anything."""
    (luke, jokers), stderr, _ = run("5♥ 5♣ RJ\nRJ BJ\n")
    assert stderr == ""
    assert luke["difficulty"] == 3
    assert luke["difficulty_suits"] == ["clubs", "hearts"]
    assert jokers["difficulty"] == 2
    assert jokers["difficulty_suits"] == SUIT_NAMES


def test_it_agrees_with_evaluate_line_by_line_and_rank_keys_compare_as_hands() -> None:
    """R6: comparing two rank_key lists compares the hands."""
    rng = random.Random(2024)
    hands = [rng.sample(FULL_DECK, rng.randint(1, 9)) for _ in range(150)]
    text = "".join(" ".join(c.text for c in hand) + "\n" for hand in hands)
    results, stderr, code = run(text)
    assert stderr == ""
    assert code == 0
    assert len(results) == len(hands)
    for hand, result in zip(hands, results, strict=True):
        value = evaluate(hand)
        assert result["rank_key"] == list(value.key)
        assert result["laid"] == [c.text for c in value.laid]
        assert result["combination"] == [c.text for c in value.combination]
        assert result["category"] == value.category.value
        assert result["difficulty"] == value.difficulty
        assert result["difficulty_suits"] == [
            s for s in SUIT_NAMES if s in {x.name.lower() for x in value.difficulty_suits}
        ]
        assert result["high_card"] == value.high_card.text
        assert result["high_card_key"] == list(value.high_card_key)
        narration = best_lay_for_narration(hand)
        if narration.high_card_key > value.high_card_key:  # R4/R8: a lay that narrates better
            alternative = result["narration_alternative"]
            assert alternative["laid"] == [c.text for c in narration.laid]
            assert alternative["high_card"] == narration.high_card.text
            assert alternative["rank_key"] == list(narration.key)
        else:
            assert "narration_alternative" not in result
    for i in range(len(hands) - 1):
        a, b = evaluate(hands[i]), evaluate(hands[i + 1])
        assert (results[i]["rank_key"] < results[i + 1]["rank_key"]) == (a < b)
        assert (results[i]["rank_key"] > results[i + 1]["rank_key"]) == (a > b)


@pytest.mark.parametrize(
    ("line", "token"),
    [("3♥ 7x 3♦", "7x"), ("A♠ 1♥", "1♥"), ("Z", "Z"), ("RJ joker", "joker")],
)
def test_it_reports_a_bad_line_in_one_line_and_carries_on(line: str, token: str) -> None:
    """R1: a bad token gives a one-line JSON error naming it; the next lines still work."""
    results, stderr, code = run(f"A♠ A♥\n{line}\nK♠ K♥\n")
    assert stderr == ""
    assert code == 0
    assert len(results) == 3
    assert results[0]["category"] == "pair"
    assert set(results[1]) >= {"error"}
    assert token in results[1]["error"]
    assert "rank_key" not in results[1]
    assert results[2]["category"] == "pair"
    assert results[2]["laid"] == ["K♠", "K♥"]


def test_it_reports_a_card_given_twice() -> None:
    """R1: the same card twice is a typing mistake, reported by name."""
    results, stderr, _ = run("A♠ K♦ as\nQ♣\n")
    assert stderr == ""
    assert "A♠" in results[0]["error"]
    assert results[1]["laid"] == ["Q♣"]


def test_it_skips_blank_lines() -> None:
    """R1: blank (and CRLF) lines are skipped, not errors."""
    results, stderr, code = run("\n   \nA♠\n\n\t\r\nK♦ K♣\r\n\n")
    assert stderr == ""
    assert code == 0
    assert [r["laid"] for r in results] == [["A♠"], ["K♦", "K♣"]]


def test_it_writes_nothing_for_no_input() -> None:
    """R1: no lines in, nothing out, exit 0."""
    results, stderr, code = run("")
    assert results == []
    assert stderr == ""
    assert code == 0


def test_it_reads_a_last_line_without_a_newline() -> None:
    """R1: the last hand counts even without a final newline."""
    results, stderr, _ = run("2♣ 2♦\n10♥ 10♠ 10♣")
    assert stderr == ""
    assert [r["category"] for r in results] == ["pair", "three_of_a_kind"]


def test_it_survives_a_line_of_separators_only() -> None:
    """Separators alone (commas) make an empty hand: reported, not a crash."""
    results, stderr, _ = run(",\nA♣\n")
    assert stderr == ""
    assert results[-1]["laid"] == ["A♣"]


@pytest.mark.parametrize("io_encoding", ["utf-8:strict", ""])
def test_it_survives_a_line_that_is_not_utf8(io_encoding: str) -> None:
    """R1: never a traceback, and every output line is UTF-8 JSON, whatever bytes come in."""
    extra = {"PYTHONIOENCODING": io_encoding} if io_encoding else {}
    results, stderr, _ = run(b"\xff\xfe 3\xe2\n" + "A♠\n".encode(), **extra)
    assert "Traceback" not in stderr
    assert "error" in results[0]
    assert results[1]["laid"] == ["A♠"]


def test_it_parses_the_cards_the_same_way_as_the_library() -> None:
    """The command line and parse_cards agree on every notation (R1)."""
    line = "th 10♥"  # the same card twice, in two notations
    results, _, _ = run(line + "\n")
    assert "error" in results[0]
    assert parse_cards("th")[0] is parse_cards("10♥")[0]


def test_it_offers_black_jack_the_king_of_spades_as_the_narration_alternative() -> None:
    """R4/R8: the seed's example: the full house, or a lay keeping the K♠."""
    (result,), stderr, _ = run("3♥ 3♣ 7♦ 7♣ 3♦ K♠\n")
    assert stderr == ""
    alternative = result["narration_alternative"]
    assert alternative["high_card"] == "K♠"
    assert "K♠" in alternative["laid"]
    assert alternative["rank_key"] < result["rank_key"]


@pytest.mark.parametrize("line", ["Q♣ Q♦ Q♥ Q♠ 3♣ 3♦ A♠", "Q♣ Q♦ Q♥ Q♠ 3♣ 3♦"])
def test_it_names_as_narration_alternative_only_a_lay_with_a_better_narration_card(
    line: str,
) -> None:
    """R4/R8: four queens with the A♠ already hold the best narration card, so there is no
    narration alternative (the full house Q♠ Q♥ Q♦ 3♦ 3♣ deals more Difficulty but narrates
    worse); without the A♠ the four queens and the full house narrate with the same Q♠."""
    (result,), stderr, _ = run(line + "\n")
    assert stderr == ""
    hand = parse_cards(line)
    narration = best_lay_for_narration(hand)
    if narration.high_card_key == evaluate(hand).high_card_key:
        assert "narration_alternative" not in result
    else:
        assert result["narration_alternative"]["high_card"] == narration.high_card.text
