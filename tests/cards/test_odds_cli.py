"""The odds as a program: ``python -m cards.odds`` (issue 30).

One JSON table per input line, one JSON answer per output line: ``{"win", "deals", "ms"}``;
a bad line gives a one-line ``{"error": ...}`` and the next lines still work; blank lines are
skipped; never a traceback; the same seed gives the same answer; cards as R1 reads them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from cards.deck import parse_cards
from cards.odds import Opponent, Table, win_probability

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = {
    "hand": ["A♠", "K♠", "A♥", "K♥", "9♦", "9♣", "2♣"],
    "opponents": [5, 7, {"size": 6, "known": ["Q♥"]}],
    "out": ["2♦", "3♣"],
    "deals": 20000,
    "seed": 7,
}


def run(stdin: str | bytes, **env_extra: str) -> tuple[list[dict], str, int]:
    """Run the program; return its output lines parsed as JSON, its stderr and exit code."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    env.update(env_extra)
    data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    done = subprocess.run(
        [sys.executable, "-m", "cards.odds"],
        input=data,
        capture_output=True,
        cwd=REPO,
        env=env,
        timeout=120,
        check=False,
    )
    out = done.stdout.decode("utf-8")  # strict: the output must be valid UTF-8
    assert out == "" or out.endswith("\n")
    return [json.loads(line) for line in out.splitlines()], done.stderr.decode(), done.returncode


def line(**fields: object) -> str:
    return json.dumps(EXAMPLE | fields, ensure_ascii=False) + "\n"


def test_it_answers_the_issues_example_line() -> None:
    (answer,), stderr, code = run(line())
    assert stderr == ""
    assert code == 0
    assert set(answer) == {"win", "deals", "ms"}
    assert answer["deals"] == 20_000
    assert 0 < answer["win"] < 1
    assert answer["ms"] > 0


def test_the_same_seed_gives_the_same_answer_and_the_library_agrees() -> None:
    (one, two, other), stderr, _ = run(line() + line() + line(seed=8))
    assert stderr == ""
    assert one["win"] == two["win"]
    assert other["win"] != one["win"]  # (as good as surely)
    table = Table(
        tuple(parse_cards(" ".join(EXAMPLE["hand"]))),  # type: ignore[arg-type]
        (Opponent(5), Opponent(7), Opponent(6, tuple(parse_cards("Q♥")))),
        tuple(parse_cards("2♦ 3♣")),
    )
    estimate = win_probability(table, deals=20_000, rng=np.random.default_rng(7))
    assert one["win"] == round(estimate.probability, 4)


def test_it_reads_cards_in_every_notation_of_R1() -> None:
    symbols = line(hand=["10♥", "Q♣", "RJ"], opponents=[5], out=["A♠"])
    letters = line(hand=["th", "qc", "rj"], opponents=[5], out=["As"])
    (one, two), stderr, _ = run(symbols + letters)
    assert stderr == ""
    assert one["win"] == two["win"]


def test_it_draws_without_a_seed() -> None:
    request = {k: v for k, v in EXAMPLE.items() if k != "seed"} | {"deals": 2000}
    (answer,), stderr, _ = run(json.dumps(request) + "\n")
    assert stderr == ""
    assert answer["deals"] == 2000


@pytest.mark.parametrize(
    ("bad", "says"),
    [
        ("not json at all", "could not reckon"),
        ("[1, 2]", "one JSON object"),
        (line(hand=["A♠", "1♥"]).strip(), "1♥"),
        (line(hand=["A♠", "A♠"]).strip(), "twice"),
        (line(out=["A♠"]).strip(), "twice"),
        (line(opponents=[{"size": 1, "known": ["Q♣", "Q♦"]}]).strip(), "cannot show"),
        (line(opponents=[-1]).strip(), "size"),
        (line(opponents=[True]).strip(), "size"),
        (line(opponents=[30, 30]).strip(), "unseen"),
        (line(deals=0).strip(), "deals"),
        (line(deals="many").strip(), "deals"),
        (line(seed=-3).strip(), "seed"),
        (line(colour="red").strip(), "unknown fields"),
        ('{"opponents": [5]}', "hand"),
        (line(hand="A♠ K♠").strip(), "list of card names"),
    ],
)
def test_it_reports_a_bad_line_in_one_line_and_carries_on(bad: str, says: str) -> None:
    results, stderr, code = run(line(deals=500) + bad + "\n" + line(deals=500))
    assert stderr == ""
    assert code == 0
    assert len(results) == 3
    assert set(results[1]) == {"error", "line"}
    assert says in results[1]["error"]
    assert results[1]["line"] == 2
    assert results[0] == results[2] | {"ms": results[0]["ms"]}


def test_it_skips_blank_lines_and_writes_nothing_for_no_input() -> None:
    assert run("") == ([], "", 0)
    results, stderr, code = run("\n  \n" + line(deals=100) + "\r\n\n")
    assert (len(results), stderr, code) == (1, "", 0)


def test_it_survives_a_line_that_is_not_utf8() -> None:
    results, stderr, _ = run(b"\xff\xfe {\n" + line(deals=100).encode())
    assert "Traceback" not in stderr
    assert "error" in results[0]
    assert results[1]["deals"] == 100
