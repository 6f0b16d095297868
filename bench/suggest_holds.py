"""Time of one "best hold" call (holds.best_hold): median and p99 over random hands.

    .venv/bin/python bench/suggest_holds.py [--hands 500] [--seed 1]

Each call scores all 32 holds exactly (expected strength over every draw from the 49 unseen
cards; see gameplay/engine/games/poker/holds.py). The tables it needs are built once, on the first
call: that one-off time is printed on its own and left out of the per-call figures. The rules'
rule-of-thumb Suggest holds (rule_hold) is timed too, for scale. Goal: median under 50 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gameplay.engine.cards import deck  # noqa: E402
from gameplay.engine.games.poker import holds as ph  # noqa: E402


def percentile(sorted_values: list[float], q: float) -> float:
    i = min(len(sorted_values) - 1, max(0, round(q * (len(sorted_values) - 1))))
    return sorted_values[i]


def timings(fn, hands) -> list[float]:
    out = []
    for hand in hands:
        start = time.perf_counter()
        fn(hand)
        out.append((time.perf_counter() - start) * 1000)
    return sorted(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    full = deck(jokers=2)
    hands = [rng.sample(full, 5) for _ in range(args.hands)]

    start = time.perf_counter()
    ph.best_hold(hands[0])  # builds the tables
    first = (time.perf_counter() - start) * 1000

    best = timings(ph.best_hold, hands)
    rule = timings(ph.rule_hold, hands)
    print(f"{args.hands} random hands (54-card deck), Python {sys.version.split()[0]}")
    print(f"first call, building the tables: {first:.1f} ms (once per process)")
    for name, ms in (("best_hold (exact, 32 holds)", best), ("rule_hold (rules.md §6)", rule)):
        print(
            f"{name:28} median {statistics.median(ms):.3f} ms   p99 {percentile(ms, 0.99):.3f} ms"
            f"   mean {statistics.fmean(ms):.3f} ms   max {ms[-1]:.3f} ms"
        )
    print("goal: median under 50 ms")


if __name__ == "__main__":
    main()
