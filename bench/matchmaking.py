"""Ranked matchmaking and rating throughput on PostgreSQL.

Part 1 enqueues synthetic signed-in players (ratings spread around 1500 on the shown scale)
arriving over a simulated period, and runs the real matcher (lobby.ranked.match: row locks,
rooms, members and games created) every two simulated seconds, as beat does, until everyone is
seated. It prints seats formed per second of matcher time, the mean rating gap inside a table
(the spread of its people's ratings), the mean wait, and how many tables the computer filled;
beside them, the same arrivals grouped in arrival order (no rating window) and the grouping
algorithm alone in memory, measured in the same run.

Part 2 rates finished four-seat ranked games through the ratings receiver (accounts.ratings.
rate_game, one transaction each as the end-of-game hook runs it), against openskill's own
rate() on the same games in memory.

Runs in a scratch database (the configured one's test name, created and dropped here):
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/cubiccards REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python bench/matchmaking.py --players 2000 --games 10000
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cubiccards.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.utils import timezone  # noqa: E402

KIND = "poker"
TICK = 2.0  # simulated seconds between matcher runs (beat's schedule)


def make_players(n: int, rng: random.Random, spread: float):
    from accounts import ratings
    from accounts.models import Rating, User

    users = User.objects.bulk_create(
        [User(username=f"bench-{i:05d}", password="!") for i in range(n)]
    )
    rows = []
    for user in users:
        skill = rng.gauss(ratings.DISPLAY_BASE, spread)
        mu = ratings.MODEL.mu + (skill - ratings.DISPLAY_BASE) / ratings.DISPLAY_SCALE
        sigma = 3.0
        rows.append(
            Rating(
                user=user,
                kind=KIND,
                mu=mu,
                sigma=sigma,
                ordinal=mu - 3 * sigma,
                games=30,
                updated=timezone.now(),
            )
        )
    Rating.objects.bulk_create(rows)
    return users


def matchmaking(players: int, arrive_over: float, spread: float, seed: str) -> dict:
    from gameplay.engine import registry
    from lobby import ranked
    from lobby.models import QueueEntry

    rng = random.Random(seed)
    users = make_players(players, rng, spread)
    rng.shuffle(users)
    start = timezone.now()
    arrivals = sorted(rng.uniform(0, arrive_over) for _ in users)
    size = ranked.table_size(registry.get(KIND))
    match_seconds = enqueue_seconds = 0.0
    seated = tables = 0
    skills_at: dict[int, list[int]] = {}  # room -> its people's ratings
    waits: list[float] = []  # simulated seconds from arrival to the tick that seated them
    clock, i = 0.0, 0
    while True:
        clock += TICK
        now = start + timedelta(seconds=clock)
        t0 = time.perf_counter()
        while i < len(users) and arrivals[i] <= clock:
            ranked.enqueue(user=users[i], kind=KIND, now=start + timedelta(seconds=arrivals[i]))
            i += 1
        QueueEntry.objects.filter(status="waiting").update(seen=now)  # the pages are open
        t1 = time.perf_counter()
        rooms = ranked.match(KIND, now=now)
        t2 = time.perf_counter()
        enqueue_seconds += t1 - t0
        match_seconds += t2 - t1
        tables += len(rooms)
        for room in rooms:
            entries = list(QueueEntry.objects.filter(room=room).values("skill", "enqueued"))
            seated += len(entries)
            skills_at[room.pk] = [e["skill"] for e in entries]
            waits += [(now - e["enqueued"]).total_seconds() for e in entries]
        if i == len(users) and not QueueEntry.objects.filter(status="waiting").exists():
            break
    gaps = [max(s) - min(s) for s in skills_at.values() if len(s) > 1]

    # Baselines in the same run: tables in arrival order (no rating window), and the
    # grouping algorithm alone in memory over the same arrivals.
    skills = {e["user_id"]: e["skill"] for e in QueueEntry.objects.values("user_id", "skill")}
    fifo = [skills[u.pk] for u in users]
    fifo_gaps = [
        max(fifo[k : k + size]) - min(fifo[k : k + size])
        for k in range(0, len(fifo) - size + 1, size)
    ]
    pure_seconds = _pure_grouping(users, arrivals, skills, size, start)
    return {
        "players": players,
        "seated": seated,
        "tables": tables,
        "tables_with_computers": sum(1 for s in skills_at.values() if len(s) < size),
        "match_seconds": match_seconds,
        "enqueue_seconds": enqueue_seconds,
        "seats_per_second": seated / match_seconds,
        "pure_seats_per_second": players / pure_seconds,
        "mean_gap": statistics.fmean(gaps) if gaps else 0.0,
        "fifo_mean_gap": statistics.fmean(fifo_gaps),
        "mean_wait": statistics.fmean(waits),
        "max_wait": max(waits),
        "spread": spread,
        "arrive_over": arrive_over,
    }


def _pure_grouping(users, arrivals, skills, size, start) -> float:
    from lobby import ranked

    waiting: list = []
    clock, i = 0.0, 0
    t0 = time.perf_counter()
    while i < len(users) or waiting:
        clock += TICK
        while i < len(users) and arrivals[i] <= clock:
            waiting.append(
                ranked.Waiter(
                    users[i].pk, skills[users[i].pk], start + timedelta(seconds=arrivals[i])
                )
            )
            i += 1
        taken = {
            w.id
            for table in ranked.form_tables(
                waiting, size, start + timedelta(seconds=clock), settings.RANKED_FILL_AFTER
            )
            for w in table
        }
        waiting = [w for w in waiting if w.id not in taken]
    return time.perf_counter() - t0


def rating(games: int, pool: int, seed: str) -> dict:
    from accounts import ratings
    from accounts.models import User
    from gameplay.models import Game

    rng = random.Random(seed + "/rate")
    users = list(User.objects.filter(username__startswith="bench-").order_by("pk")[:pool])
    now = timezone.now()
    rows = []
    for g in range(games):
        people = rng.sample(users, 4)
        order = list(range(4))
        rng.shuffle(order)
        ranking = [[s] for s in order]
        rows.append(
            Game(
                kind=KIND,
                rules={},
                seats=[{"name": u.username, "user_id": u.pk, "bot": False} for u in people],
                seed=f"bench/{g}",
                seed_hash="-",
                status=Game.Status.OVER,
                ranked=True,
                result={"scores": [0, 0, 0, 0], "winners": ranking[0], "ranking": ranking},
                facts=[{}, {}, {}, {}],
                ended=now + timedelta(seconds=g),
            )
        )
    created = Game.objects.bulk_create(rows)
    # In memory: openskill alone over the same games.
    t0 = time.perf_counter()
    book = {}
    for game in created:
        teams = [[book.get(s["user_id"]) or ratings.MODEL.rating()] for s in game.seats]
        ranks = [0.0] * 4
        for place, group in enumerate(game.result["ranking"]):
            for s in group:
                ranks[s] = float(place)
        for s, team in zip(game.seats, ratings.MODEL.rate(teams, ranks=ranks), strict=True):
            book[s["user_id"]] = team[0]
    memory_seconds = time.perf_counter() - t0
    # Through the receiver, one transaction per game (the hook's unit of work).
    from accounts.models import Rating, RatingChange

    Rating.objects.all().delete()
    t0 = time.perf_counter()
    for game in created:
        with transaction.atomic():
            ratings.rate_game(game)
    receiver_seconds = time.perf_counter() - t0
    assert RatingChange.objects.filter(game__in=created).count() == 4 * games
    return {
        "games": games,
        "receiver_seconds": receiver_seconds,
        "receiver_games_per_second": games / receiver_seconds,
        "memory_seconds": memory_seconds,
        "memory_games_per_second": games / memory_seconds,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--arrive-over", type=float, default=200.0, help="simulated seconds")
    parser.add_argument("--spread", type=float, default=250.0, help="rating SD, shown points")
    parser.add_argument("--games", type=int, default=10000, help="finished games to rate")
    parser.add_argument("--seed", default="bench")
    args = parser.parse_args()
    if connection.vendor != "postgresql" or not settings.REDIS_URL:
        print("Needs DATABASE_URL (PostgreSQL) and REDIS_URL.", file=sys.stderr)
        return 2
    from cubiccards.celery import app

    real_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        m = matchmaking(args.players, args.arrive_over, args.spread, args.seed)
        r = rating(args.games, min(args.players, 2000), args.seed)
    finally:
        app.control.purge()  # the bot turns and timers the new tables queued: nobody plays them
        connection.creation.destroy_test_db(real_name, verbosity=0)
    print(
        f"matchmaking: {m['players']} players, ratings SD {m['spread']:.0f}, arriving over {m['arrive_over']:.0f} s (simulated), matcher every {TICK:.0f} s"
    )
    print(
        f"  seated {m['seated']} at {m['tables']} tables ({m['tables_with_computers']} filled by the computer)"
    )
    print(
        f"  seats formed per second of matcher time: {m['seats_per_second']:,.0f} (the grouping alone in memory: {m['pure_seats_per_second']:,.0f}, {m['pure_seats_per_second'] / m['seats_per_second']:.0f}x)"
    )
    print(f"  matcher {m['match_seconds']:.2f} s, enqueueing {m['enqueue_seconds']:.2f} s (wall)")
    print(
        f"  mean rating gap within a table: {m['mean_gap']:.0f} points (tables in arrival order: {m['fifo_mean_gap']:.0f})"
    )
    print(f"  mean wait {m['mean_wait']:.1f} s, longest {m['max_wait']:.1f} s (simulated)")
    print(f"rating: {r['games']} finished four-seat games")
    print(
        f"  through the receiver: {r['receiver_seconds']:.2f} s, {r['receiver_games_per_second']:,.0f} games/s"
    )
    print(
        f"  openskill alone in memory: {r['memory_seconds']:.2f} s, {r['memory_games_per_second']:,.0f} games/s ({r['memory_games_per_second'] / r['receiver_games_per_second']:.1f}x)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
