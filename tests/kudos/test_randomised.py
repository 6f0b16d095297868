"""A randomised run over every earning and spending path of the ledger (hypothesis): visits
across time zones, games of every shape delivered twice, bonus events, upkeep, weekly
closes, purchases with a grant, corrections, deleted players; and badges (from games, streaks,
challenges and the backfill), Daily Challenge attempts and closes, sponsor spots (claimed
early, on time, twice, late), referrals qualifying, and the shop. After each run the ledger
checks out and nothing paid twice."""

from collections import Counter
from datetime import UTC, datetime, timedelta
from decimal import Decimal

from django.db.models import Sum
from django.test import override_settings
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase

from accounts.models import GameRecord, User
from gameplay import hooks
from gameplay.models import Game
from kudos import awards, badges, challenges, clock, rules, selectors, services, shop, spots
from kudos.models import (
    Account,
    Attempt,
    BadgeEarned,
    BonusEvent,
    Challenge,
    Entry,
    Owned,
    PlayCredit,
    Referral,
    Streak,
    StreakDay,
    WeekClose,
    WeekPlace,
)

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
    st.tuples(st.just("challenge"), who, st.sampled_from(challenges.KINDS), st.booleans()),
    st.tuples(st.just("close challenges")),
    st.tuples(st.just("spot"), who, st.sampled_from([5, rules.SPOT_SECONDS, 700])),  # seconds
    st.tuples(st.just("buy"), who, st.sampled_from([i.slug for i in shop.CATALOGUE])),
    st.tuples(st.just("correct"), who, st.just(700)),  # enough for the shop's dearer items
    st.tuples(st.just("backfill")),
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
        for invitee in users[1:]:  # p1 and p2 joined through p0's invite link
            Referral.objects.create(invitee=invitee, inviter=users[0], joined=now)
        games: list[Game] = []
        for n, op in enumerate(ops):
            clock.stop_at(now)
            if n == delete_at:
                User.objects.filter(pk=users[-1].pk).delete()
            name, args = op[0], op[1:]
            if name == "wait":
                now += timedelta(hours=args[0])
            elif name == "visit":  # five minutes of play: the day's streak reward
                game = ended_game(
                    seats=[{"user_id": users[args[0]].pk}],
                    winners=[],
                    kind="gridcannon",
                    ended=now,
                    seconds=rules.DAY_PLAYED_MINUTES * 60,
                )
                hooks.deliver(game.pk)
                hooks.deliver(game.pk)  # a retry
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
            elif name == "challenge":
                user, kind, won = users[args[0]], args[1], args[2]
                day = now.date()
                daily, _ = Challenge.objects.get_or_create(
                    day=day,
                    kind=kind,
                    defaults={"seed": f"{day}", "seed_hash": "0" * 64, "chosen": now},
                )
                if (
                    User.objects.filter(pk=user.pk).exists()
                    and not Attempt.objects.filter(challenge=daily, user=user).exists()
                ):
                    game = ended_game(
                        seats=[{"user_id": user.pk}],
                        winners=[0] if won else [],
                        kind=kind,
                        ended=now,
                    )
                    challenges.attach(
                        Attempt.objects.create(challenge=daily, user=user, started=now), game
                    )  # as the lobby does
                    hooks.deliver(game.pk)
                    hooks.deliver(game.pk)
                    games.append(game)
            elif name == "close challenges":
                challenges.close_days()
                challenges.close_days()
            elif name == "spot":
                user = User.objects.filter(pk=users[args[0]].pk).first()
                if user is not None:
                    try:
                        _, token = spots.begin(user)
                    except services.Refused as refused:
                        said = refused.message
                        assert said.endswith("more tomorrow.") or said == spots.CLOSED
                    else:
                        clock.stop_at(now + timedelta(seconds=args[1]))
                        for _ in range(2):  # and once more: a replay
                            try:
                                spots.claim(user, token)
                            except services.Refused as refused:
                                assert refused.message.endswith(".")
            elif name == "buy":
                try:
                    shop.buy(user_id=users[args[0]].pk, slug=args[1], order=f"{n:08x}")
                except services.Refused as refused:
                    assert refused.message.endswith(".")
            elif name == "backfill":
                for user_id in badges.players_with_history():
                    awards.award_due(user_id)
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
        if len(users) > User.objects.filter(role=User.PERSON).count():
            event("a player deleted")
        report = selectors.audit()
        assert report["problems"] == [], report["problems"]
        assert not Account.objects.filter(balance__lt=0).exists()
        for account in Account.objects.all():
            assert account.play_today <= rules.PLAY_DAILY_CAP
            streak = Streak.objects.filter(account=account).first() or Streak(account=account)
            # Every freeze held or used was bought, once: spend and grant went together.
            bought = Entry.objects.filter(
                user_id=account.user_id,
                kind=Entry.Kind.SHOP,
                memo__in=["A streak freeze", "Bought: Streak freeze"],
            ).count()
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
        # A badge: one entry of its reward and one record, never two.
        for earned in BadgeEarned.objects.all():
            (entry,) = Entry.objects.filter(key=f"badge:{earned.badge}:{earned.user_id}")
            assert entry.amount == badges.get(earned.badge).reward
        assert Entry.objects.filter(kind=Entry.Kind.BADGE).count() == BadgeEarned.objects.count()
        if BadgeEarned.objects.exists():
            event("badge earned")
        # A challenge attempt pays once if it finished within its day, and a closed day paid
        # its fastest wins only.
        for attempt in Attempt.objects.all():
            paid = Entry.objects.filter(key=f"challenge:{attempt.challenge_id}:{attempt.user_id}")
            assert paid.count() == (1 if attempt.finished else 0)
            top = Entry.objects.filter(
                key=f"challenge-top:{attempt.challenge_id}:{attempt.user_id}"
            )
            assert top.count() <= (1 if attempt.won else 0)
            if top.exists():
                event("challenge top time paid")
        # Spots: a token pays once, its full amount.
        spot_pay = Entry.objects.filter(kind=Entry.Kind.SPOT)
        assert set(spot_pay.values_list("amount", flat=True)) <= {rules.SPOT_PAY}
        if spot_pay.exists():
            event("spot paid")
        for paid in spot_pay:  # only on a UTC day of counted play
            day = paid.created.astimezone(UTC).date()
            credited = PlayCredit.objects.filter(user_id=paid.user_id, seconds__gt=0)
            assert credited.filter(ended__date=day).exists()
        # Referrals: paid once, both (the inviter within the cap), only when qualified.
        for referral in Referral.objects.all():
            joined = Entry.objects.filter(key=f"referral:{referral.invitee_id}:joined").count()
            invited = Entry.objects.filter(key=f"referral:{referral.invitee_id}:invited").count()
            assert joined == (1 if referral.qualified else 0)
            assert invited == (1 if referral.qualified and referral.inviter_paid else 0)
            if referral.qualified:
                event("referral qualified")
                assert GameRecord.objects.filter(user_id=referral.invitee_id).count() >= 3
        # The shop: an owned item was paid for once; a refused one left nothing behind.
        for owned in Owned.objects.all():
            item = shop.get(owned.item)
            (debit,) = Entry.objects.filter(key=f"shop:{owned.item}:{owned.user_id}")
            assert debit.amount == -item.price
            event("shop item owned")
        assert Entry.objects.filter(key__regex=r"^shop:(back|felt|colour)-").count() == (
            Owned.objects.count()
        )
        # Each closed week paid at most its prizes, to the places it froze.
        for close in WeekClose.objects.all():
            paid = Entry.objects.filter(kind=Entry.Kind.WEEKLY, reference=f"week:{close.week}")
            frozen = WeekPlace.objects.filter(close=close, prize__gt=0, user__isnull=False)
            assert paid.aggregate(t=Sum("amount"))["t"] or 0 == sum(p.prize for p in frozen)
            assert paid.count() <= len(rules.WEEKLY_PRIZES)


def _set_zone(user, zone):
    user.time_zone = zone
    user.save(update_fields=["time_zone"])
