"""How long a game against the computer lasts, at each length a game offers, at a person's pace.

    .venv/bin/python bench/durations.py [--games 40] [--write]

Plays computer-only games through the engines (no database): every seat is the computer at
Medium, and seat 0 stands for the person at the table the home page's button starts (the
game's fewest seats, computer players in the rest). Each game is then timed as a table plays
it:

- the person takes the game's ``real_game.pace`` seconds a decision (what a person usually
  takes, as the rules pages and bench/farming.py assume: 1.5 s a War flip, 5-8 s a decision
  elsewhere);
- a computer player moves after the table's Normal Speed Play pause, ``BOT_DELAY`` seconds
  (1 s) times one plus the game's own ``pause`` for that moment (a Poker showdown);
- where several seats act at once (War's flips, Blackjack's bets), the stage lasts as long as
  its slowest seat, not their sum.

"Classic" is the default rules; "Quick" an engine's ``quick`` rules, where it has them. Prints
per game and length the mean and median minutes, the person's decisions and their credited
seconds (each decision credits its thinking time, at most ``gameplay.play.THINK_CAP``), and
seat 0's share of wins. ``--write`` keeps the figures in cubiccards/lengths.json, which the
home page's tiles read ("Quick · about 3 min") and bench/economy.py plays its players from.
This is a benchmark, not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cubiccards.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402

from cubiccards.lengths import DATA  # noqa: E402
from gameplay.engine import registry  # noqa: E402
from gameplay.play import THINK_CAP  # noqa: E402

PERSON = 0


def lengths(engine) -> dict[str, dict]:
    """The lengths the home page offers: Quick first where the game has one."""
    found = {"quick": dict(engine.quick)} if engine.quick else {}
    found["classic"] = {}
    return found


def play(engine, players: int, rules: dict, seed: str) -> tuple[float, float, int, bool]:
    """One computer-only game: (seconds at a table, the person's credited seconds, the
    person's decisions, whether the person's seat won)."""
    state = engine.new_game(players, seed, rules or None)
    pace = engine.real_game.pace
    credit = min(pace, THINK_CAP.total_seconds())
    seconds = credited = 0.0
    decisions = 0
    while not engine.is_over(state):
        stage = engine.to_act(state)
        computer = settings.BOT_DELAY * (1 + engine.pause(state))
        seconds += max(pace if PERSON in stage else 0, computer if set(stage) - {PERSON} else 0)
        for seat in stage:
            if seat not in engine.to_act(state):
                continue  # the stage moved on without it
            engine.apply(state, seat, engine.bot_action(state, seat))
            if seat == PERSON:
                decisions += 1
                credited += credit
            if engine.is_over(state):
                break
    return seconds, credited, decisions, PERSON in engine.result(state)["winners"]


def measure(kind: str, games: int) -> dict:
    engine = registry.get(kind)
    players = engine.min_players
    found = {}
    for name, rules in lengths(engine).items():
        runs = [play(engine, players, rules, f"durations/{kind}/{name}/{i}") for i in range(games)]
        minutes = [r[0] / 60 for r in runs]
        found[name] = {
            "rules": rules,
            "mean_minutes": round(statistics.mean(minutes), 2),
            "median_minutes": round(statistics.median(minutes), 2),
            "decisions": round(statistics.mean(r[2] for r in runs), 1),
            "credited_seconds": round(statistics.mean(r[1] for r in runs), 1),
            "wins": round(sum(r[3] for r in runs) / games, 3),
            # Each game as played: seconds at the table, credited seconds, won (1) or not.
            "games": [[round(r[0]), round(r[1]), int(r[3])] for r in runs],
        }
    return {"players": players, "pace": engine.real_game.pace, "lengths": found}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games per game and length")
    parser.add_argument("--write", action="store_true", help=f"keep the figures in {DATA}")
    parser.add_argument("kinds", nargs="*", help="games to measure (default: all)")
    args = parser.parse_args()
    kinds = args.kinds or registry.kinds()
    started = time.perf_counter()
    figures = {kind: measure(kind, args.games) for kind in kinds}
    print(
        f"{args.games} computer-only games each; the person at real_game.pace s a decision, "
        f"the computer {settings.BOT_DELAY:g} s a move ({time.perf_counter() - started:.0f} s)"
    )
    print(
        f"{'game':<11}{'length':<9}{'seats':>5}{'pace s':>7}{'mean min':>9}{'median':>8}"
        f"{'decisions':>10}{'credited s':>11}{'wins':>6}"
    )
    for kind, found in figures.items():
        for name, row in found["lengths"].items():
            print(
                f"{kind:<11}{name:<9}{found['players']:>5}{found['pace']:>7g}"
                f"{row['mean_minutes']:>9.1f}{row['median_minutes']:>8.1f}{row['decisions']:>10.0f}"
                f"{row['credited_seconds']:>11.0f}{row['wins']:>6.0%}"
            )
    if args.write:
        kept = json.loads(DATA.read_text()) if DATA.exists() else {}
        kept.update(
            {
                "about": (
                    f"bench/durations.py --games {args.games}: computer-only games, the person "
                    f"at real_game.pace, the computer at BOT_DELAY {settings.BOT_DELAY:g} s"
                ),
                "kinds": {**kept.get("kinds", {}), **figures},
            }
        )
        DATA.write_text(json.dumps(kept, indent=1, sort_keys=True) + "\n")
        print(f"kept in {DATA.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
