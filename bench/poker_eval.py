"""Evaluations per second: our poker evaluator beside treys, on the same hands, in one run.

    .venv/bin/python bench/poker_eval.py [--hands 200000] [--repeat 5] [--seed 1]

- Joker-free: the same ``--hands`` random 5-card hands (from 52 cards) go through
  ``evaluator.evaluate`` (card codes) and treys' ``Evaluator.evaluate(hand, board)``
  (treys' own card ints, split 2 + 3 beforehand so neither loop slices). The figure is the
  best of ``--repeat`` timed passes over all hands (the loops take turns in each pass); the
  ratio is ours / treys.
- With jokers: ``--hands`` random hands from the 54-card deck that hold at least one joker
  (about 1 in 11 with two), through ``evaluator.evaluate`` only, since treys has no wild
  cards; its speed is given as a ratio to our joker-free speed and to treys'.
- Also: ``evaluate_cards`` on card strings (the engine's call), for scale.

Before timing, both evaluators' orders are checked to agree on the joker-free hands.
Goals: joker-free at least half treys' speed; with jokers at least a quarter.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from treys import Card, Evaluator  # noqa: E402

from gameplay.engine.cards import deck  # noqa: E402
from gameplay.engine.games.poker import evaluator as pe  # noqa: E402


def treys_int(card: str) -> int:
    return Card.new(card[:-1].replace("10", "T") + card[-1].lower())


def best_rates(loops: dict, count: int, repeat: int) -> dict[str, float]:
    """Evaluations per second of each loop: the best of ``repeat`` passes, the loops taking
    turns in every pass so a busy moment on the machine does not favour one of them."""
    best = dict.fromkeys(loops, float("inf"))
    for _ in range(repeat):
        for name, loop in loops.items():
            start = time.perf_counter()
            loop()
            best[name] = min(best[name], time.perf_counter() - start)
    return {name: count / seconds for name, seconds in best.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    n = args.hands
    rng = random.Random(args.seed)

    naturals = deck()
    plain = [rng.sample(naturals, 5) for _ in range(n)]
    with_jokers = []
    full = deck(jokers=2)
    while len(with_jokers) < n:
        hand = rng.sample(full, 5)
        if "JK1" in hand or "JK2" in hand:
            with_jokers.append(hand)

    ours_plain = [[pe.CODES[c] for c in h] for h in plain]
    ours_jokers = [[pe.CODES[c] for c in h] for h in with_jokers]
    treys_split = [([treys_int(c) for c in h[:2]], [treys_int(c) for c in h[2:]]) for h in plain]
    evaluator = Evaluator()
    evaluate = pe.evaluate
    treys_evaluate = evaluator.evaluate

    # Same order on every joker-free hand (treys: lower is better).
    pairs = {
        (treys_evaluate(h, b), evaluate(c))
        for (h, b), c in zip(treys_split, ours_plain, strict=True)
    }
    ranked = [v for _, v in sorted(pairs)]
    assert len({s for s, _ in pairs}) == len(pairs), "one of our values per treys score"
    assert all(x > y for x, y in zip(ranked, ranked[1:], strict=False)), "orders disagree"

    def run_ours_plain():
        for codes in ours_plain:
            evaluate(codes)

    def run_treys():
        for hand, board in treys_split:
            treys_evaluate(hand, board)

    def run_ours_jokers():
        for codes in ours_jokers:
            evaluate(codes)

    def run_strings():
        for cards in with_jokers:
            pe.evaluate_cards(cards)

    rates = best_rates(
        {
            "ours": run_ours_plain,
            "treys": run_treys,
            "jokers": run_ours_jokers,
            "strings": run_strings,
        },
        n,
        args.repeat,
    )
    rate_ours, rate_treys = rates["ours"], rates["treys"]
    rate_jokers, rate_strings = rates["jokers"], rates["strings"]
    two = sum(1 for h in with_jokers if "JK1" in h and "JK2" in h)

    print(f"{n:,} hands, best of {args.repeat} passes, Python {sys.version.split()[0]}")
    print(f"joker-free  ours   {rate_ours:>12,.0f} evals/s")
    print(f"joker-free  treys  {rate_treys:>12,.0f} evals/s")
    print(f"  ratio ours/treys {rate_ours / rate_treys:.2f}   (goal >= 0.50)")
    print(f"with jokers ours   {rate_jokers:>12,.0f} evals/s   ({two:,} hands with both jokers)")
    print(f"  ratio to our joker-free {rate_jokers / rate_ours:.2f}")
    print(f"  ratio to treys          {rate_jokers / rate_treys:.2f}   (goal >= 0.25)")
    print(f"card strings (evaluate_cards, with jokers) {rate_strings:>12,.0f} evals/s")


if __name__ == "__main__":
    main()
