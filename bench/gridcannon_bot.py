"""How often the Gridcannon bot wins playing alone, over seeded games.

    .venv/bin/python bench/gridcannon_bot.py [--games 1000] [--seed bench]

Game ``i`` uses the seed ``f"{seed}/{i}"`` with the default rules (Armour on) and is played
through the engine contract only: ``new_game``, then ``bot_action`` and ``apply`` until
``is_over``, so the bot sees nothing but its view and legal actions. Printed: win rate (with
a 95% interval), mean score (unspent Ploys when won, else 0), mean dead royals, how the
games ended, and games per second (wall clock on this machine: compare runs, not machines).
This is a benchmark, not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gameplay.engine import registry  # noqa: E402


def ending(state: dict) -> str:
    """A short name for how the game ended, from the engine's own reason."""
    reason = state.get("reason") or ""
    if state.get("outcome") == "won":
        return "won"
    if "no Attack can kill" in reason:
        return "lost: a royal out of reach (Armour)"
    if "draw pile is empty" in reason:
        return "lost: out of cards and Ploys"
    if "cannot be placed" in reason:
        return "lost: card cannot be placed"
    return f"lost: {reason}"


def run(games: int, seed: str) -> dict:
    engine = registry.get("gridcannon")
    wins = score = dead = actions = 0
    endings: Counter[str] = Counter()
    start = time.perf_counter()
    for i in range(games):
        state = engine.new_game(1, f"{seed}/{i}")
        while not engine.is_over(state):
            engine.apply(state, 0, engine.bot_action(state, 0))
            actions += 1
        result = engine.result(state)
        wins += bool(result["winners"])
        score += result["scores"][0]
        dead += result["stats"]["dead_royals"]
        endings[ending(state)] += 1
    seconds = time.perf_counter() - start
    return {
        "games": games,
        "wins": wins,
        "score": score,
        "dead": dead,
        "actions": actions,
        "seconds": seconds,
        "endings": endings,
    }


def report(r: dict) -> str:
    n = r["games"]
    rate = r["wins"] / n
    margin = 1.96 * math.sqrt(rate * (1 - rate) / n)
    lines = [
        f"games        {n}",
        f"win rate     {rate:.1%}  (95% interval ±{margin:.1%}; {r['wins']} won)",
        f"mean score   {r['score'] / n:.3f}  (unspent Ploys when won, else 0; max 6)",
        f"dead royals  {r['dead'] / n:.2f} per game (of 12)",
        f"actions      {r['actions']}  ({r['actions'] / n:.1f} per game)",
        f"seconds      {r['seconds']:.2f}",
        f"games/s      {n / r['seconds']:.1f}",
        "endings:",
    ]
    for name, count in r["endings"].most_common():
        lines.append(f"  {count:>6}  {name}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games to play (default 1000)")
    parser.add_argument("--seed", default="bench", help="game i uses seed '<seed>/<i>'")
    args = parser.parse_args()
    print(report(run(args.games, args.seed)))


if __name__ == "__main__":
    main()
