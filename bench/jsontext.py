"""The JSON text of a move's path: the site's writer (infra/jsontext.py) against the standard
library's json, in the same run, on what a move writes and reads for each game.

    .venv/bin/python bench/jsontext.py [--positions 40] [--repeat 200] [--kind war ...]

For each game, positions of a two-player game (one player for solitaires) between computer
players: a seat's state message (the form the table socket sends: its view, legal actions and
the seats), and the game state as kept between moves (written once a move, read back for each
seat's view). Printed: microseconds of CPU each, with json, with the site's writer, and the
ratio. A benchmark, not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gameplay.engine import registry  # noqa: E402
from infra import jsontext  # noqa: E402


def samples(kind: str, count: int) -> tuple[list[dict], list[dict]]:
    """(state messages, states) met in play."""
    engine = registry.get(kind)
    players = max(engine.min_players, min(2, engine.max_players))
    state = engine.new_game(players, f"jsontext/{kind}")
    messages, states = [], []
    for step in range(count * 3):
        if engine.is_over(state) or len(states) == count:
            break
        seat = engine.to_act(state)[0]
        if step % 3 == 0:
            messages.append(
                {
                    "type": "state",
                    "seq": step,
                    "game": kind,
                    "game_id": 123456,
                    "seed_sha256": "0" * 64,
                    "seat": seat,
                    "view": engine.view(state, seat),
                    "legal": engine.legal_actions(state, seat),
                    "to_act": engine.to_act(state),
                    "over": False,
                    "result": None,
                    "seats": [{"name": f"Player {s}", "bot": s > 0} for s in range(players)],
                    "room": "ABCDE",
                    "host": True,
                    "members": [{"name": "Player 0", "online": True}],
                }
            )
            states.append(json.loads(json.dumps(state)))
        engine.apply(state, seat, engine.bot_action(state, seat))
    return messages, states


def per_call(work, values: list, repeat: int) -> float:
    """Microseconds of CPU a call of ``work`` on one of ``values``."""
    started = time.process_time()
    for _ in range(repeat):
        for value in values:
            work(value)
    return (time.process_time() - started) / (repeat * len(values)) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--kind", action="append", help="only these games")
    args = parser.parse_args()
    started = time.process_time()
    sum(i * i for i in range(10**7))
    print(f"machine: sum(i*i for i in range(10**7)) took {time.process_time() - started:.2f} s CPU")
    print(f"{'game':<12} {'what':<16} {'bytes':>6} {'json µs':>8} {'site µs':>8} {'ratio':>6}")
    for kind in args.kind or registry.kinds():
        messages, states = samples(kind, args.positions)
        texts = [jsontext.dumps(s) for s in states]  # as kept now; either reads it
        rows = [
            ("message, write", messages, json.dumps, jsontext.dumps),
            ("state, write", states, json.dumps, jsontext.dumps),
            ("state, read", texts, json.loads, jsontext.loads),
        ]
        for what, values, standard, site in rows:
            size = sum(len(v if isinstance(v, str) else jsontext.dumps(v)) for v in values)
            before = per_call(standard, values, args.repeat)
            after = per_call(site, values, args.repeat)
            print(
                f"{kind:<12} {what:<16} {size // len(values):>6} {before:>8.1f} {after:>8.1f} "
                f"{after / before:>6.2f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
