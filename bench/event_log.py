"""How the event log grows, on the database a load run wrote (bench/load.py against make serve).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/cubiccards .venv/bin/python bench/event_log.py
        [--rate 250] [--sample 200]

Prints the GameEvent table's bytes per action (rows and indexes, as PostgreSQL stores them),
actions and bytes per whole game (War, Poker, Blackjack), the bytes a day at --rate actions a second, what
the archive (gameplay.archive) would keep for the same games (one compressed row each), and
EXPLAIN ANALYZE of the queries every move runs, on this table at its real size. Reads only.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cubiccards.settings")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402

from gameplay import store  # noqa: E402
from gameplay.archive import packed  # noqa: E402
from gameplay.engine.simulate import simulate  # noqa: E402
from gameplay.models import Game, GameEvent  # noqa: E402


def sizes() -> dict[str, int]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_relation_size('gameplay_gameevent'), "
            "pg_indexes_size('gameplay_gameevent'), "
            "pg_total_relation_size('gameplay_gameevent')"
        )
        table, indexes, total = cursor.fetchone()
    return {"table": table, "indexes": indexes, "total": total}


def explain(sql: str, params) -> str:
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (ANALYZE, COSTS OFF) " + sql, params)
        return "\n".join("    " + row[0] for row in cursor.fetchall())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rate", type=float, default=250.0, help="actions a second")
    parser.add_argument("--sample", type=int, default=200, help="finished games to pack")
    args = parser.parse_args()
    rows = GameEvent.objects.count()
    if not rows:
        raise SystemExit("No events: run bench/load.py against this database first.")
    size = sizes()
    per_action = size["total"] / rows
    print(
        f"GameEvent: {rows:,} actions, {size['table'] / 1e6:.1f} MB rows + "
        f"{size['indexes'] / 1e6:.1f} MB indexes = {per_action:.0f} bytes an action"
    )
    print(
        f"at {args.rate:g} actions/s: {args.rate * 86400:,.0f} actions, "
        f"{per_action * args.rate * 86400 / 1e9:.1f} GB a day"
    )
    # What the archive keeps per action, from games this database holds that have ended.
    ended = Game.objects.exclude(status=Game.Status.ACTIVE).filter(seq__gt=0).order_by("-pk")
    sample = list(ended[: args.sample])
    packs = [packed(g) for g in sample]
    archived = sum(len(data) for data, _ in packs) / max(1, sum(n for _, n in packs))
    print(
        f"archived (gameplay.archive, {len(sample)} ended games): {archived:.0f} bytes an "
        f"action, {per_action / archived:.0f}x smaller"
    )
    # A whole game's length from the engines (computer against computer, two seats).
    for kind in ("war", "poker", "blackjack"):
        result = simulate(kind, 50, "growth", players=2)
        mean = result["actions"] / result["games"]
        print(
            f"{kind:10} {mean:6.0f} actions a two-seat game: {mean * per_action / 1e3:6.1f} kB "
            f"in GameEvent, {mean * archived / 1e3:5.1f} kB archived"
        )
    game = Game.objects.filter(seq__gt=2).order_by("-pk").first()
    print("\nA retry's check (game, seat, action id):")
    print(explain(store._APPLIED_SQL, [game.pk, 0, "a1"]))
    print("Rebuilding a state from the log (game, seq):")
    print(explain(*GameEvent.objects.filter(game=game).order_by("seq").query.sql_with_params()))
    print("A rebase check (this seat acted since?):")
    print(explain(store._SINCE_SQL, [game.pk, 0, 1]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
