"""The computer players' ladder: every strength against every other, per game.

    .venv/bin/python bench/ladder.py --kind gin [--games 1000] [--seed ladder] [--today]
        [--only easy,hard] [--adjacent] [--progress]

For each pair of strengths (``Engine.strengths``, weakest first) the two play ``--games``
games head to head through the engine contract (``bot_action(state, seat, strength)``); the
first of the pair takes seat 0 in even games and seat 1 in odd games, so neither keeps the
first turn. Game ``i`` of a pair uses the seed ``f"{seed}/{kind}/{a}-{b}/{i}"``. With
``--today``, the computer player as it was before the four strengths (kept in
``bench/baselines/today/<kind>.py`` as ``choose(view, legal, rng)``) joins as one more row.

Printed: a matrix of the row's score against the column (a win 1, a shared win ½, a loss 0;
for games scored otherwise, see ``SCORES``) with 95% intervals, and the CPU time a move per
strength (p50 / p99 / max), after ``registry.warm_up()`` has built the tables a worker builds
as it starts (so no move is timed building one). A benchmark, not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import importlib
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gameplay.engine import registry  # noqa: E402
from gameplay.engine.cards import bot_rng  # noqa: E402

TODAY = "today"


def head_to_head_score(engine, state, seat: int) -> float:
    """1 for a win alone, 1/n for a win shared by n, 0 for a loss."""
    winners = engine.result(state)["winners"]
    return 1 / len(winners) if seat in winners else 0.0


def blackjack_score(engine, state, seat: int) -> float:
    """Each seat plays the dealer, not the other seat, at the same table (the same shoe and
    dealer's hands, so the difference is sharper than either): the seat's chips minus the
    other seat's at the end, in minimum bets (5 chips) per round dealt."""
    chips = engine.result(state)["scores"]
    return (chips[seat] - chips[1 - seat]) / 5 / max(state["round"], 1)


# How a finished game scores for one seat, where a win is not the measure (kind -> function
# of (engine, state, seat) -> float). The default is head_to_head_score.
SCORES: dict = {"blackjack": blackjack_score}
# Scores where the column's score against the row is minus the row's (a difference).
DIFFERENCES = {"blackjack"}
# The table size of a ladder game, where it isn't two (kind -> players): the strengths under
# test take seats 0 and 1 in turn and the rest are filled by MEDIUM.
PLAYERS: dict = {}


class Player:
    """One strength of the game's computer (or today's computer) choosing for a seat."""

    def __init__(self, engine, name: str):
        self.engine, self.name = engine, name
        self.times: list[float] = []
        self.today = (
            importlib.import_module(f"baselines.today.{engine.kind}") if name == TODAY else None
        )

    def act(self, state, seat: int):
        started = time.process_time()
        if self.today is not None:
            legal = self.engine.legal_actions(state, seat)
            rng = bot_rng(state["seed"], seat, state["applied"])
            action = self.today.choose(self.engine.view(state, seat), legal, rng)
        else:
            action = self.engine.bot_action(state, seat, self.name)
        self.times.append(time.process_time() - started)
        return action


def play(
    engine, a: Player, b: Player, games: int, seed: str, progress: bool = False
) -> tuple[float, float]:
    """Mean score of `a` against `b` and its 95% half-interval."""
    players = PLAYERS.get(engine.kind, 2)
    score = SCORES.get(engine.kind, head_to_head_score)
    filler = Player(engine, "medium")
    results = []
    for i in range(games):
        seat_a, seat_b = (0, 1) if i % 2 == 0 else (1, 0)
        chooser = {seat_a: a, seat_b: b}
        state = engine.new_game(players, f"{seed}/{engine.kind}/{a.name}-{b.name}/{i}")
        while not engine.is_over(state):
            for seat in engine.to_act(state):
                if seat not in engine.to_act(state):
                    continue  # a simultaneous stage moved on
                engine.apply(state, seat, chooser.get(seat, filler).act(state, seat))
                if engine.is_over(state):
                    break
        results.append(score(engine, state, seat_a))
        if progress:  # a long run stopped early still leaves its games counted
            print(
                f"  game {i}: {results[-1]:g} (running {sum(results) / len(results):.3f})",
                file=sys.stderr,
                flush=True,
            )
    mean = sum(results) / len(results)
    spread = math.sqrt(sum((x - mean) ** 2 for x in results) / max(len(results) - 1, 1))
    return mean, 1.96 * spread / math.sqrt(len(results))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kind", required=True)
    parser.add_argument("--games", type=int, default=1000, help="games for each pair")
    parser.add_argument("--seed", default="ladder")
    parser.add_argument("--today", action="store_true", help="today's computer joins as a row")
    parser.add_argument("--only", help="comma-separated strengths to play (default: all)")
    parser.add_argument(
        "--adjacent",
        action="store_true",
        help="only each strength against the next one up (and today's against medium and the "
        "strongest), for games too slow for every pair",
    )
    parser.add_argument(
        "--progress", action="store_true", help="print each game's score to stderr as it ends"
    )
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    engine = registry.get(args.kind)
    registry.warm_up()  # as a worker does when it starts (cubiccards/celery.py)
    names = args.only.split(",") if args.only else list(engine.strengths)
    if args.today:
        names.append(TODAY)
    players = {name: Player(engine, name) for name in names}
    started = time.perf_counter()
    # A win rate prints as a percentage; a difference in minimum bets a round, as it is.
    scale, places = (1, 3) if args.kind in DIFFERENCES else (100, 1)
    matrix = {}
    pairs = [(row, column) for i, row in enumerate(names) for column in names[i + 1 :]]
    if args.adjacent:
        levels = [n for n in names if n != TODAY]
        pairs = list(zip(levels, levels[1:], strict=False))
        if args.today:
            pairs += [(level, TODAY) for level in dict.fromkeys(["medium", levels[-1]])]
    for row, column in pairs:
        mean, half = play(
            engine, players[row], players[column], args.games, args.seed, args.progress
        )
        matrix[row, column] = (mean, half)
        if args.kind in DIFFERENCES:
            matrix[column, row] = (-mean, half)
        else:
            matrix[column, row] = (1 - mean, half) if args.kind not in SCORES else None
        print(
            f"{row} vs {column}: {scale * mean:.{places}f} ± {scale * half:.{places}f}", flush=True
        )
    unit = "min. bets a round" if args.kind in DIFFERENCES else "%"
    print(f"\n{args.kind}: row's score against column ({unit}), {args.games} games a pair")
    print(" " * 8 + "".join(f"{n:>16}" for n in names))
    for row in names:
        cells = []
        for column in names:
            cell = matrix.get((row, column))
            cells.append(
                f"{'—' if cell is None else f'{scale * cell[0]:.{places}f}±{scale * cell[1]:.{places}f}':>16}"
            )
        print(f"{row:>8}" + "".join(cells))
    print("\nCPU a move (ms): p50 / p99 / max")
    for name, player in players.items():
        t = [1000 * x for x in player.times]
        print(
            f"{name:>8}: {percentile(t, 0.5):.2f} / {percentile(t, 0.99):.2f} / {max(t, default=0):.2f}"
        )
    print(f"\n{time.perf_counter() - started:.0f} s in all")


if __name__ == "__main__":
    main()
