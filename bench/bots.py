"""How good each game's computer player is, against a simple baseline player.

    .venv/bin/python bench/bots.py [--kind KIND ...] [--games 2000] [--seed bench]

Every kind with a module in ``bench/baselines/<kind>.py`` is measured. That module defines:

- ``baseline(view, legal, rng) -> action``: the simple player (it sees what a seat sees);
- ``success(engine, state, seats) -> float``: how well ``seats`` (the computer player's
  seats) did in a finished game, from 0 to 1 (a win, a share of contracts made, ...);
- ``METRIC``: what ``success`` measures, in words; ``PLAYERS``: the table size for the
  head-to-head (default 2);
- or instead ``measure(engine, games, seed) -> str``: a game whose figure is not a
  head-to-head (e.g. contracts made by the computer at every seat beside the baseline at every
  seat) measures itself and returns the line to print.

Game ``i`` uses the seed ``f"{seed}/{kind}/{i}"``; the computer player takes the even seats in
even games and the odd seats in odd games, so neither side keeps the first turn. Everything
goes through the engine contract (``bot_action`` for the computer, ``baseline`` on
``view``/``legal_actions`` for the other). Printed per kind: the success rate with a 95%
interval, and games/s of 4-seat games between computer players (where the game seats 4).
This is a benchmark, not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import importlib
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gameplay.engine import registry  # noqa: E402

BASELINES = Path(__file__).resolve().parent / "baselines"


def measured_kinds() -> list[str]:
    return sorted(p.stem for p in BASELINES.glob("*.py") if p.stem in registry.kinds())


def head_to_head(kind: str, games: int, seed: str) -> dict:
    engine = registry.get(kind)
    module = importlib.import_module(f"baselines.{kind}")
    players = getattr(module, "PLAYERS", 2)
    total = 0.0
    start = time.perf_counter()
    for i in range(games):
        game_seed = f"{seed}/{kind}/{i}"
        bots = [s for s in range(players) if s % 2 == i % 2]
        state = engine.new_game(players, game_seed)
        while not engine.is_over(state):
            for seat in engine.to_act(state):
                if seat not in engine.to_act(state):
                    continue  # a simultaneous stage moved on
                if seat in bots:
                    action = engine.bot_action(state, seat)
                else:
                    rng = random.Random(f"{game_seed}/baseline/{seat}/{state['applied']}")
                    legal = engine.legal_actions(state, seat)
                    action = module.baseline(engine.view(state, seat), legal, rng)
                engine.apply(state, seat, action)
                if engine.is_over(state):
                    break
        total += module.success(engine, state, bots)
    seconds = time.perf_counter() - start
    rate = total / games
    half = 1.96 * math.sqrt(max(rate * (1 - rate), 1e-9) / games)
    return {
        "players": players,
        "rate": rate,
        "half": half,
        "metric": module.METRIC,
        "seconds": seconds,
    }


def bots_only(kind: str, games: int, seed: str) -> dict:
    engine = registry.get(kind)
    players = min(4, engine.max_players)
    actions = 0
    start = time.perf_counter()
    for i in range(games):
        state = engine.new_game(players, f"{seed}/{kind}/all-bots/{i}")
        while not engine.is_over(state):
            seat = engine.to_act(state)[0]
            engine.apply(state, seat, engine.bot_action(state, seat))
            actions += 1
    seconds = time.perf_counter() - start
    return {"players": players, "games_per_s": games / seconds, "actions_per_s": actions / seconds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kind", action="append", help="a kind to measure (repeatable)")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--speed-games", type=int, default=200)
    parser.add_argument("--seed", default="bench")
    args = parser.parse_args()
    sys.path.insert(0, str(BASELINES.parent))
    for kind in args.kind or measured_kinds():
        speed = bots_only(kind, args.speed_games, args.seed)
        speed_text = (
            f"{speed['players']}-seat computer-only games: {speed['games_per_s']:.1f} games/s, "
            f"{speed['actions_per_s']:.0f} actions/s"
        )
        module = importlib.import_module(f"baselines.{kind}")
        if hasattr(module, "measure"):
            print(
                f"{kind}: {module.measure(registry.get(kind), args.games, args.seed)}; {speed_text}"
            )
            continue
        h2h = head_to_head(kind, args.games, args.seed)
        print(
            f"{kind}: {h2h['metric']}: {100 * h2h['rate']:.1f}% ± {100 * h2h['half']:.1f}% "
            f"over {args.games} {h2h['players']}-seat games vs the baseline "
            f"({args.games / h2h['seconds']:.0f} games/s); {speed_text}"
        )


if __name__ == "__main__":
    main()
