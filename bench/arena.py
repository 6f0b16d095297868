"""One arena, simulated in one process through the services, on PostgreSQL.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/cubiccards REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python bench/arena.py [--players 40] [--seconds 90] [--kind gin] [--keep]

Runs in a database of its own (``<name>_arena_bench``, created fresh, dropped at the end unless
``--keep``). ``--players`` people join a live arena of ``--seconds`` (the clock sped up: an
arena's length and the computers' wait, ``--fill-after``, shortened in the same ratio). The
loop does what beat and the worker do: the pairing every ``--pair-every`` seconds, each game in
play moved on by its computer player for every seat (people play as computers do), and the
end-of-game hook for each game that ended (ratings, Kudos, the arena's scoring); a fifth of
the players pause once and come back. At the end the arena is closed, its last games finish,
and it is finished twice.

Prints: pairing delay p50/p99 (from free to seated), games played and how many had computers,
players ever at two tables at once (must be 0), prize entries (exactly one per prize-winner)
and ``verify_ledger``'s audit, and this process's CPU. bench/arena_stack.py runs an arena on
the real stack instead: JSON clients over nginx, daphne, a worker and beat.
"""

from __future__ import annotations

import argparse
import logging
import random
import resource
import sys
import time
from collections import defaultdict
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from own_database import own_database  # noqa: E402


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=90.0, help="the arena's length")
    parser.add_argument("--fill-after", type=float, default=3.0, help="the computers' wait")
    parser.add_argument("--pair-every", type=float, default=1.0, help="beat's pairing interval")
    parser.add_argument("--kind", default="gin")
    parser.add_argument("--seed", default="arena")
    parser.add_argument("--keep", action="store_true", help="keep the bench database")
    args = parser.parse_args()

    with own_database("_arena_bench", keep=args.keep) as name:
        from django.conf import settings
        from django.utils import timezone

        from accounts.models import User
        from arenas import services
        from arenas.models import Arena, ArenaGame, ArenaSchedule, Entrant
        from gameplay import hooks, tasks
        from gameplay.models import Game
        from kudos import selectors as kudos_selectors
        from kudos.models import Entry

        settings.ARENA_FILL_AFTER = args.fill_after
        logging.getLogger("cubiccards.actions").setLevel(logging.WARNING)  # a line per action
        rng = random.Random(args.seed)
        ArenaSchedule.objects.update(active=False)  # only the bench's arena
        users = User.objects.bulk_create(
            [User(username=f"arena-{i:04d}", password="!") for i in range(args.players)]
        )
        now = timezone.now()
        arena = Arena.objects.create(
            name="Bench",
            kind=args.kind,
            starts=now,
            ends=now + timedelta(seconds=args.seconds),
            status=Arena.Status.LIVE,
            prizes=[100, 60, 40],
            min_games=1,
        )
        print(f"arena bench on PostgreSQL ({name}): {args.players} players, {args.kind}, "
              f"{args.seconds:.0f} s, computers after {args.fill_after:.0f} s")  # fmt: skip
        cpu0, wall0 = time.process_time(), time.monotonic()
        for user in users:
            services.join(user=user, arena_id=arena.pk)
        pausers = set(rng.sample([u.pk for u in users], len(users) // 5))
        paused_at: dict[int, float] = {}
        delays: list[float] = []
        worst_overlap = 0
        next_pair = 0.0
        actions = 0
        while True:
            clock = time.monotonic()
            arena.refresh_from_db()
            if arena.status == Arena.Status.LIVE and timezone.now() >= arena.ends:
                services.advance()
                arena.refresh_from_db()
            if arena.status == Arena.Status.LIVE and clock >= next_pair:
                next_pair = clock + args.pair_every
                free = dict(
                    Entrant.objects.filter(arena=arena, free_since__isnull=False).values_list(
                        "pk", "free_since"
                    )
                )
                for made in services.pair(arena.pk):
                    seated = timezone.now()
                    for e in Entrant.objects.filter(table=made):
                        since = max(free.get(e.pk, seated), arena.starts)
                        delays.append((seated - since).total_seconds())
            for user_id in list(pausers):  # pause once, come back a few seconds later
                if rng.random() < 0.02:
                    try:
                        services.pause(user=User.objects.get(pk=user_id), arena_id=arena.pk)
                        paused_at[user_id] = clock
                    except services.ArenaError:
                        pass
                    pausers.discard(user_id)
            for user_id, when in list(paused_at.items()):
                if clock - when > 3 and arena.status == Arena.Status.LIVE:
                    services.join(user=User.objects.get(pk=user_id), arena_id=arena.pk)
                    del paused_at[user_id]
            playing = list(
                ArenaGame.objects.filter(arena=arena, scored=False).values_list(
                    "game_id", flat=True
                )
            )
            seats = defaultdict(int)
            for game in Game.objects.filter(pk__in=playing, status=Game.Status.ACTIVE):
                for s in game.seats:
                    if s.get("user_id") and not s.get("bot"):
                        seats[s["user_id"]] += 1
            worst_overlap = max(worst_overlap, sum(1 for n in seats.values() if n > 1))
            for game_id in playing:
                game = Game.objects.get(pk=game_id)
                if not game.is_over:
                    actions += tasks.play_for_seats(game_id, game.seq, people_too=True)
                    game.refresh_from_db()
                if game.is_over:
                    hooks.deliver(game_id)
            if arena.status == Arena.Status.CLOSING:
                services.advance()
                arena.refresh_from_db()
            if arena.status == Arena.Status.FINISHED:
                break
        finished_twice = services.finish(arena.pk)
        wall, cpu = time.monotonic() - wall0, time.process_time() - cpu0

        # Ever at two tables: any person's arena games overlapping in time.
        spans = defaultdict(list)
        for ag in ArenaGame.objects.filter(arena=arena).select_related("game"):
            for user_id in ag.people:
                spans[user_id].append((ag.game.created, ag.game.ended or ag.game.updated))
        overlapping = 0
        for runs in spans.values():
            runs.sort()
            overlapping += any(b[0] < a[1] for a, b in zip(runs, runs[1:], strict=False))
        games = ArenaGame.objects.filter(arena=arena)
        winners = Entrant.objects.filter(arena=arena, prize__gt=0).count()
        prizes = Entry.objects.filter(key__startswith=f"arena:{arena.pk}:")
        audit = kudos_selectors.audit()
        print(f"ran {wall:.1f} s wall, {cpu:.1f} s CPU in this process ({actions:,} game actions)")
        print(f"pairing delay, free to seated: p50 {percentile(delays, 50):.2f} s, "
              f"p99 {percentile(delays, 99):.2f} s over {len(delays)} seatings")  # fmt: skip
        print(f"games: {games.count()} ({games.filter(computers=True).count()} with computers)")
        print(f"players ever at two tables at once: {overlapping} (live check: {worst_overlap})")
        print(f"prize entries: {prizes.count()} for {winners} prize-winners; "
              f"finishing again paid {'something' if finished_twice else 'nothing'}")  # fmt: skip
        problems = audit["problems"]
        print(f"verify_ledger: {'OK' if not problems else problems[:3]} "
              f"({audit['players']} players, {audit['entries']} entries)")  # fmt: skip
        print(f"max RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
