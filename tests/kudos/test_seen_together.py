"""Accounts seen on one address or device share the daily bonuses (issue 33's ring): each UTC
day the streak day's Kudos and the first win of the day's double go to the first of them to
earn it. Each keeps its own play pay, experience, streak days and badges; the ledger stays
whole."""

from datetime import UTC, datetime, timedelta

import pytest
from django.core.management import call_command

from accounts import sightings
from accounts.models import Sighting
from gameplay import hooks
from kudos import keys, services
from kudos.models import BadgeEarned, Entry, Streak, StreakDay

from .conftest import ended_game

pytestmark = pytest.mark.django_db(transaction=True)

HOME = sightings.digest("203.0.113.7")
ELSEWHERE = sightings.digest("198.51.100.20")
MORNING = datetime(2030, 1, 7, 9, tzinfo=UTC)


def seen(user, when: datetime, address: str = HOME, device: str = "") -> None:
    """The account signed in from ``address`` (and ``device``) at ``when``."""
    Sighting.objects.update_or_create(
        user=user,
        address=address,
        device=device,
        defaults={"last_seen": when},
        create_defaults={"first_seen": when, "last_seen": when},
    )


def won_war(user, ended: datetime):
    """A counted game of War of ten minutes that ``user`` won: a streak day's play and a win."""
    game = ended_game(
        seats=[{"user_id": user.pk}, {"bot": True}], winners=[0], ended=ended, seconds=600
    )
    hooks.deliver(game.pk)
    return game


def kinds(user) -> list[str]:
    return list(Entry.objects.filter(user=user).order_by("id").values_list("kind", flat=True))


def streak_of(user) -> int:
    return Streak.objects.get(account__user=user).current


def test_the_second_account_on_an_address_keeps_its_play_but_not_the_days_bonuses(at, player):
    ann, bob = player(), player()
    seen(ann, MORNING)
    seen(bob, MORNING + timedelta(minutes=5))
    at(MORNING + timedelta(hours=1))
    won_war(ann, MORNING + timedelta(minutes=30))
    won_war(bob, MORNING + timedelta(minutes=50))

    assert {Entry.Kind.PLAY, Entry.Kind.BONUS, Entry.Kind.STREAK} <= set(kinds(ann))
    bobs = Entry.objects.filter(user=bob)
    assert not bobs.filter(kind__in=[Entry.Kind.STREAK, Entry.Kind.BONUS]).exists()
    play = bobs.get(kind=Entry.Kind.PLAY)
    assert play.amount == Entry.objects.get(user=ann, kind=Entry.Kind.PLAY).amount
    assert play.memo.endswith(f"({services.SHARED_FIRST_WIN})")
    # Bob's day still counts in his streak, and his badges are his own.
    assert streak_of(bob) == 1
    day = StreakDay.objects.get(user=bob)
    assert day.outcome == StreakDay.Outcome.SHARED
    assert set(BadgeEarned.objects.filter(user=bob).values_list("badge", flat=True)) == {
        "first-game",
        "first-win-war",
    }
    call_command("verify_ledger")  # raises SystemExit on any mismatch


def test_whoever_earns_first_takes_the_day_and_the_streaks_run_on(at, player):
    ann, bob = player(), player()
    for n in range(7):
        morning = MORNING + timedelta(days=n)
        seen(ann, morning)
        seen(bob, morning)
        at(morning + timedelta(hours=2))
        first, second = (ann, bob) if n % 2 == 0 else (bob, ann)
        won_war(first, morning + timedelta(minutes=30))
        won_war(second, morning + timedelta(minutes=50))
        assert Entry.objects.filter(key=keys.streak_day(first.pk, morning.date())).exists()
        assert not Entry.objects.filter(key=keys.streak_day(second.pk, morning.date())).exists()
    assert streak_of(ann) == streak_of(bob) == 7
    paid = {
        u.username: StreakDay.objects.filter(user=u, outcome="paid").count() for u in (ann, bob)
    }
    assert paid == {ann.username: 4, bob.username: 3}
    # Bob's seventh day was shared, yet it made his week: the badge is his.
    assert BadgeEarned.objects.filter(user=bob, badge="streak-7").exists()
    assert BadgeEarned.objects.filter(user=ann, badge="streak-7").exists()
    call_command("verify_ledger")


def test_one_device_on_two_addresses_shares_the_day_too(at, player):
    ann, bob = player(), player()
    seen(ann, MORNING, address=HOME, device="laptop-hash")
    seen(bob, MORNING, address=ELSEWHERE, device="laptop-hash")
    at(MORNING + timedelta(hours=1))
    won_war(ann, MORNING + timedelta(minutes=30))
    won_war(bob, MORNING + timedelta(minutes=50))
    assert Entry.Kind.STREAK in kinds(ann) and Entry.Kind.STREAK not in kinds(bob)


def test_two_people_at_one_table_from_one_address_share_the_day(at, player):
    ann, bob = player(), player()
    seen(ann, MORNING)
    seen(bob, MORNING)
    at(MORNING + timedelta(hours=1))
    game = ended_game(
        seats=[{"user_id": ann.pk}, {"user_id": bob.pk}],
        winners=[0, 1],  # a shared win
        ended=MORNING + timedelta(minutes=30),
        seconds=600,
    )
    hooks.deliver(game.pk)
    hooks.deliver(game.pk)  # delivered twice: paid once
    streaks = Entry.objects.filter(kind=Entry.Kind.STREAK, user__in=[ann, bob])
    doubles = Entry.objects.filter(kind=Entry.Kind.BONUS, user__in=[ann, bob])
    assert streaks.count() == 1 and doubles.count() == 1
    assert streak_of(ann) == streak_of(bob) == 1


@pytest.mark.parametrize(
    "bob_seen, address",
    [
        (MORNING - timedelta(days=3), HOME),  # the same address, but days ago
        (MORNING, ELSEWHERE),  # today, elsewhere
    ],
)
def test_accounts_not_seen_together_each_get_their_day(at, player, bob_seen, address):
    ann, bob = player(), player()
    seen(ann, MORNING)
    seen(bob, bob_seen, address=address)
    at(MORNING + timedelta(hours=1))
    won_war(ann, MORNING + timedelta(minutes=30))
    won_war(bob, MORNING + timedelta(minutes=50))
    for user in (ann, bob):
        assert {Entry.Kind.STREAK, Entry.Kind.BONUS} <= set(kinds(user))
