"""How often the shedding search plays something other than Hard's move (its
rule, and the move it starts from), and with ``--worth`` what those departures are worth.

    .venv/bin/python bench/departures.py [--kind crazy8] [--mode maumau] [--positions 100]
        [--deals 60,200] [--sure 2.5] [--worth 400] [--no-reads] [--hard] [--seed departures]

Positions come from games between Medium players (every second move that offers more than
one choice, drawing included); at each, Expert's search (``search.search`` with ``--deals``
deals, the 0.8 s cap, the bar ``--sure``) is compared with Hard's move. A search that
never departs from Hard plays Hard, whatever the ladder's figure says.

``--worth N`` plays each departure and Hard's move out N times from the true position (the
real hands; the draw pile shuffled anew each time, the same shuffles for both moves; every
seat then plays ``search.like_medium``) and prints the chance of winning the round that a
departure adds, with a 95% interval, and that gain spread over every position: far less
noisy than a ladder of whole games. ``--no-reads`` turns off the search's reading of the
other seat's plays (``search.READS``). A benchmark: nothing is asserted.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gameplay.engine import registry  # noqa: E402
from gameplay.engine.cards import bot_rng  # noqa: E402
from gameplay.engine.core import clone  # noqa: E402
from gameplay.engine.games.shedding import search, strategy  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kind", default="crazy8", choices=["crazy8", "american8"])
    parser.add_argument("--mode", help="a preset of the kind's rules (Crazy 8: maumau, 101)")
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--deals", default="60,200")
    parser.add_argument("--sure", type=float, default=search.SURE)
    parser.add_argument("--worth", type=int, default=0, help="play-outs a departure")
    parser.add_argument("--no-reads", action="store_true")
    parser.add_argument("--seed", default="departures", help="the games the positions come from")
    parser.add_argument(
        "--hard", action="store_true", help="Hard's departures from Medium's move instead"
    )
    args = parser.parse_args()
    engine = registry.get(args.kind)
    search.SURE = args.sure
    search.READS = not args.no_reads
    rules = {"mode": args.mode} if args.mode else None
    positions, game = [], 0
    points = engine.new_game(2, "rules", rules)["ruleset"]["scoring"] == "points"
    while len(positions) < args.positions:
        state = engine.new_game(2, f"{args.seed}/{game}", rules)
        game += 1
        move = 0
        while not engine.is_over(state) and len(positions) < args.positions:
            seat = engine.to_act(state)[0]
            legal = engine.legal_actions(state, seat)
            if move % 2 == 0 and len({(a["type"], a.get("card")) for a in legal}) > 1:
                where = (state["seed"], seat, state["applied"])
                positions.append((engine.view(state, seat), legal, where, clone(state)))
            engine.apply(state, seat, engine.bot_action(state, seat, "medium"))
            move += 1
    if args.hard:
        gains = []
        for view, legal, _, truth in positions:
            move, usual = strategy.hard(view, legal), strategy.choose(view, legal)
            if move != usual:
                gains.append(worth(engine, truth, move, usual, args.worth) if args.worth else 0)
        report(
            f"{args.mode or args.kind}: Hard departs from Medium's move",
            gains,
            len(positions),
            args.worth,
            points,
        )
        return
    for deals in (int(d) for d in args.deals.split(",")):
        gains = []
        for view, legal, where, truth in positions:
            move = search.search(engine, view, legal, bot_rng(*where), deals, search.CPU_CAP)
            usual = strategy.hard(view, legal)
            if move != usual:
                gains.append(worth(engine, truth, move, usual, args.worth) if args.worth else 0)
        report(
            f"{args.kind}, {deals} deals, SURE {search.SURE}, reads {search.READS}: departs "
            "from Hard's move",
            gains,
            len(positions),
            args.worth,
            points,
        )


def report(what: str, gains: list[float], positions: int, worth: int, points: bool) -> None:
    print(f"{what} at {len(gains)} of {positions} positions", flush=True)
    if worth and gains:
        # Points scoring: the round's margin in card points; else the chance to win it, in %.
        scale, unit = (
            (1, "card points of the round's margin")
            if points
            else (100, "points of the chance to win the round")
        )
        mean, half = interval(gains)
        every, every_half = interval(gains + [0.0] * (positions - len(gains)))
        print(
            f"  a departure's worth: {scale * mean:+.1f} ± {scale * half:.1f} {unit}; "
            f"over every position {scale * every:+.2f} ± {scale * every_half:.2f}",
            flush=True,
        )


def interval(values: list[float]) -> tuple[float, float]:
    """The mean and its 95% half-interval."""
    mean = sum(values) / len(values)
    var = sum((v - mean) ** 2 for v in values) / max(len(values) - 1, 1)
    return mean, 1.96 * math.sqrt(var / len(values))


def worth(engine, truth: dict, move: dict, usual: dict, playouts: int) -> float:
    """The chance of winning the round ``move`` adds over ``usual`` from the true position."""
    seat = engine.to_act(truth)[0]
    rng = random.Random(repr(truth["applied"]) + truth["seed"])
    total = 0.0
    for _ in range(playouts):
        state = clone(truth)
        rng.shuffle(state["stock"])
        seed = rng.random()
        for sign, action in ((1, move), (-1, usual)):
            work = clone(state)
            engine.play(work, seat, action)
            total += sign * search.playout(engine, work, seat, random.Random(seed))
    return total / playouts


if __name__ == "__main__":
    main()
