"""Poker strengths compared on duplicate hands: the luck of the deal cancels out.

    .venv/bin/python bench/poker_duplicate.py --player expert [--against hard] [--deals 1000]
        [--seed dup] [--chips 100]

Two players; each deal is played twice as a single hand (the first hand of a game with that
seed), once with ``--player`` in each seat, so each holds each hand and each place at the
table once (the draws can differ when the two players draw different numbers of cards).
Printed: the player's mean chips won a hand, with a 95% interval, and the CPU a move of each
side. A game to the last chip is many hands, so a small edge a hand decides many games; this
separates two players with far fewer deals than whole games do (``bench/ladder.py``, whose
players, ``today`` among them, play here). A benchmark, not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from ladder import TODAY, Player, percentile  # noqa: E402  (its players time each move)

from gameplay.engine import registry  # noqa: E402

ENGINE = registry.get("poker")


def hand(seats: dict[int, Player], seed: str, chips: int) -> int:
    """Seat 0's chips won (or lost) over the first hand dealt from ``seed``."""
    state = ENGINE.new_game(2, seed, {"chips": chips})
    while state["last_hand"] is None and not ENGINE.is_over(state):
        seat = state["turn"]
        ENGINE.apply(state, seat, seats[seat].act(state, seat))
    return state["chips"][0] - chips


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--player", required=True, choices=[*ENGINE.strengths, TODAY])
    parser.add_argument("--against", default="hard", choices=[*ENGINE.strengths, TODAY])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", default="dup")
    parser.add_argument("--chips", type=int, default=100)
    args = parser.parse_args()
    if args.player == args.against:
        parser.error("--player and --against must differ")
    started = time.process_time()
    player, against = Player(ENGINE, args.player), Player(ENGINE, args.against)
    pairs = []
    for i in range(args.deals):
        seed = f"{args.seed}/{i}"
        first = hand({0: player, 1: against}, seed, args.chips)
        second = -hand({0: against, 1: player}, seed, args.chips)
        pairs.append((first + second) / 2)
    n = len(pairs)
    mean = sum(pairs) / n
    spread = math.sqrt(sum((x - mean) ** 2 for x in pairs) / max(n - 1, 1))
    print(
        f"poker: {args.player} against {args.against}: {mean:+.2f} ± "
        f"{1.96 * spread / math.sqrt(n):.2f} chips a hand over {n} duplicate deals of "
        f"{args.chips} chips each ({time.process_time() - started:.0f} s of CPU)"
    )
    for side in (player, against):
        ms = [t * 1000 for t in side.times]
        print(
            f"  {side.name}: CPU a move p50 {percentile(ms, 0.5):.2f} ms, p99 "
            f"{percentile(ms, 0.99):.2f} ms, most {max(ms):.1f} ms ({len(ms)} moves)"
        )


if __name__ == "__main__":
    main()
