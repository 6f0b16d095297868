"""Kudos ledger throughput on PostgreSQL, and the weekly close over many players.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/cubiccards [REDIS_URL=redis://...] \\
        .venv/bin/python bench/ledger.py [--credits 2000] [--players 100000] [--keep]

Runs in a database of its own on the same server (``<name>_ledger_bench``, created fresh and
dropped at the end unless ``--keep``), so it never touches the site's data.

- Credits per second through ``kudos.services.credit`` (a locked balance row, an idempotency
  check, an appended entry, a commit, and the header refresh: a channel-layer message, to
  Redis when REDIS_URL is set) with 1 and 8 concurrent writers (processes, each with its own
  connection), spread over 1,000 players and all on one player (where every credit waits for
  the previous one's lock).
- The baseline, measured in the same run with the same writers: a bare one-row INSERT and
  commit per transaction, the floor any durable write pays here. Each figure is the median of
  three rounds that alternate baseline and credits; the ratio is the median of the rounds'
  ratios.
- The weekly close over ``--players`` players who each earned Kudos from play in the week
  (set up with bulk inserts that keep the ledger consistent, which ``verify_ledger`` checks):
  standings, frozen places and ten prizes; then the close run again (nothing to do), the
  live leaderboard's query, and the audit of every player.

Figures are wall-clock on this machine: compare ratios in one run, not machines. This is a
benchmark, not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from datetime import timedelta
from pathlib import Path
from statistics import median

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from own_database import own_database, release_connections  # noqa: E402

WRITERS = (1, 8)
ROUNDS = 3
SPREAD = 1000  # players in the "many players" runs


def concurrently(writers: int, total: int, work) -> float:
    """Run work(i) for i in range(total), split over ``writers`` processes (as web and worker
    processes write, each with its own database connection). Returns ops/s."""
    import multiprocessing

    from django.db import connection, connections

    fork = multiprocessing.get_context("fork")
    release_connections()  # each process opens its own
    ready = fork.Barrier(writers + 1)

    def run(first: int) -> None:
        connection.ensure_connection()
        ready.wait()
        for i in range(first, total, writers):
            work(i)
        connections.close_all()

    processes = [fork.Process(target=run, args=(w,)) for w in range(writers)]
    for p in processes:
        p.start()
    ready.wait()
    started = time.perf_counter()
    for p in processes:
        p.join()
    return total / (time.perf_counter() - started)


def throughput(credits: int) -> list[tuple[str, int, float, float]]:
    from django.db import connection, transaction

    from accounts.models import User
    from kudos import services
    from kudos.models import Account, Entry

    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE bench_commit (id bigserial PRIMARY KEY, n integer NOT NULL)")
    players = User.objects.bulk_create(
        [User(username=f"bench{i}", password="!") for i in range(SPREAD)]
    )
    ids = [p.pk for p in players]
    Account.objects.bulk_create([Account(user_id=i) for i in ids])  # as signing up makes
    run = iter(range(1_000_000))

    def baseline(writers: int) -> float:
        def insert(i: int) -> None:
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute("INSERT INTO bench_commit (n) VALUES (%s)", [i])

        return concurrently(writers, credits, insert)

    def credit(writers: int, *, many: bool) -> float:
        tag = next(run)

        def pay(i: int) -> None:
            services.credit(
                user_id=ids[i % SPREAD] if many else ids[0],
                amount=1,
                kind=Entry.Kind.PLAY,
                key=f"bench:{tag}:{i}",
                memo="Benchmark",
            )

        return concurrently(writers, credits, pay)

    # The machine may be shared: each figure is the median of ROUNDS rounds, and the rounds
    # alternate the baseline and the credits so a busy spell weighs on both alike.
    rows = []
    for writers in WRITERS:
        rounds = [
            (baseline(writers), credit(writers, many=True), credit(writers, many=False))
            for _ in range(ROUNDS)
        ]
        floor = median(r[0] for r in rounds)
        for label, column in (("1,000 players", 1), ("one player", 2)):
            rate = median(r[column] for r in rounds)
            ratio = median(r[column] / r[0] for r in rounds)
            rows.append((label, writers, rate, floor, ratio))
    return rows


def weekly_close(players: int) -> dict:
    from django.db import connection, transaction

    from accounts.models import User
    from kudos import clock, selectors, services
    from kudos.models import Account, Entry

    rng = random.Random(7)
    start = selectors.week_start(clock.now()) - selectors.WEEK  # last week: ready to close
    set_up = time.perf_counter()
    batch = 10_000
    for first in range(0, players, batch):
        with transaction.atomic():
            users = User.objects.bulk_create(
                [
                    User(username=f"week{i}", password="!")
                    for i in range(first, min(first + batch, players))
                ]
            )
            accounts, entries = [], []
            for user in users:
                balance = 0
                for n in range(2):  # two games each
                    amount = rng.randint(1, 200)
                    balance += amount
                    entries.append(
                        Entry(
                            user_id=user.pk,
                            amount=amount,
                            kind=Entry.Kind.PLAY,
                            key=f"bench-week:{user.pk}:{n}",
                            memo="Benchmark game",
                            balance_after=balance,
                            created=start + timedelta(seconds=rng.randrange(7 * 86400)),
                        )
                    )
                accounts.append(Account(user_id=user.pk, balance=balance))
            Account.objects.bulk_create(accounts)
            Entry.objects.bulk_create(entries)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    set_up = time.perf_counter() - set_up

    def timed(work):
        t = time.perf_counter()
        result = work()
        return result, time.perf_counter() - t

    closed, close_s = timed(services.close_weeks)
    again, again_s = timed(services.close_weeks)
    _, live_s = timed(lambda: selectors.standings(start, start + selectors.WEEK, limit=50))
    audit, audit_s = timed(selectors.audit)
    return {
        "players": players,
        "set_up": set_up,
        "closed": closed,
        "again": again,
        "problems": len(audit["problems"]),
        "entries": audit["entries"],
        "close_s": close_s,
        "again_s": again_s,
        "live_s": live_s,
        "audit_s": audit_s,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--credits", type=int, default=1000, help="credits per measurement")
    parser.add_argument("--players", type=int, default=100_000, help="players in the weekly close")
    parser.add_argument("--keep", action="store_true", help="keep the bench database")
    args = parser.parse_args()

    with own_database("_ledger_bench", keep=args.keep) as name:
        from django.conf import settings

        layer = "Redis" if settings.REDIS_URL else "in-memory"
        print(
            f"Kudos ledger on PostgreSQL ({name}); header refreshes through the {layer} channel layer"
        )
        print(
            f"\n{'credits':<16} {'writers':>7} {'credits/s':>10} {'bare commits/s':>15} {'ratio':>6}"
        )
        for label, writers, rate, floor, ratio in throughput(args.credits):
            print(f"{label:<16} {writers:>7} {rate:>10,.0f} {floor:>15,.0f} {ratio:>6.2f}")
        w = weekly_close(args.players)
        print(
            f"\nWeekly close over {w['players']:,} players ({w['entries']:,} entries; set up in "
            f"{w['set_up']:.1f} s with bulk inserts):"
        )
        print(
            f"  close {', '.join(w['closed'])} (standings, 50 places, 10 prizes)  {w['close_s']:8.3f} s"
        )
        print(
            f"  close again (closes {len(w['again'])} weeks)                   {w['again_s']:8.3f} s"
        )
        print(f"  the live leaderboard's top 50                     {w['live_s']:8.3f} s")
        print(
            f"  verify_ledger's audit ({w['problems']} problems)                {w['audit_s']:8.3f} s"
        )


if __name__ == "__main__":
    main()
