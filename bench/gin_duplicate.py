"""Gin strengths compared on duplicate hands: the luck of the deal cancels out.

    .venv/bin/python bench/gin_duplicate.py --player hard [--against today] [--deals 300]
        [--seed dup] [--sees-hand]

Each deal is played twice as a single hand (the first hand of a game with that seed), once
with ``--player`` in each seat; the hand's points go to its winner. Printed: the player's
mean points a hand over its opponent, with a 95% interval. A game to 100 lasts several hands,
so a few points a hand are worth many games; this separates two players with far fewer
deals than whole games do (``bench/ladder.py``). ``--sees-hand`` hands Hard's and Expert's
guesses the opponent's real hand (only here, never in the game): the ceiling that better
guessing could approach. A benchmark, not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import importlib
import math
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
GUESSES = strategy.Guess.hands


def act(name: str, state: dict, seat: int, sees: bool) -> dict:
    if name == "today":
        legal = ENGINE.legal_actions(state, seat)
        rng = bot_rng(state["seed"], seat, state["applied"])
        return TODAY.choose(ENGINE.view(state, seat), legal, rng)
    strategy.Guess.hands = GUESSES
    if sees:
        truth = melds.hand_mask(state["hands"][1 - seat])
        strategy.Guess.hands = lambda guess, rng, pool, keep: [truth] * keep
    return ENGINE.bot_action(state, seat, name)


def hand(player: str, against: str, seed: str, seat: int, sees: bool) -> int:
    """The player's points less its opponent's over the first hand dealt from ``seed``."""
    state = ENGINE.new_game(2, seed)
    names = {seat: player, 1 - seat: against}
    while state["hand_no"] == 1 and not state["over"]:
        turn = state["turn"]
        ENGINE.apply(state, turn, act(names[turn], state, turn, sees and turn == seat))
    return state["scores"][seat] - state["scores"][1 - seat]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--player", required=True)
    parser.add_argument("--against", default="today")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", default="dup")
    parser.add_argument("--sees-hand", action="store_true")
    args = parser.parse_args()
    started = time.process_time()
    pairs = []
    for i in range(args.deals):
        seed = f"{args.seed}/{i}"
        both = sum(hand(args.player, args.against, seed, s, args.sees_hand) for s in (0, 1))
        pairs.append(both / 2)
    n = len(pairs)
    mean = sum(pairs) / n
    spread = math.sqrt(sum((x - mean) ** 2 for x in pairs) / max(n - 1, 1))
    seeing = " seeing the opponent's hand" if args.sees_hand else ""
    print(
        f"gin: {args.player}{seeing} against {args.against}: {mean:+.2f} ± "
        f"{1.96 * spread / math.sqrt(n):.2f} points a hand over {n} duplicate deals "
        f"({time.process_time() - started:.0f} s of CPU)"
    )


if __name__ == "__main__":
    main()
