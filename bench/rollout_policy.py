"""How strong the search's playout rule is: it plays whole games against today's computer.

    .venv/bin/python bench/rollout_policy.py --kind crazy8 [--games 2000] [--policy quick]

The shedding search (``gameplay/engine/games/shedding/search.py``) plays every sampled deal
out with a fast rule for every seat. If that rule is much weaker than the real opponent, the
search prefers moves that only work against a weak opponent. Here the rule (``--policy``, a
function of ``search`` taking ``(engine, state, seat, rng)``) plays whole games against
today's computer (``bench/baselines/today/<kind>.py``), seats alternating; printed: its score
with a 95% interval and the CPU time a move of the rule. A benchmark, nothing is asserted.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from ladder import Player, play  # noqa: E402

from gameplay.engine import registry  # noqa: E402
from gameplay.engine.games.shedding import search as shedding_search  # noqa: E402


class Rule(Player):
    """The playout rule choosing for a seat (it reads the state, as it does in a playout)."""

    def __init__(self, engine, policy: str, seed: str):
        super().__init__(engine, policy)
        self.rule = getattr(shedding_search, policy)
        self.rng = random.Random(seed)

    def act(self, state, seat: int):
        started = time.process_time()
        action = self.rule(self.engine, state, seat, self.rng)
        self.times.append(time.process_time() - started)
        return action


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kind", default="crazy8", choices=["crazy8", "american8"])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", default="rollout")
    parser.add_argument("--policy", default="quick")
    args = parser.parse_args()
    engine = registry.get(args.kind)
    rule = Rule(engine, args.policy, args.seed)
    mean, half = play(engine, rule, Player(engine, "today"), args.games, args.seed)
    times = sorted(rule.times)
    print(
        f"{args.kind}: {args.policy} against today's: {100 * mean:.1f}% ± {100 * half:.1f}% "
        f"({args.games} games), {1e6 * times[len(times) // 2]:.0f} µs a move (p50)"
    )


if __name__ == "__main__":
    main()
