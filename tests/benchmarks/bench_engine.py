"""Engine benchmarks: hand evaluation, the full five-card census, odds, the discard advisor and
a combat round on the action deck.

Prints figures against the goals of the foundation issue; it does not fail on a missed goal
(a slow CI machine is not a broken build), it says so plainly instead.
"""

from __future__ import annotations

import gc
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable
from itertools import combinations

from cards import hands
from cards.deck import FULL_DECK, RED_JOKER, Card, parse_cards
from cards.dice import DiceSpec
from cards.hands import Category, evaluate, hand_key
from cards.odds import discard_advice, win_probability
from fights.engine import action_deck as fights

REPEATS = 5


def _timed(run: Callable[[], object], repeats: int = REPEATS) -> list[float]:
    times = []
    for _ in range(repeats):
        gc.collect()
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return times


def _goal(ok: bool) -> str:
    return "goal met" if ok else "GOAL MISSED"


def _each(fn: Callable[[list[Card]], object], hands_: list[list[Card]]) -> None:
    # The values are not kept: keeping 100,000 of them would time the garbage collector.
    for hand in hands_:
        fn(hand)


def bench_evaluation() -> None:
    rng = random.Random(2002)
    count = 100_000
    print(f"Best-of-N evaluation, {count:,} random hands from the 54-card deck (jokers wild):")
    for size in (5, 7):
        hands_ = [rng.sample(FULL_DECK, size) for _ in range(count)]
        with_jokers = sum(1 for h in hands_ if any(c.joker for c in h))
        hands._PLANS.clear()
        cold = _timed(lambda h=hands_: _each(hand_key, h), repeats=1)[0]
        for name, fn in (("hand_key", hand_key), ("evaluate", evaluate)):
            runs = _timed(lambda h=hands_, f=fn: _each(f, h))
            best, median = count / min(runs), count / statistics.median(runs)
            print(
                f"  {size} cards, {name:8}: {best:,.0f} hands/s best, {median:,.0f} median "
                f"({with_jokers / count:.0%} hold a joker)"
                + (f"  [{_goal(best >= 300_000)}: 300,000/s]" if size == 7 else "")
            )
        print(f"  {size} cards, first pass with an empty pattern memo: {count / cold:,.0f} hands/s")


def bench_brute_force_reference() -> None:
    try:
        from tests.cards.reference import best_key as reference_best_key
    except ImportError:  # the reference lives with the tests; the bench can run without it
        return
    rng = random.Random(7)
    sample = [rng.sample(FULL_DECK[:52], 7) for _ in range(150)]
    started = time.perf_counter()
    for h in sample:
        reference_best_key(h)
    elapsed = time.perf_counter() - started
    print(
        f"  for comparison, the brute-force test reference: {len(sample) / elapsed:,.0f} "
        "seven-card hands/s (no jokers)"
    )


def bench_census() -> None:
    print("Every five-card hand of the 54-card deck:")
    counts: Counter[int] = Counter()

    def census() -> None:
        counts.clear()
        for lay in combinations(FULL_DECK, 5):
            counts[hand_key(lay)[0]] += 1

    elapsed = _timed(census, repeats=1)[0]
    total = sum(counts.values())
    print(f"  {total:,} hands in {elapsed:.2f} s  [{_goal(elapsed < 15)}: under 15 s]")
    for order in range(10, -1, -1):
        category = list(reversed(Category))[order]
        print(f"    {category.value:16} {counts[order]:>10,}")


def bench_odds() -> None:
    rng = random.Random(42)
    hand = parse_cards("3♥ 3♣ 7♦ 7♣ 9♦ Q♦")  # Black Jack's deal, before his draw
    print(f"Odds for {' '.join(c.text for c in hand)}:")
    result = {}

    def win() -> None:
        result["win"] = win_probability(hand, opposing_cards=5, deals=10_000, rng=rng)

    runs = _timed(win)
    estimate = result["win"]
    print(
        f"  win probability vs a 5-card stud, 10,000 deals: {min(runs) * 1000:.0f} ms best, "
        f"{statistics.median(runs) * 1000:.0f} ms median (p = {estimate.probability:.3f} "
        f"± {estimate.standard_error:.3f})  [{_goal(min(runs) < 0.1)}: under 100 ms]"
    )

    def advise() -> None:
        result["advice"] = discard_advice(hand, 2, opposing_cards=5, deals=2_500, rng=rng)

    runs = _timed(advise)
    advice = result["advice"]
    best = advice[0]
    print(
        f"  discard advisor, 6 cards, limit 2 ({len(advice)} choices) x 2,500 deals: "
        f"{min(runs) * 1000:.0f} ms best, {statistics.median(runs) * 1000:.0f} ms median  "
        f"[{_goal(min(runs) < 0.5)}: under 500 ms]"
    )
    shown = " ".join(c.text for c in best.discards) or "nothing"
    print(f"    advice: discard {shown} (p = {best.probability:.3f})")


def _fight_round(state: fights.FightState, rng: random.Random) -> tuple[fights.FightState, int]:
    """One whole round: everyone's Quickness rolled, the deal, the countdown to its end (each
    card acted on, one in five sleeved or passed), the end of the round. Returns the moves made."""
    moves = 0
    for c in state.combatants:
        state = fights.apply(state, fights.RollQuickness(c.cid), rng).state
        moves += 1
    state = fights.apply(state, fights.DealRound(), rng).state
    moves += 1
    while (current := fights.up(state)) is not None:
        holder, card = current
        roll = rng.random()
        if roll < 0.1 and holder.sleeve is None and card is not RED_JOKER:
            move: fights.Move = fights.Sleeve(holder.cid)
        elif roll < 0.2:
            move = fights.Pass(holder.cid)
        else:
            move = fights.Act(holder.cid, "shoots")
        state = fights.apply(state, move, rng).state
        moves += 1
    state = fights.apply(state, fights.EndRound(), rng).state
    return state, moves + 1


def bench_fight_round() -> None:
    """Issue 17: a round for 12 combatants (the engine's part of it), per second."""
    rng = random.Random(17)
    kinds = [fights.CombatantKind.PC] * 4 + [fights.CombatantKind.NPC] * 4
    kinds += [fights.CombatantKind.EXTRAS] * 4
    crowd = [
        fights.Combatant(f"c{i}", f"Gun {i}", kind, quickness=DiceSpec(3, 8))
        for i, kind in enumerate(kinds)
    ]
    state = fights.new_fight(crowd, rng)
    rounds, count = 300, {"moves": 0}

    def run() -> None:
        nonlocal state
        for _ in range(rounds):
            state, moves = _fight_round(state, rng)
            count["moves"] += moves

    runs = _timed(run)
    per_round = count["moves"] / (rounds * len(runs))
    best = rounds / min(runs)
    print(
        f"Action deck, one round for 12 combatants (12 Quickness rolls, the deal, the countdown "
        f"to the end: {per_round:.0f} moves a round): {best:,.0f} rounds/s best, "
        f"{rounds / statistics.median(runs):,.0f} median, {best * per_round:,.0f} moves/s  "
        f"[{_goal(best >= 100)}: 100 rounds/s, a round in under 10 ms]"
    )


def main() -> int:
    bench_evaluation()
    bench_brute_force_reference()
    bench_census()
    bench_odds()
    bench_fight_round()
    return 0


if __name__ == "__main__":
    main()
