"""Bot-vs-bot games per second and actions per second, for every registered game.

    .venv/bin/python bench/engines.py [--games 100] [--seed bench] [--kind war ...]
                                      [--players N | --all-players] [--json]

Each row plays ``--games`` games through the engine contract only (``new_game``, then
``bot_action`` and ``apply`` for each seat in ``to_act`` until ``is_over``), with
``gameplay.engine.simulate.simulate``; game ``i`` uses the seed ``f"{seed}/{i}"``. The player
count is the kind's minimum unless ``--players`` (clamped to the kind's range) or
``--all-players`` says otherwise. Besides speed, each row shows how the games ended (wins per
seat, shared wins, draws) so a broken bot or an endless game is visible at once.

Figures are wall-clock on this machine: compare runs, not machines. This is a benchmark,
not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gameplay.engine import registry  # noqa: E402
from gameplay.engine.simulate import simulate  # noqa: E402


def player_counts(kind: str, players: int | None, all_players: bool) -> list[int]:
    engine = registry.get(kind)
    if all_players:
        return list(range(engine.min_players, engine.max_players + 1))
    if players is None:
        return [engine.min_players]
    return [min(max(players, engine.min_players), engine.max_players)]


def run(kinds: list[str], games: int, seed: str, players: int | None, all_players: bool):
    rows = []
    for kind in kinds:
        for count in player_counts(kind, players, all_players):
            rows.append(simulate(kind, games, seed, count))
    return rows


def table(rows: list[dict]) -> str:
    head = (
        f"{'kind':<11} {'seats':>5} {'games':>6} {'actions':>9} {'act/game':>8} "
        f"{'seconds':>8} {'games/s':>9} {'actions/s':>10}  wins per seat / shared / draws"
    )
    lines = [head, "-" * len(head)]
    for r in rows:
        per_game = r["actions"] / r["games"] if r["games"] else 0
        lines.append(
            f"{r['kind']:<11} {r['players']:>5} {r['games']:>6} {r['actions']:>9} "
            f"{per_game:>8.1f} {r['seconds']:>8.2f} {r['games_per_second']:>9.1f} "
            f"{r['actions_per_second']:>10.0f}  {r['wins']} / {r['shared']} / {r['draws']}"
        )
    total_actions = sum(r["actions"] for r in rows)
    total_seconds = sum(r["seconds"] for r in rows)
    if total_seconds:
        lines.append("-" * len(head))
        lines.append(
            f"{'all':<11} {'':>5} {sum(r['games'] for r in rows):>6} {total_actions:>9} "
            f"{'':>8} {total_seconds:>8.2f} {'':>9} {total_actions / total_seconds:>10.0f}"
        )
    return "\n".join(lines)


def _django():
    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cubiccards.settings")
    import django

    django.setup()


def _play_war_through_services(games: int, seed: str, start=None) -> dict:
    """One writer: `games` War games, every action through gameplay.services.submit_action
    (locked, applied, logged, committed, cached, broadcast), one after another. `start`: a
    barrier to wait at first, so several writers begin together."""
    import time

    _django()
    from gameplay import services

    engine = registry.get("war")
    seats = [{"name": "A"}, {"name": "B"}]
    created, actions = [], 0
    if start is not None:
        start.wait()
    began, cpu = time.time(), time.process_time()
    for i in range(games):
        game = services.start_game(kind="war", seats=seats, seed=f"{seed}/{i}")
        created.append(game.pk)
        state = engine.new_game(2, game.seed)
        while not engine.is_over(state):
            seat = engine.to_act(state)[0]
            outcome = services.submit_action(
                game_id=game.pk,
                seat=seat,
                action=engine.bot_action(state, seat),
                seq=state["applied"],
            )
            state = outcome.state
            actions += 1
    return {
        "began": began,
        "ended": time.time(),
        "cpu": time.process_time() - cpu,  # this writer's CPU (its broadcast thread included)
        "actions": actions,
        "games": created,
    }


def service_war(games: int, seed: str, writers: tuple[int, ...] = (1, 4)) -> dict:
    """War through gameplay.services on the configured database (PostgreSQL with
    DATABASE_URL), by 1 writer and by N writers at once (separate processes, as daphne and
    Celery workers are, each on its own games); beside them, the same games through the
    engine contract alone, in the same run."""
    import multiprocessing

    _django()
    from django.core.management import call_command
    from django.db import connection

    from gameplay.models import Game

    call_command("migrate", verbosity=0)
    context = multiprocessing.get_context("spawn")
    out = {"database": connection.vendor, "games": games, "writers": {}}
    created = []
    for count in writers:
        start = context.Manager().Barrier(count)
        with context.Pool(count) as pool:
            runs = pool.starmap(
                _play_war_through_services,
                [(games, f"{seed}/service/{count}w{w}", start) for w in range(count)],
            )
        seconds = max(r["ended"] for r in runs) - min(r["began"] for r in runs)
        actions = sum(r["actions"] for r in runs)
        created += [pk for r in runs for pk in r["games"]]
        out["writers"][count] = {
            "actions": actions,
            "seconds": seconds,
            "actions_per_second": actions / seconds,
            "cpu_ms_per_action": 1000 * sum(r["cpu"] for r in runs) / actions,
        }
    contract = simulate("war", games, f"{seed}/service/1w0", 2)
    out["contract_actions_per_second"] = contract["actions_per_second"]
    Game.objects.filter(pk__in=created).delete()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per row (default 100)")
    parser.add_argument("--seed", default="bench", help="base seed (game i uses seed/i)")
    parser.add_argument("--kind", action="append", help="only this kind (repeatable)")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--players", type=int, help="seats per game (clamped per kind)")
    group.add_argument("--all-players", action="store_true", help="a row per player count")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument(
        "--service-games",
        type=int,
        default=0,
        help="also play this many War games through the service layer (DATABASE_URL), "
        "by one writer and by 4 writers at once",
    )
    args = parser.parse_args(argv)

    kinds = args.kind or registry.kinds()
    unknown = [k for k in kinds if k not in registry.kinds()]
    if unknown:
        parser.error(f"unknown kind(s): {', '.join(unknown)}; known: {registry.kinds()}")
    if args.games < 1:
        parser.error("--games must be at least 1")
    rows = run(kinds, args.games, args.seed, args.players, args.all_players)
    print(json.dumps(rows, indent=2) if args.json else table(rows))
    if args.service_games:
        s = service_war(args.service_games, args.seed)
        contract = s["contract_actions_per_second"]
        print(f"\nWar through the service layer ({s['database']}), {s['games']} games a writer:")
        for count, w in s["writers"].items():
            print(
                f"  {count} writer{'s' if count > 1 else ''}: {w['actions']} actions persisted "
                f"in {w['seconds']:.1f} s = {w['actions_per_second']:,.0f} actions/s, "
                f"{w['cpu_ms_per_action']:.2f} ms of the writer's CPU each"
            )
        print(f"  the same games through the contract alone: {contract:,.0f} actions/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
