"""A randomised run over every earning and spending path of the ledger (hypothesis): visits
across time zones, games of every shape delivered twice, bonus events, upkeep, weekly
closes, purchases with a grant, corrections, deleted players. After each run the ledger
checks out and nothing paid twice."""

from collections import Counter
from datetime import UTC, datetime, timedelta
from decimal import Decimal

from django.db.models import Sum
from django.test import override_settings
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase

from accounts.models import User
from gameplay import hooks
from gameplay.models import Game
from kudos import clock, rules, selectors, services
from kudos.models import Account, BonusEvent, Entry, Streak, StreakDay, WeekClose, WeekPlace

from .conftest import ended_game

PLAYERS = 3
ZONES = ["UTC", "Pacific/Kiritimati", "Etc/GMT+12", "America/New_York", "Asia/Kathmandu"]
KINDS = ["war", "poker", "klondike"]
# Sunday morning: New York's clocks go forward at 07:00 UTC, the week ends at midnight.
START = datetime(2030, 3, 10, 4, 0, tzinfo=UTC)

who = st.integers(0, PLAYERS - 1)
wait = st.tuples(st.just("wait"), st.integers(1, 40))  # hours
visit = st.tuples(st.just("visit"), who)
game = st.tuples(
    st.just("game"),
    st.lists(st.one_of(who, st.none()), min_size=1, max_size=4),  # None: a computer player
    st.sets(st.integers(0, 3), max_size=2),
    st.sampled_from(KINDS),
    st.booleans(),  # abandoned
)
operations = st.one_of(
    game,
    wait,
    visit,
    game,
    wait,
    visit,
    game,
    st.tuples(st.just("zone"), who, st.sampled_from(ZONES)),
    st.tuples(
        st.just("event"),
        st.sampled_from([Decimal("1.5"), Decimal("2"), Decimal("3")]),
        st.sampled_from(["", *KINDS]),
    ),
    st.tuples(st.just("upkeep")),
    st.tuples(st.just("close")),
    st.tuples(st.just("freeze"), who, st.integers(1, 30)),  # a purchase with a grant
    st.tuples(st.just("correct"), who, st.integers(-40, 40)),
)


@override_settings(KUDOS_TEST_CLOCK=True)
class RandomisedLedger(TestCase):
    @settings(
        max_examples=100,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(st.lists(operations, min_size=20, max_size=50), st.one_of(st.none(), st.integers(0, 45)))
    def test_every_path_keeps_the_ledger_whole(self, ops, delete_at):
        """``delete_at``: the step at which the last player deletes their account, if any."""
        now = START
        clock.stop_at(now)
        users = [User.objects.create_user(f"p{i}", password=None) for i in range(PLAYERS)]
        games: list[Game] = []
        for n, op in enumerate(ops):
            clock.stop_at(now)
            if n == delete_at:
                User.objects.filter(pk=users[-1].pk).delete()
            name, args = op[0], op[1:]
            if name == "wait":
                now += timedelta(hours=args[0])
            elif name == "visit":
                user = User.objects.filter(pk=users[args[0]].pk).first() or users[args[0]]
                services.visit(user)
                services.visit(user)  # another tab
            elif name == "zone":
                User.objects.filter(pk=users[args[0]].pk).first() and _set_zone(
                    users[args[0]], args[1]
                )
            elif name == "game":
                seats, winners, kind, abandoned = args
                table = [
                    {"user_id": users[p].pk} if p is not None else {"bot": True} for p in seats
                ]
                game = ended_game(
                    seats=table,
                    winners=[w for w in winners if w < len(table)],
                    kind=kind,
                    ended=now,
                    status=Game.Status.ABANDONED if abandoned else Game.Status.OVER,
                )
                hooks.deliver(game.pk)
                hooks.deliver(game.pk)
                services.pay_for_game(game)  # a replayed receiver pays nothing
                games.append(game)
            elif name == "event":
                multiplier, kind = args
                BonusEvent.objects.create(
                    name=f"Event {n}",
                    multiplier=multiplier,
                    kind=kind,
                    starts=now,
                    ends=now + timedelta(hours=6),
                )
            elif name == "upkeep":
                services.keep_up_streaks()
            elif name == "close":
                services.close_weeks()
                services.close_weeks()
            elif name == "freeze":
                user_id, price = users[args[0]].pk, args[1]
                for _ in range(2):  # a double click
                    try:
                        services.spend(
                            user_id=user_id,
                            amount=price,
                            key=f"shop:{n}",
                            memo="A streak freeze",
                            grant=lambda user_id=user_id: services.give_freeze(user_id=user_id),
                        )
                    except services.Refused as refused:
                        assert refused.message.endswith(".")
            elif name == "correct" and args[1]:
                user_id, amount = users[args[0]].pk, args[1]
                try:
                    services.correct(
                        user_id=user_id, amount=amount, reason="Test", key=f"correction:{n}"
                    )
                except services.Refused as refused:
                    assert refused.message.endswith(".")
        self.check(users, games)

    def check(self, users, games):
        for kind, amount in Entry.objects.values_list("kind", "amount"):
            event(f"entry: {kind} {'credit' if amount > 0 else 'debit'}")
        for outcome in StreakDay.objects.values_list("outcome", flat=True).distinct():
            event(f"streak day: {outcome}")
        if Account.objects.filter(play_today=rules.PLAY_DAILY_CAP).exists():
            event("daily cap reached")
        if Entry.objects.filter(key__startswith="event:").exists():
            event("bonus event paid")
        if len(users) > User.objects.count():
            event("a player deleted")
        report = selectors.audit()
        assert report["problems"] == [], report["problems"]
        assert not Account.objects.filter(balance__lt=0).exists()
        for account in Account.objects.all():
            assert account.play_today <= rules.PLAY_DAILY_CAP
            streak = Streak.objects.get(account=account)
            # Every freeze held or used was bought, once: spend and grant went together.
            bought = Entry.objects.filter(user_id=account.user_id, kind=Entry.Kind.SHOP).count()
            used = StreakDay.objects.filter(user_id=account.user_id, outcome="freeze").count()
            assert streak.freezes + used == bought
            # One streak payment per local day paid for, each the schedule's amount.
            paid = StreakDay.objects.filter(user_id=account.user_id, outcome="paid")
            streak_pay = Entry.objects.filter(user_id=account.user_id, kind=Entry.Kind.STREAK)
            assert paid.count() == streak_pay.count()
            assert sorted(streak_pay.values_list("amount", flat=True)) == sorted(
                rules.streak_reward(d.streak) for d in paid
            )
        # Kudos from play: only finished games with a person at the table, once per person.
        for game in games:
            keys = Counter(
                Entry.objects.filter(key__startswith=f"play:{game.pk}:").values_list(
                    "user_id", flat=True
                )
            )
            assert all(count == 1 for count in keys.values())
            if game.status != Game.Status.OVER:
                assert not keys
        # Each closed week paid at most its prizes, to the places it froze.
        for close in WeekClose.objects.all():
            paid = Entry.objects.filter(kind=Entry.Kind.WEEKLY, reference=f"week:{close.week}")
            frozen = WeekPlace.objects.filter(close=close, prize__gt=0, user__isnull=False)
            assert paid.aggregate(t=Sum("amount"))["t"] or 0 == sum(p.prize for p in frozen)
            assert paid.count() <= len(rules.WEEKLY_PRIZES)


def _set_zone(user, zone):
    user.time_zone = zone
    user.save(update_fields=["time_zone"])
