"""Farming: what scripted clients earn, beside an honest player, over a simulated week.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/cubiccards \\
        .venv/bin/python bench/farming.py [--days 7] [--minutes 30] [--keep]

Runs in a database of its own on the same server (``<name>_farming_bench``, created fresh and
dropped at the end unless ``--keep``), with tasks run in-process (no REDIS_URL), through the
same services a table's socket reaches, on a simulated clock: every path has the same minutes
a day (``--minutes``), starting at 18:00 UTC.

- **honest**: a person, played by the computer's own choices at each game's declared pace
  (``real_game.pace`` seconds a decision, ±50%): Klondike, Gin, Crazy 8 and War in turn.
- **resign loop**: a Klondike deal resigned at once, 210 a day (issue 33's script).
- **shortest games**: Crazy 8 against the computer, every move the moment it is asked for.
- **War, fastest**: War of 50 rounds, flipped the moment each flip is asked for.
- **zone hopping**: the honest player's day, with the time zone moved across midnight and
  back between games, hunting for extra streak days: it should earn what the honest player
  does, no more.
- **sponsor spots**: five spots a day, each claimed after its 15 seconds.
- **referral ring**: five accounts on one address — one inviter and four accounts signed up
  through its invite link, each from a fresh browser (a new device cookie) — whose four
  invitees split the day's minutes playing as the honest player does, each signing in from
  the ring's address before its turn (as sitting down at a table would note it), hunting the
  referral bonuses (100 + 50 each) and each account's own daily bonuses; the ring's Kudos and
  experience are the five accounts' together.

Prints per path the Kudos (all kinds) and experience of the week, their share of the honest
player's, Kudos per credited minute against the honest player's, and the Kudos by kind. A script that plays real moves at a person's pace earns like the honest player: it
is play, and the bench says so rather than pretending otherwise. This is a benchmark, not a
test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from own_database import own_database  # noqa: E402

START = datetime(2030, 1, 7, 18, tzinfo=UTC)  # a Monday, 18:00 UTC
HONEST_KINDS = ("klondike", "gin", "crazy8", "war")


class Clock:
    """The simulated now: django.utils.timezone.now reads it, so the log, the games' ends and
    Kudos' days all go by it."""

    def __init__(self, now: datetime):
        self.now = now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def person(user) -> dict:
    return {"name": user.username, "user_id": user.pk}


COMPUTER = {"name": "Cubot", "bot": True}


def play_game(clock: Clock, user, kind: str, seconds_a_decision, rules=None) -> None:
    """One game against the computer (solo games alone): the person's seat moves after
    ``seconds_a_decision()`` of the clock, the computer's at once (tasks run in-process)."""
    from gameplay import services, store, tasks
    from gameplay.engine import registry
    from gameplay.moves import StaleSeq

    engine = registry.get(kind)
    seats = [person(user)] + [COMPUTER] * (engine.min_players - 1)
    game = services.start_game(
        kind=kind, seats=seats, rules=rules, seed=f"farm/{user.pk}/{clock.now.isoformat()}"
    )
    while not game.is_over:
        state = store.load_state(game)
        waiting = engine.to_act(state)
        if 0 in waiting:
            clock.advance(seconds_a_decision())
            action = engine.bot_action(state, 0)
            try:
                services.submit_action(game_id=game.pk, seat=0, action=action, seq=game.seq)
            except StaleSeq:  # the computer's simultaneous flip landed first: look again
                pass
        else:
            tasks.play_for_seats(game.pk, game.seq)
        game.refresh_from_db()


def at_pace(kind: str, rng: random.Random):
    from gameplay.engine import registry

    pace = registry.get(kind).real_game.pace
    return lambda: pace * rng.uniform(0.5, 1.5)


def honest_day(clock: Clock, user, minutes: float, rng: random.Random, hop=None) -> None:
    end = clock.now + timedelta(minutes=minutes)
    n = 0
    while clock.now < end:
        kind = HONEST_KINDS[n % len(HONEST_KINDS)]
        play_game(clock, user, kind, at_pace(kind, rng))
        n += 1
        if hop:
            hop(user, n)


def resign_day(clock: Clock, user, minutes: float) -> None:
    from gameplay import services

    for _ in range(210):
        game = services.start_game(kind="klondike", seats=[person(user)])
        clock.advance(0.4)
        services.submit_action(game_id=game.pk, seat=0, action={"type": "resign"}, seq=0)


def shortest_day(clock: Clock, user, minutes: float) -> None:
    for _ in range(20):
        play_game(clock, user, "crazy8", lambda: 0.05)


def war_fastest_day(clock: Clock, user, minutes: float) -> None:
    for _ in range(5):
        play_game(clock, user, "war", lambda: 0.05, rules={"rounds": 50})


def spots_day(clock: Clock, user, minutes: float) -> None:
    from kudos import services, spots

    for _ in range(5):
        try:
            _, token = spots.begin(user)
        except services.Refused:
            return
        clock.advance(16)
        spots.claim(user, token)


RING_ADDRESS = "203.0.113.7"  # every account of the ring, as one household or one script
RING_PASSWORD = "the ring's long password"


def ring_passwords(inviter) -> dict[str, str]:
    return {f"{inviter.username}-{i + 1}": f"a long ring password {i}" for i in range(4)}


def ring_accounts(inviter) -> list:
    """Four accounts signed up through ``inviter``'s link, each from a fresh browser on the
    ring's one address, as a script would make them."""
    from django.test import Client

    from accounts.models import User

    signed_in = Client(REMOTE_ADDR=RING_ADDRESS).post(  # the inviter uses the address too
        "/accounts/login/", {"username": inviter.username, "password": RING_PASSWORD}
    )
    assert signed_in.status_code == 302, "the ring's inviter could not sign in"
    made = []
    for name, password in ring_passwords(inviter).items():
        browser = Client(REMOTE_ADDR=RING_ADDRESS)
        browser.get(f"/invite/{inviter.username}/")
        browser.post(
            "/accounts/signup/", {"username": name, "password1": password, "password2": password}
        )
        found = User.objects.filter(username=name).first()
        if found is not None:
            made.append(found)
    return made


def ring_day(
    clock: Clock, ring: list, passwords: dict[str, str], minutes: float, rng: random.Random
) -> None:
    from django.test import Client

    for member in ring:
        signed_in = Client(REMOTE_ADDR=RING_ADDRESS).post(
            "/accounts/login/",
            {"username": member.username, "password": passwords[member.username]},
        )
        assert signed_in.status_code == 302, "a ring account could not sign in"
        honest_day(clock, member, minutes / len(ring), rng)


def hop_zone(user, n: int) -> None:
    user.time_zone = ("Pacific/Kiritimati", "Etc/GMT+12")[n % 2]
    user.save(update_fields=["time_zone"])


def by_kind(users) -> str:
    """The Kudos of ``users`` by kind of entry, largest first."""
    from django.db.models import Sum

    from kudos.models import Entry

    rows = (
        Entry.objects.filter(user__in=users, amount__gt=0)
        .values("kind")
        .annotate(t=Sum("amount"))
        .order_by("-t")
    )
    return ", ".join(f"{row['kind']} {row['t']}" for row in rows) or "nothing"


def earned(user) -> tuple[int, int, float]:
    """Kudos (all kinds), experience and minutes of counted play credited."""
    from django.db.models import Sum

    from accounts.models import GameRecord
    from kudos import selectors
    from kudos.models import Entry

    kudos = Entry.objects.filter(user=user, amount__gt=0).aggregate(t=Sum("amount"))["t"] or 0
    seconds = GameRecord.objects.filter(user=user).aggregate(t=Sum("play_seconds"))["t"] or 0
    return kudos, selectors.level(user.pk)["xp"], seconds / 60


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--days", type=int, default=7)
    parser.add_argument("--minutes", type=float, default=30, help="minutes a day, every path")
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    args = parser.parse_args()
    os.environ.pop("REDIS_URL", None)  # tasks in-process: the computer answers at once
    logging.disable(logging.INFO)  # each action's log line
    with own_database("_farming_bench", keep=args.keep):
        from accounts.models import User
        from kudos.models import Entry, Referral, StreakDay

        clock = Clock(START)
        paths = {
            "honest": lambda u, rng: honest_day(clock, u, args.minutes, rng),
            "zone hopping": lambda u, rng: honest_day(clock, u, args.minutes, rng, hop=hop_zone),
            "resign loop": lambda u, rng: resign_day(clock, u, args.minutes),
            "shortest games": lambda u, rng: shortest_day(clock, u, args.minutes),
            "War, fastest": lambda u, rng: war_fastest_day(clock, u, args.minutes),
            "sponsor spots": lambda u, rng: spots_day(clock, u, args.minutes),
        }
        users = {
            name: User.objects.create_user(name.replace(" ", "-").replace(",", ""), password=None)
            for name in paths
        }
        inviter = User.objects.create_user("ring", password=RING_PASSWORD)
        ring = ring_accounts(inviter)  # on the real clock, as accounts' own dates are
        passwords = ring_passwords(inviter)
        paths["referral ring"] = lambda u, rng: ring_day(clock, ring, passwords, args.minutes, rng)
        users["referral ring"] = inviter
        started = time.perf_counter()
        with mock.patch("django.utils.timezone.now", lambda: clock.now):
            for day in range(args.days):
                for n, (name, run) in enumerate(paths.items()):
                    clock.now = START + timedelta(days=day, minutes=n)  # paths side by side
                    # Zone hopping plays the honest player's very games: only the zone differs.
                    seed = "honest" if name == "zone hopping" else name
                    run(users[name], random.Random(f"{seed}/{day}"))
        seconds = time.perf_counter() - started
        honest = earned(users["honest"])
        print(f"{args.days} days, {args.minutes:g} minutes a day ({seconds:.0f} s to simulate)")
        print(
            f"{'path':<16}{'Kudos':>8}{'XP':>8}{'minutes':>9}{'Kudos %':>9}{'XP %':>7}"
            f"{'Kudos/min %':>13}  streak days"
        )
        rate = honest[0] / max(honest[2], 1)
        for name, user in users.items():
            members = [user, *ring] if name == "referral ring" else [user]  # the ring together
            kudos, xp, minutes = (sum(t) for t in zip(*map(earned, members), strict=True))
            days = StreakDay.objects.filter(user__in=members, outcome="paid").count()
            shared = StreakDay.objects.filter(user__in=members, outcome="shared").count()
            if shared:
                days = f"{days} (+{shared} shared)"
            print(
                f"{name:<16}{kudos:>8}{xp:>8}{minutes:>9.0f}{100 * kudos / max(honest[0], 1):>8.0f}%"
                f"{100 * xp / max(honest[1], 1):>6.0f}%"
                f"{100 * kudos / max(minutes, 1) / max(rate, 1e-9):>12.0f}%  {days}"
            )
        for name, user in users.items():
            print(f"  {name}: {by_kind([user, *ring] if name == 'referral ring' else [user])}")
        play = Entry.objects.filter(user=users["zone hopping"], kind=Entry.Kind.STREAK).count()
        print(f"zone hopping: {play} streak days paid in {args.days} UTC days")
        held = Referral.objects.filter(inviter=inviter, held=True).count()
        paid = Referral.objects.filter(inviter=inviter, qualified__isnull=False).count()
        made = Referral.objects.filter(inviter=inviter).count()
        print(
            f"referral ring: {len(ring)} of 4 accounts made, {made} referrals, {held} held, "
            f"{paid} paid"
        )


if __name__ == "__main__":
    main()
