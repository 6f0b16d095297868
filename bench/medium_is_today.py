"""Medium is today's computer, move for move: over seeded games at three seats, the frozen
baseline (``bench/baselines/today/<kind>.py``) and ``bot_action(..., "medium")`` are asked
for every move, and the moves that differ are counted.

    .venv/bin/python bench/medium_is_today.py [--kinds poker,blackjack,thirteen,cardice]

A benchmark, not a test: it prints the counts.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from gameplay.engine import registry  # noqa: E402
from gameplay.engine.cards import bot_rng  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kinds", default="poker,blackjack,thirteen,cardice")
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    for kind in args.kinds.split(","):
        engine = registry.get(kind)
        today = importlib.import_module(f"baselines.today.{kind}")
        moves = differ = 0
        for g in range(args.games):
            state = engine.new_game(3, f"same-{g}")
            while not engine.is_over(state) and moves < 3000 * (g + 1):
                for seat in engine.to_act(state):
                    if seat not in engine.to_act(state):
                        continue  # a simultaneous stage moved on
                    legal = engine.legal_actions(state, seat)
                    rng = bot_rng(state["seed"], seat, state["applied"])
                    frozen = today.choose(engine.view(state, seat), legal, rng)
                    medium = engine.bot_action(state, seat, "medium")
                    moves += 1
                    differ += frozen != medium
                    engine.apply(state, seat, medium)
        print(f"{kind}: {moves} moves, {differ} differ")


if __name__ == "__main__":
    main()
