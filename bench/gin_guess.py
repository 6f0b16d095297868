"""How well Hard's and Expert's guess (strategy.Guess) names the Gin opponent's hidden cards.

    .venv/bin/python bench/gin_guess.py [--deals 60] [--seed guess]

Today's computer plays both seats of the first hand of each deal; wherever seat 0 is about to
discard and its opponent has had two turns or more, the guessed hands give each unseen card a
chance of being in the opponent's hand. Printed: the Brier score of those chances against the
real hand, beside that of the uniform chance (hidden cards / unseen cards), the skill (1 less
their ratio: above 0 is better than uniform), the mean chance given to the cards really held,
and the guess's CPU a call. A benchmark, not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import importlib
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from gameplay.engine import melds, registry  # noqa: E402
from gameplay.engine.cards import bot_rng  # noqa: E402
from gameplay.engine.games.gin import strategy  # noqa: E402

ENGINE = registry.get("gin")
TODAY = importlib.import_module("baselines.today.gin")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--seed", default="guess")
    args = parser.parse_args()
    guessed = uniform = held_guessed = held_uniform = 0.0
    cards = held = calls = 0
    cpu = 0.0
    for i in range(args.deals):
        state = ENGINE.new_game(2, f"{args.seed}/{i}")
        while state["hand_no"] == 1 and not state["over"]:
            seat = state["turn"]
            legal = ENGINE.legal_actions(state, seat)
            view = ENGINE.view(state, seat)
            if seat == 0 and legal[0]["type"] != "draw" and len(view["seats"][1]["moves"]) >= 2:
                guess = strategy.Guess(view)
                started = time.process_time()
                rng = random.Random(f"{args.seed}/{i}/{state['applied']}")
                hands = guess.hands(rng, strategy.GUESS_POOL, strategy.GUESS_KEEP)
                cpu += time.process_time() - started
                calls += 1
                truth = melds.hand_mask(state["hands"][1])
                even = guess.hidden / len(guess.unseen)
                for bit in guess.unseen:
                    chance = sum(1 for h in hands if h & bit) / len(hands)
                    real = 1.0 if truth & bit else 0.0
                    guessed += (chance - real) ** 2
                    uniform += (even - real) ** 2
                    cards += 1
                    if real:
                        held_guessed += chance
                        held_uniform += even
                        held += 1
            rng = bot_rng(state["seed"], seat, state["applied"])
            ENGINE.apply(state, seat, TODAY.choose(view, legal, rng))
    print(
        f"gin guess over {calls} positions: Brier {guessed / cards:.4f} (uniform "
        f"{uniform / cards:.4f}, skill {1 - guessed / uniform:+.3f}); a held card's chance "
        f"{held_guessed / held:.3f} (uniform {held_uniform / held:.3f}); "
        f"{1000 * cpu / calls:.1f} ms of CPU a guess"
    )


if __name__ == "__main__":
    main()
