"""Klondike solver benchmark: how many seeded deals it decides within a CPU-time budget.

Deals are ENGINE.new_game(1, f"{seed}/{draw}/{i}", {"draw": draw}) for i < N, Draw 1 then
Draw 3 (``--seed bench`` by default: the deals the solver was tuned on; pass another prefix,
e.g. ``--seed fresh1``, for deals it has never seen). For each mode it prints the share decided
(won, or proven lost) within the budget per deal, the share won, the share proven lost, and
percentiles of the CPU time each deal took. Every claimed win is replayed through the engine
(``ENGINE.apply`` of the line from the deal must end in a won game); a win that does not
replay is counted as a failure and is not counted as decided.

    .venv/bin/python bench/klondike_solver.py --seed fresh1             # 500 + 500 deals, 2 s
    .venv/bin/python bench/klondike_solver.py --seed fresh1 --budget 1  # a slow day's stand-in
    .venv/bin/python bench/klondike_solver.py --deals 50 --draw 3 -v    # one line per deal
"""

from __future__ import annotations

import argparse
import copy
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gameplay.engine import IllegalAction  # noqa: E402
from gameplay.engine.games.klondike import solver as klondike_solver  # noqa: E402
from gameplay.engine.games.klondike.engine import ENGINE  # noqa: E402


def replays(state: dict, line: list[dict]) -> bool:
    """Does ``line`` win when applied to ``state`` through the engine's own checks?"""
    work = copy.deepcopy(state)
    try:
        for action in line:
            ENGINE.apply(work, 0, action)
    except IllegalAction:
        return False
    return ENGINE.is_over(work) and ENGINE.result(work)["winners"] == [0]


def percentile(ordered: list[float], q: float) -> float:
    return ordered[round(q * (len(ordered) - 1))]


def run(draw: int, deals: int, budget: float, seed: str, verbose: bool) -> dict:
    statuses: dict[str, int] = {"won": 0, "lost": 0, "unknown": 0, "bad": 0}
    cpu = []
    started = time.perf_counter()
    for i in range(deals):
        state = ENGINE.new_game(1, f"{seed}/{draw}/{i}", {"draw": draw})
        before = time.process_time()
        result = klondike_solver.solve(state, budget)
        cpu.append(time.process_time() - before)
        status = result["status"]
        if status == "won" and not replays(state, result["line"]):
            status = "bad"
        statuses[status] += 1
        if verbose:
            print(
                f"  draw {draw} deal {i}: {status:7} {cpu[-1]:.3f} s CPU "
                f"{result['nodes']} positions {len(result['line'])} actions",
                flush=True,
            )
    cpu.sort()
    return {
        "draw": draw,
        "deals": deals,
        **statuses,
        "decided": statuses["won"] + statuses["lost"],
        "median": statistics.median(cpu),
        "p90": percentile(cpu, 0.9),
        "p95": percentile(cpu, 0.95),
        "max": cpu[-1],
        "wall": time.perf_counter() - started,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=500, help="deals per draw mode")
    parser.add_argument("--budget", type=float, default=2.0, help="CPU seconds per deal")
    parser.add_argument("--seed", default="bench", help="prefix of the deals' seeds")
    parser.add_argument("--draw", type=int, choices=[1, 3], action="append", help="only this mode")
    parser.add_argument("-v", "--verbose", action="store_true", help="one line per deal")
    args = parser.parse_args()
    speed_started = time.process_time()
    sum(i * i for i in range(10**7))
    speed = time.process_time() - speed_started
    print(f"machine: sum(i*i for i in range(10**7)) took {speed:.2f} s CPU", flush=True)
    for draw in args.draw or [1, 3]:
        r = run(draw, args.deals, args.budget, args.seed, args.verbose)
        n = r["deals"]
        print(
            f"Draw {draw}: {n} deals ({args.seed}), budget {args.budget:g} s CPU: "
            f"decided {r['decided']}/{n} ({100 * r['decided'] / n:.1f}%), "
            f"won {r['won']} ({100 * r['won'] / n:.1f}%), "
            f"proven lost {r['lost']} ({100 * r['lost'] / n:.1f}%), "
            f"unknown {r['unknown']}, wins that don't replay {r['bad']}; "
            f"CPU a deal: median {r['median']:.3f} s, p90 {r['p90']:.3f} s, "
            f"p95 {r['p95']:.3f} s, max {r['max']:.3f} s; wall {r['wall']:.0f} s",
            flush=True,
        )


if __name__ == "__main__":
    main()
