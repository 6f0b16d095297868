"""What Kudos part 2 costs: the end-of-game hook with its new receivers, the badge backfill,
and a table render with the players' levels and name colours.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/cubiccards [REDIS_URL=redis://...] \\
        .venv/bin/python bench/badges.py [--games 200] [--players 2000] [--counted] [--hook-only]

Runs in a database of its own on the same server (``<name>_badges_bench``, created fresh and
dropped at the end unless ``--keep``), so it never touches the site's data.

- The end-of-game hook for a finished two-person game (``gameplay.hooks.deliver``): every
  receiver (stats, ratings, Kudos from play, challenge, badges, referrals) against the
  baseline of the receivers before badges, challenges and referrals existed (stats, ratings,
  Kudos from play), measured in the same run on fresh games, in rounds that alternate the two;
  medians of three rounds; and the time spent inside each receiver. By default the games
  have no log, so they count as play for no one (stats, Kudos and badges have nothing to do);
  with ``--counted`` each person made a real game's decisions, and every receiver works.
- The badge backfill (``manage.py award_badges``) over ``--players`` players with stored
  history (stats at several games, finished games with facts, streaks), then run again (it
  pays nothing the second time).
- A table render for one seat (``lobby.tables.room_context`` of a four-seat game with three
  people) with the seat header's level and name colour, against the same render without them.

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

from own_database import own_database  # noqa: E402

ROUNDS = 3
BEFORE = ("stats", "ratings", "kudos")  # the receivers before Kudos part 2


def finished_game(people: list[int], kind: str = "war", counted: bool = False):
    """A two-person game that just ended; with ``counted``, a log in which each person made
    the decisions a real game takes a few seconds apart, so it counts as play for both (and
    every receiver has work); without, no log: it counts for no one."""
    from django.db.models import Case, DateTimeField, Value, When
    from django.utils import timezone

    from gameplay.engine import registry
    from gameplay.models import Game, GameEvent

    now = timezone.now()
    game = Game.objects.create(
        kind=kind,
        seats=[{"name": f"p{u}", "user_id": u, "bot": False} for u in people],
        seed="bench",
        seed_hash="0" * 64,
        status=Game.Status.OVER,
        result={"scores": [1, 0], "winners": [0], "ranking": [[0], [1]]},
        facts=[{}, {}],
        ended=now,
    )
    Game.objects.filter(pk=game.pk).update(created=now - timedelta(minutes=5))
    if counted:
        decisions = max(registry.get(kind).real_game.decisions, 10)
        step, began = timedelta(seconds=20), now - timedelta(minutes=5)
        times = {}
        for n in range(decisions * len(people)):
            times[n + 1] = began + step * (n + 1)
        GameEvent.objects.bulk_create(
            GameEvent(
                game=game,
                seq=seq,
                seat=(seq - 1) % len(people),
                action={"type": "play"},
                to_act=at - step,
            )
            for seq, at in times.items()
        )
        GameEvent.objects.filter(game=game).update(
            created=Case(
                *(When(seq=seq, then=Value(at)) for seq, at in times.items()),
                output_field=DateTimeField(),
            )
        )
        Game.objects.filter(pk=game.pk).update(seq=len(times))
    game.refresh_from_db()
    return game


def hook(
    games: int, ids: list[int], counted: bool = False
) -> tuple[float, float, float, dict[str, float], float]:
    """Games per second through the hook: (all receivers, the part-1 receivers, ratio, the
    ms per game spent inside each receiver in the runs with all of them, and the statements
    a game with all of them)."""
    from gameplay import hooks

    inside: dict[str, float] = {}

    def timed(name, receiver):
        def run(game):
            started = time.perf_counter()
            try:
                receiver(game)
            finally:
                inside[name] = inside.get(name, 0.0) + time.perf_counter() - started

        return run

    original = dict(hooks.RECEIVERS)
    everyone = {name: timed(name, receiver) for name, receiver in original.items()}
    before = {name: original[name] for name in BEFORE}

    def run(receivers: dict) -> float:
        made = [finished_game(random.sample(ids, 2), counted=counted) for _ in range(games)]
        hooks.RECEIVERS.clear()
        hooks.RECEIVERS.update(receivers)
        started = time.perf_counter()
        for game in made:
            hooks.deliver(game.pk)
        rate = games / (time.perf_counter() - started)
        hooks.RECEIVERS.clear()
        hooks.RECEIVERS.update(original)
        return rate

    rounds = [(run(before), run(everyone)) for _ in range(ROUNDS)]
    per_game = {name: 1000 * t / (games * ROUNDS) for name, t in inside.items()}
    return (
        median(r[1] for r in rounds),
        median(r[0] for r in rounds),
        median(r[1] / r[0] for r in rounds),
        per_game,
        statements(games, ids, counted),
    )


def statements(games: int, ids: list[int], counted: bool) -> float:
    """Statements the hook sends a game with every receiver (untimed, fresh games)."""
    from django.db import connection

    from gameplay import hooks

    made = [finished_game(random.sample(ids, 2), counted=counted) for _ in range(games)]
    sent = []

    def count(execute, sql, params, many, context):
        sent.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        for game in made:
            hooks.deliver(game.pk)
    return len(sent) / games


def backfill(players: int) -> dict:
    from accounts.models import GameRecord, GameStat, User
    from kudos import awards, badges
    from kudos.models import Account, Entry, Streak

    started = time.perf_counter()
    users = User.objects.bulk_create(
        [User(username=f"hist{i}", password="!") for i in range(players)]
    )
    rng = random.Random(7)
    kinds = ["war", "poker", "klondike", "gin", "gridcannon"]
    stats, records, streaks = [], [], []
    Account.objects.bulk_create([Account(user_id=u.pk) for u in users])
    for user in users:
        for kind in rng.sample(kinds, 3):
            played = rng.randint(1, 150)
            stats.append(GameStat(user=user, kind=kind, played=played, wins=rng.randint(0, played)))
        # One finished game with facts per player (a record per game and player, so each
        # needs its own game row).
        game = finished_game([user.pk])
        records.append(
            GameRecord(
                user=user,
                game=game,
                kind="gin",
                seat=0,
                won=True,
                moves=40,
                seconds=rng.randint(60, 900),
                ended=game.ended,
                facts={"gins": rng.randint(0, 2), "undercuts": rng.randint(0, 1)},
            )
        )
        best = rng.randint(0, 40)
        streaks.append(Streak(account_id=user.pk, current=0, best=best))
    GameStat.objects.bulk_create(stats)
    GameRecord.objects.bulk_create(records)
    Streak.objects.bulk_create(streaks)
    set_up = time.perf_counter() - started

    def award_all() -> tuple[int, float]:
        started = time.perf_counter()
        awarded = sum(len(awards.award_due(u)) for u in badges.players_with_history())
        return awarded, time.perf_counter() - started

    first, first_s = award_all()
    again, again_s = award_all()
    return {
        "players": players,
        "set_up": set_up,
        "awarded": first,
        "first_s": first_s,
        "again": again,
        "again_s": again_s,
        "entries": Entry.objects.filter(kind=Entry.Kind.BADGE).count(),
    }


def render(times: int) -> tuple[float, float, float]:
    """ms per render of one seat's table: (with levels and colours, without, ratio)."""
    from accounts.models import User
    from lobby import services, tables
    from lobby.models import Member

    people = User.objects.bulk_create([User(username=f"seat{i}", password="!") for i in range(3)])
    host = f"user:{people[0].pk}"
    room = services.create_room(player=host, name="seat0", user=people[0])
    for i, person in enumerate(people[1:], 1):
        services.join_room(code=room.code, player=f"user:{person.pk}", name=f"seat{i}", user=person)
    services.start_game(room=room, player=host, kind="poker", seats=4)
    room.refresh_from_db()
    member = Member.objects.get(room=room, player=host)
    with_tags = tables.name_tags

    def run(tags) -> float:
        tables.name_tags = tags
        started = time.perf_counter()
        for _ in range(times):
            tables.render_fragment(tables.room_context(room, member))
        tables.name_tags = with_tags
        return 1000 * (time.perf_counter() - started) / times

    rounds = [(run(lambda ids: {}), run(with_tags)) for _ in range(ROUNDS)]
    return (
        median(r[1] for r in rounds),
        median(r[0] for r in rounds),
        median(r[1] / r[0] for r in rounds),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per hook measurement")
    parser.add_argument("--players", type=int, default=2000, help="players in the backfill")
    parser.add_argument("--renders", type=int, default=200, help="renders per measurement")
    parser.add_argument("--keep", action="store_true", help="keep the bench database")
    parser.add_argument(
        "--counted",
        action="store_true",
        help="hook games that count as play for both players (by default they count for no one)",
    )
    parser.add_argument("--hook-only", action="store_true", help="measure the hook only")
    args = parser.parse_args()

    with own_database("_badges_bench", keep=args.keep) as name:
        from django.core.management import call_command

        from accounts.models import User

        random.seed(1)
        ids = [
            u.pk
            for u in User.objects.bulk_create(
                [User(username=f"p{i}", password="!") for i in range(500)]
            )
        ]
        print(f"Kudos part 2 on PostgreSQL ({name})")
        rate, floor, ratio, inside, sent = hook(args.games, ids, args.counted)
        print(
            f"\nend-of-game hook, two-person game ({'counted' if args.counted else 'uncounted'}"
            f" play): {rate:,.0f} games/s with every receiver, "
            f"{floor:,.0f} with {', '.join(BEFORE)} only (ratio {ratio:.2f})"
        )
        print(
            "  ms a game inside each receiver (the rest is each one's transaction and receipt): "
            + ", ".join(f"{name} {ms:.2f}" for name, ms in inside.items())
        )
        print(f"  statements a game with every receiver: {sent:.1f}")
        if args.hook_only:
            call_command("verify_ledger")
            return
        b = backfill(args.players)
        print(
            f"\nbadge backfill over {b['players']:,} players (set up in {b['set_up']:.1f} s): "
            f"{b['awarded']:,} badges in {b['first_s']:.2f} s "
            f"({1000 * b['first_s'] / b['players']:.2f} ms a player); "
            f"run again: {b['again']} badges in {b['again_s']:.2f} s; "
            f"{b['entries']:,} badge entries in the ledger"
        )
        with_tags, without, ratio = render(args.renders)
        print(
            f"\ntable render for one seat (four-seat Poker, three people): {with_tags:.2f} ms "
            f"with levels and name colours, {without:.2f} ms without (ratio {ratio:.2f})"
        )
        call_command("verify_ledger")


if __name__ == "__main__":
    main()
