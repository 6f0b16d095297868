"""Daily streaks: a UTC day with five minutes of counted play pays once, whatever the zone;
grace days, freezes and the upkeep."""

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from accounts.models import User
from gameplay import hooks
from kudos import rules, services
from kudos.models import Account, Entry, Streak, StreakDay

from .conftest import ended_game
from .test_ledger import in_parallel

pytestmark = pytest.mark.django_db(transaction=True)

KIRITIMATI = "Pacific/Kiritimati"  # UTC+14
BAKER = "Etc/GMT+12"  # UTC−12 (the sign is POSIX's)


def local(moment: str, zone: str) -> datetime:
    return datetime.fromisoformat(moment).replace(tzinfo=ZoneInfo(zone)).astimezone(UTC)


def played(user, at, moment, minutes=rules.DAY_PLAYED_MINUTES) -> Entry | None:
    """``user`` ends a solo game of ``minutes`` at ``moment``: the streak day it paid, if any."""
    ended = at(moment)
    days = Entry.objects.filter(user=user, kind=Entry.Kind.STREAK)
    before = days.count()
    game = ended_game(
        seats=[{"user_id": user.pk}],
        winners=[],
        kind="gridcannon",
        ended=ended,
        seconds=minutes * 60,
    )
    hooks.deliver(game.pk)
    return days.first() if days.count() > before else None  # newest first


def streak(user) -> Streak:
    return Streak.objects.get(account_id=user.pk)


def outcomes(user) -> list[tuple[str, str]]:
    return [
        (d.day.isoformat(), d.outcome) for d in StreakDay.objects.filter(user=user).order_by("day")
    ]


def streak_kudos(user) -> int:
    return sum(
        Entry.objects.filter(user=user, kind=Entry.Kind.STREAK).values_list("amount", flat=True)
    )


def test_the_schedule_grows_to_its_cap(at, player):
    ann = player()
    paid = []
    for day in range(12):
        entry = played(ann, at, datetime(2030, 1, 7 + day, 9, tzinfo=UTC))
        paid.append(entry.amount)
    assert paid == [10, 15, 20, 25, 30, 35, 40, 45, 50, 50, 50, 50]
    assert paid == [rules.streak_reward(n) for n in range(1, 13)]
    assert streak(ann).current == 12 and streak(ann).best == 12
    assert Entry.objects.filter(user=ann, kind="streak").first().memo == (
        "Day 12 of your daily streak"
    )


def test_a_day_takes_five_minutes_of_play_and_pays_once(at, player):
    ann = player()
    assert played(ann, at, "2030-01-07 00:03", minutes=3) is None  # not yet
    assert played(ann, at, "2030-01-07 12:00", minutes=2).amount == 10  # 5 minutes: day 1
    assert played(ann, at, "2030-01-07 23:59:59") is None  # paid already
    assert played(ann, at, "2030-01-08 00:10", minutes=4) is None
    assert played(ann, at, "2030-01-08 00:20", minutes=1).amount == 15
    assert streak_kudos(ann) == 25


def test_a_visit_pays_no_day(at, player, client):
    ann = player()
    at("2030-01-07 08:00")
    client.force_login(ann)
    assert 'class="kudos-balance">0<' in client.get("/kudos/").content.decode()
    assert not StreakDay.objects.exists()


def test_games_that_end_at_once_pay_the_day_once(at, player):
    """Ten games of a minute each, one after another, their hooks run at the same moment."""
    ann = player()
    moment = at("2030-01-07 10:00")
    games = [
        ended_game(
            seats=[{"user_id": ann.pk}],
            winners=[],
            kind="gridcannon",
            ended=moment - timedelta(minutes=i),
            seconds=60,
        )
        for i in range(10)
    ]
    Account.objects.get_or_create(user=ann)
    results, errors = in_parallel(10, lambda i: hooks.deliver(games[i].pk))
    assert errors == []
    assert list(Entry.objects.filter(user=ann, kind="streak").values_list("amount", flat=True)) == [
        10
    ]
    assert StreakDay.objects.filter(user=ann).count() == 1


def test_a_missed_day_uses_the_weeks_grace_then_a_freeze_then_ends(at, player):
    ann = player()
    played(ann, at, "2030-01-07 09:00")  # Monday
    played(ann, at, "2030-01-08 09:00")
    # Wednesday missed: the week's grace day covers it; the day pays nothing and adds no day.
    assert played(ann, at, "2030-01-10 09:00").amount == rules.streak_reward(3)
    assert ("2030-01-09", "grace") in outcomes(ann) and streak(ann).current == 3
    # Friday missed in the same week: a freeze covers it.
    services.give_freeze(user_id=ann.pk)
    assert played(ann, at, "2030-01-12 09:00").amount == rules.streak_reward(4)
    assert ("2030-01-11", "freeze") in outcomes(ann) and streak(ann).freezes == 0
    # Sunday missed, no grace left this week and no freeze: the streak ends there.
    assert played(ann, at, "2030-01-14 09:00").amount == rules.streak_reward(1)
    assert ("2030-01-13", "ended") in outcomes(ann)
    assert streak(ann).current == 1 and streak(ann).best == 4


def test_a_new_week_brings_a_new_grace_day(at, player):
    ann = player()
    played(ann, at, "2030-01-11 09:00")  # Friday
    played(ann, at, "2030-01-13 09:00")  # Saturday missed: that week's grace
    played(ann, at, "2030-01-15 09:00")  # Monday missed: the new week's grace
    assert outcomes(ann) == [
        ("2030-01-11", "paid"),
        ("2030-01-12", "grace"),
        ("2030-01-13", "paid"),
        ("2030-01-14", "grace"),
        ("2030-01-15", "paid"),
    ]
    assert streak(ann).current == 3


@pytest.mark.parametrize("late", [False, True])
def test_the_upkeep_is_idempotent_and_the_same_when_late(at, player, late):
    ann, bob = player(), player()
    for who in (ann, bob):
        played(who, at, "2030-01-07 09:00")
    services.give_freeze(user_id=ann.pk)
    if late:  # the worker was down for a week: one run when it comes back
        at("2030-01-14 17:00")
        assert services.keep_up_streaks() == 2
    else:  # each night, twice
        for day in (9, 10, 11):
            at(f"2030-01-{day:02d} 00:30")
            services.keep_up_streaks()
            services.keep_up_streaks()
    assert services.keep_up_streaks() == 0
    assert outcomes(ann) == [
        ("2030-01-07", "paid"),
        ("2030-01-08", "grace"),
        ("2030-01-09", "freeze"),
        ("2030-01-10", "ended"),
    ]
    assert [o for _, o in outcomes(bob)] == ["paid", "grace", "ended"]
    assert streak(ann).current == 0 and streak(bob).current == 0
    assert streak_kudos(ann) == streak_kudos(bob) == 10


def test_a_worker_clock_running_ahead_takes_no_day_away(at, player):
    ann = player()
    played(ann, at, "2030-01-07 09:00")
    at("2030-01-09 00:05")  # the worker's clock: five minutes ahead of the web's
    assert services.keep_up_streaks() == 0
    assert played(ann, at, "2030-01-08 23:59").amount == rules.streak_reward(2)
    at("2030-01-10 00:11")
    services.keep_up_streaks()
    assert [o for _, o in outcomes(ann)] == ["paid", "paid", "grace"]


def test_hopping_zones_makes_no_second_day(at, player):
    """Issue 33: a player who moves their zone across midnight, and back, in one UTC day
    (Kiritimati is a day ahead of Baker Island) is paid one day."""
    ann = player(zone=BAKER)
    assert played(ann, at, local("2030-01-01 23:00", BAKER)).amount == 10  # 2 Jan 11:00 UTC
    for hop, zone in enumerate([KIRITIMATI, BAKER, KIRITIMATI, "UTC"]):
        User.objects.filter(pk=ann.pk).update(time_zone=zone)
        assert played(ann, at, f"2030-01-02 {12 + hop}:00") is None
    assert played(ann, at, "2030-01-03 00:10").amount == rules.streak_reward(2)
    assert outcomes(ann) == [("2030-01-02", "paid"), ("2030-01-03", "paid")]
    assert streak_kudos(ann) == 10 + 15


def test_a_deleted_player_is_skipped(at, player):
    ann, bob = player(), player()
    played(ann, at, "2030-01-07 09:00")
    played(bob, at, "2030-01-07 09:00")
    stale = User.objects.get(pk=ann.pk)
    ann.delete()
    at("2030-01-12 09:00")
    assert services.keep_up_streaks() == 1
    assert not StreakDay.objects.filter(user_id=stale.pk).exists()
