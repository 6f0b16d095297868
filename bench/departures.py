"""How often the shedding search plays something other than Hard's move (its
rule, and the move it starts from).

    .venv/bin/python bench/departures.py [--kind crazy8] [--positions 100] [--deals 60,200]
        [--sure 2.5]

Positions come from games between Medium players (every second move that offers more than
one choice, drawing included); at each, Expert's search (``search.search`` with ``--deals``
deals, the 0.8 s cap, the bar ``--sure``) is compared with Hard's move. A search that
never departs from Hard plays Hard, whatever the ladder's figure says. A benchmark.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gameplay.engine import registry  # noqa: E402
from gameplay.engine.cards import bot_rng  # noqa: E402
from gameplay.engine.games.shedding import search, strategy  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kind", default="crazy8", choices=["crazy8", "american8"])
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--deals", default="60,200")
    parser.add_argument("--sure", type=float, default=search.SURE)
    args = parser.parse_args()
    engine = registry.get(args.kind)
    search.SURE = args.sure
    positions, game = [], 0
    while len(positions) < args.positions:
        state = engine.new_game(2, f"departures/{game}")
        game += 1
        move = 0
        while not engine.is_over(state) and len(positions) < args.positions:
            seat = engine.to_act(state)[0]
            legal = engine.legal_actions(state, seat)
            if move % 2 == 0 and len({(a["type"], a.get("card")) for a in legal}) > 1:
                where = (state["seed"], seat, state["applied"])
                positions.append((engine.view(state, seat), legal, where))
            engine.apply(state, seat, engine.bot_action(state, seat, "medium"))
            move += 1
    for deals in (int(d) for d in args.deals.split(",")):
        departs = sum(
            search.search(engine, view, legal, bot_rng(*where), deals, search.CPU_CAP)
            != strategy.hard(view, legal)
            for view, legal, where in positions
        )
        print(
            f"{args.kind}, {deals} deals, SURE {search.SURE}: departs from Hard's move at "
            f"{departs} of {len(positions)} positions",
            flush=True,
        )


if __name__ == "__main__":
    main()
