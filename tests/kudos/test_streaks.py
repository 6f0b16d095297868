"""Daily streaks: one payment a day in the player's own zone, grace days, freezes, upkeep,
time-zone changes around midnight and daylight-saving days."""

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from django.test import Client

from accounts.models import User
from kudos import rules, services
from kudos.models import Account, Entry, Streak, StreakDay

from .test_ledger import in_parallel

pytestmark = pytest.mark.django_db(transaction=True)

KIRITIMATI = "Pacific/Kiritimati"  # UTC+14
BAKER = "Etc/GMT+12"  # UTC−12 (the sign is POSIX's)
NEW_YORK = "America/New_York"


def local(moment: str, zone: str) -> datetime:
    return datetime.fromisoformat(moment).replace(tzinfo=ZoneInfo(zone)).astimezone(UTC)


def visit(user, at, moment):
    at(moment)
    return services.visit(User.objects.get(pk=user.pk))


def streak(user) -> Streak:
    return Streak.objects.get(account_id=user.pk)


def outcomes(user) -> list[tuple[str, str]]:
    return [
        (d.day.isoformat(), d.outcome) for d in StreakDay.objects.filter(user=user).order_by("day")
    ]


def balance(user) -> int:
    return Account.objects.get(user=user).balance


def test_the_schedule_grows_to_its_cap(at, player):
    ann = player()
    paid = []
    for day in range(12):
        entry = visit(ann, at, datetime(2030, 1, 7 + day, 9, tzinfo=UTC))
        paid.append(entry.amount)
    assert paid == [10, 15, 20, 25, 30, 35, 40, 45, 50, 50, 50, 50]
    assert paid == [rules.streak_reward(n) for n in range(1, 13)]
    assert streak(ann).current == 12 and streak(ann).best == 12
    assert Entry.objects.filter(user=ann).first().memo == "Day 12 of your daily streak"


def test_a_day_pays_once_whatever_the_time(at, player):
    ann = player()
    assert visit(ann, at, "2030-01-07 00:00").amount == 10
    assert visit(ann, at, "2030-01-07 12:00") is None
    assert visit(ann, at, "2030-01-07 23:59:59") is None
    assert visit(ann, at, "2030-01-08 00:00").amount == 15
    assert balance(ann) == 25


def test_fifty_parallel_first_visits_pay_once(at, player):
    """Fifty sessions (tabs, devices) open their first page of the day at the same moment."""
    ann = player()
    at("2030-01-07 08:00")
    clients = []
    for _ in range(50):
        client = Client()
        client.force_login(ann)
        clients.append(client)
    results, errors = in_parallel(50, lambda i: clients[i].get("/kudos/").status_code)
    assert errors == [] and results == [200] * 50
    assert list(Entry.objects.filter(user=ann).values_list("amount", flat=True)) == [10]
    assert balance(ann) == 10 and StreakDay.objects.filter(user=ann).count() == 1


def test_the_visit_announces_the_reward_in_the_header(at, player, client):
    ann = player()
    at("2030-01-07 08:00")
    client.force_login(ann)
    page = client.get("/kudos/").content.decode()
    assert "+10 Kudos: day 1 of your daily streak" in page
    assert 'class="kudos-balance">10<' in page and 'class="flame"' in page
    again = client.get("/kudos/").content.decode()
    assert "day 1 of your daily streak</span>" not in again and 'class="kudos-balance">10<' in again


def test_a_missed_day_uses_the_weeks_grace_then_a_freeze_then_ends(at, player):
    ann = player()
    visit(ann, at, "2030-01-07 09:00")  # Monday
    visit(ann, at, "2030-01-08 09:00")
    # Wednesday missed: the week's grace day covers it; the day pays nothing and adds no day.
    assert visit(ann, at, "2030-01-10 09:00").amount == rules.streak_reward(3)
    assert ("2030-01-09", "grace") in outcomes(ann) and streak(ann).current == 3
    # Friday missed in the same week: a freeze covers it.
    services.give_freeze(user_id=ann.pk)
    assert visit(ann, at, "2030-01-12 09:00").amount == rules.streak_reward(4)
    assert ("2030-01-11", "freeze") in outcomes(ann) and streak(ann).freezes == 0
    # Sunday missed, no grace left this week and no freeze: the streak ends there.
    assert visit(ann, at, "2030-01-14 09:00").amount == rules.streak_reward(1)
    assert ("2030-01-13", "ended") in outcomes(ann)
    assert streak(ann).current == 1 and streak(ann).best == 4


def test_a_new_week_brings_a_new_grace_day(at, player):
    ann = player()
    visit(ann, at, "2030-01-11 09:00")  # Friday
    visit(ann, at, "2030-01-13 09:00")  # Saturday missed: that week's grace
    visit(ann, at, "2030-01-15 09:00")  # Monday missed: the new week's grace
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
        visit(who, at, "2030-01-07 09:00")
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
    assert balance(ann) == balance(bob) == 10


def test_upkeep_waits_for_the_end_of_the_players_own_day(at, player):
    east, west = player(zone=KIRITIMATI), player(zone=BAKER)
    visit(east, at, local("2030-01-07 12:00", KIRITIMATI))
    visit(west, at, local("2030-01-07 12:00", BAKER))
    # 2030-01-08 23:30 in UTC−12 is 2030-01-09 11:30 UTC: west's 8th isn't over yet.
    at(local("2030-01-08 23:30", BAKER))
    services.keep_up_streaks()
    assert outcomes(west) == [("2030-01-07", "paid")]
    assert ("2030-01-08", "grace") in outcomes(east)  # east is already on the 10th
    at(local("2030-01-09 00:30", BAKER))
    services.keep_up_streaks()
    assert outcomes(west) == [("2030-01-07", "paid"), ("2030-01-08", "grace")]


def test_a_worker_clock_running_ahead_takes_no_day_away(at, player):
    ann = player()
    visit(ann, at, "2030-01-07 09:00")
    at("2030-01-09 00:05")  # the worker's clock: five minutes ahead of the web's
    assert services.keep_up_streaks() == 0
    assert visit(ann, at, "2030-01-08 23:59").amount == rules.streak_reward(2)
    at("2030-01-10 00:11")
    services.keep_up_streaks()
    assert [o for _, o in outcomes(ann)] == ["paid", "paid", "grace"]


@pytest.mark.parametrize("zone", [KIRITIMATI, BAKER, "Asia/Kathmandu", "UTC"])
def test_midnight_in_the_players_zone_starts_the_next_day(at, player, zone):
    ann = player(zone=zone)
    assert visit(ann, at, local("2030-01-07 23:59", zone)).amount == 10
    assert visit(ann, at, local("2030-01-08 00:00", zone)).amount == 15
    assert visit(ann, at, local("2030-01-08 23:59:59", zone)) is None
    assert [d for d, _ in outcomes(ann)] == ["2030-01-07", "2030-01-08"]


def test_moving_east_across_midnight_makes_no_second_day(at, player):
    ann = player(zone=BAKER)
    visit(ann, at, local("2030-01-01 23:00", BAKER))  # 2 Jan 11:00 UTC
    ann.time_zone = KIRITIMATI
    ann.save()
    # It is now 3 January 01:00 there, but the day paid an hour ago reads as the 3rd here.
    assert visit(ann, at, local("2030-01-03 01:00", KIRITIMATI)) is None
    assert visit(ann, at, local("2030-01-03 23:59", KIRITIMATI)) is None
    entry = visit(ann, at, local("2030-01-04 00:00", KIRITIMATI))
    assert entry.amount == rules.streak_reward(2)  # the streak goes on, no day lost or gained
    assert [o for _, o in outcomes(ann)] == ["paid", "paid"]


def test_moving_west_across_midnight_makes_no_second_day(at, player):
    ann = player(zone=KIRITIMATI)
    visit(ann, at, local("2030-01-02 01:00", KIRITIMATI))  # 1 Jan 11:00 UTC
    ann.time_zone = BAKER
    ann.save()
    # There it is 1 January, then 2 January: both already paid as far as the streak goes.
    assert visit(ann, at, local("2030-01-01 00:30", BAKER)) is None
    assert visit(ann, at, local("2030-01-02 01:00", BAKER)) is None
    assert visit(ann, at, local("2030-01-03 00:30", BAKER)).amount == rules.streak_reward(2)
    assert balance(ann) == 10 + 15


@pytest.mark.parametrize(
    "first, second, pays",
    [
        ("2030-03-09 23:30", "2030-03-10 00:30", True),  # the night the clocks go forward
        ("2030-03-10 00:30", "2030-03-10 23:30", False),  # a 23-hour day is one day
        ("2030-11-03 00:30", "2030-11-03 23:30", False),  # a 25-hour day is one day
        ("2030-11-03 23:30", "2030-11-04 00:10", True),
    ],
)
def test_daylight_saving_days_are_days(at, player, first, second, pays):
    ann = player(zone=NEW_YORK)
    assert visit(ann, at, local(first, NEW_YORK)) is not None
    assert (visit(ann, at, local(second, NEW_YORK)) is not None) == pays


def test_the_time_zone_change_limit(at, player):
    ann = player(zone="Europe/Paris")
    at("2030-01-07 10:00")
    assert services.why_not_change_time_zone(ann) is None  # choosing one at sign-up is free
    ann.time_zone = "Asia/Tokyo"
    ann.save()
    at("2030-01-10 10:00")
    assert services.why_not_change_time_zone(ann) == (
        "You changed your time zone on 7 January. You can change it again from 14 January, "
        "19:00: one change a week keeps daily streaks fair."
    )
    at("2030-01-14 10:00")
    assert services.why_not_change_time_zone(ann) is None
    ann.last_login = datetime(2030, 1, 14, tzinfo=UTC)
    ann.save(update_fields=["last_login"])  # other saves don't count as changes
    assert services.why_not_change_time_zone(ann) is None


def test_a_deleted_player_is_skipped(at, player):
    ann, bob = player(), player()
    visit(ann, at, "2030-01-07 09:00")
    visit(bob, at, "2030-01-07 09:00")
    stale = User.objects.get(pk=ann.pk)
    ann.delete()
    at("2030-01-08 09:00")
    assert services.visit(stale) is None
    at("2030-01-12 09:00")
    assert services.keep_up_streaks() == 1
    assert not StreakDay.objects.filter(user_id=stale.pk).exists()


def test_a_session_asks_once_a_day(at, player, client, monkeypatch):
    ann = player()
    client.force_login(ann)
    asked = []
    real_visit = services.visit
    monkeypatch.setattr(services, "visit", lambda user: asked.append(1) or real_visit(user))
    at("2030-01-07 08:00")
    client.get("/kudos/")
    at("2030-01-07 23:00")
    client.get("/kudos/")
    assert len(asked) == 1
    at("2030-01-08 08:00")
    client.get("/kudos/")
    assert len(asked) == 2 and balance(ann) == 25
