"""Klondike solver benchmark: how many seeded deals it decides within a time budget.

Deals are ENGINE.new_game(1, f"bench/{draw}/{i}", {"draw": draw}) for i < N, Draw 1 then
Draw 3. For each mode it prints the share decided (won, or proven lost) within the budget per
deal, the share won, the share proven lost, and the median and 90th-percentile time.

    .venv/bin/python bench/klondike_solver.py                       # 500 + 500 deals, 2 s
    .venv/bin/python bench/klondike_solver.py --deals 50 --budget 2  # smaller run
    .venv/bin/python bench/klondike_solver.py --deals 50 --cpu       # budget in CPU time
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gameplay.engine.games.klondike import solver as klondike_solver  # noqa: E402
from gameplay.engine.games.klondike.engine import ENGINE  # noqa: E402


def run(draw: int, deals: int, budget: float, verbose: bool) -> dict:
    statuses: dict[str, int] = {"won": 0, "lost": 0, "unknown": 0}
    times = []
    started = time.perf_counter()
    for i in range(deals):
        state = ENGINE.new_game(1, f"bench/{draw}/{i}", {"draw": draw})
        result = klondike_solver.solve(state, budget)
        statuses[result["status"]] += 1
        times.append(result["seconds"])
        if verbose:
            print(
                f"  draw {draw} deal {i}: {result['status']:7} {result['seconds']:.3f} s "
                f"{result['nodes']} positions {len(result['line'])} actions",
                flush=True,
            )
    times.sort()
    return {
        "draw": draw,
        "deals": deals,
        **statuses,
        "decided": statuses["won"] + statuses["lost"],
        "median": statistics.median(times),
        "p90": times[int(0.9 * (len(times) - 1))],
        "wall": time.perf_counter() - started,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=500, help="deals per draw mode")
    parser.add_argument("--budget", type=float, default=2.0, help="seconds per deal")
    parser.add_argument("--draw", type=int, choices=[1, 3], action="append", help="only this mode")
    parser.add_argument("-v", "--verbose", action="store_true", help="one line per deal")
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="budget in CPU time of this process (steadier figures on a busy machine)",
    )
    args = parser.parse_args()
    if args.cpu:
        klondike_solver.CLOCK = time.process_time
    for draw in args.draw or [1, 3]:
        r = run(draw, args.deals, args.budget, args.verbose)
        n = r["deals"]
        print(
            f"Draw {draw}: {n} deals, budget {args.budget:g} s: "
            f"decided {r['decided']}/{n} ({100 * r['decided'] / n:.1f}%), "
            f"won {r['won']} ({100 * r['won'] / n:.1f}%), "
            f"proven lost {r['lost']} ({100 * r['lost'] / n:.1f}%), "
            f"unknown {r['unknown']}; "
            f"median {r['median']:.3f} s, p90 {r['p90']:.3f} s, wall {r['wall']:.0f} s",
            flush=True,
        )


if __name__ == "__main__":
    main()
