"""The only code that writes Kudos.

Every write for a player runs in one transaction that first locks that player's ``Account``
row (and only then their ``Streak``), so a player's credits, debits, streak days and daily
cap are decided one at a time, whatever the tabs, devices, workers or retries. Each entry has
an idempotency key derived from what it pays for:

    streak:<user>:<local date>            a streak day
    play:<game>:<user>                    Kudos from play for one finished game
    first-win:<user>:<kind>:<local date>  the first win of the day at a game
    event:<event>:<game>:<user>           a bonus event's extra
    weekly:<ISO week>:<user>              a weekly leaderboard prize
    badge:<badge>:<user>                  a badge (kudos/badges.py)
    challenge:<challenge>:<user>          a Daily Challenge attempt finished (kudos/challenges.py)
    challenge-top:<challenge>:<user>      one of the day's fastest wins
    spot:<nonce>                          a sponsor spot watched (kudos/spots.py)
    referral:<invitee>:joined|invited     a referral qualified, each side (kudos/referrals.py)
    shop:<item>:<user>                    a card back, felt or name colour (kudos/shop.py)
    shop:freeze:<user>:<order>            a streak freeze, one per order

so a repeated call finds the key and pays nothing again. Callers outside this module use
``credit``, ``spend`` (which can grant what was bought in the same transaction) and
``correct``; each returns ``(entry, created)``.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction

from gameplay.engine import registry
from gameplay.models import Game
from infra import news

from . import clock, keys, rules, selectors
from .models import Account, BonusEvent, Entry, Streak, StreakDay, WeekClose, WeekPlace

log = logging.getLogger(__name__)

EVERYONE = "kudos"  # the channel group of every open header
ONE_DAY = selectors.ONE_DAY
WEEK = selectors.WEEK
# The upkeep treats a day as missed only this long after it ended, so a worker whose clock runs
# a little ahead of the web's never takes a day away from a player who can still visit.
UPKEEP_WAITS = timedelta(minutes=10)


class Refused(Exception):
    """A Kudos operation that can't happen. The message is a sentence for the player."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class NotEnoughKudos(Refused):
    pass


# ---- the ledger -------------------------------------------------------------------------------


def credit(
    *,
    user_id: int,
    amount: int,
    kind: str,
    key: str,
    memo: str,
    reference: str = "",
    badge: str = "",
) -> tuple[Entry | None, bool]:
    """Pay ``amount`` (> 0) Kudos, once per ``key``. Returns ``(entry, created)``: the earlier
    entry and False when the key was paid before; ``(None, False)`` when the player no longer
    exists or the account is not a person's (computer players and bots never earn). Kinds in
    ``Entry.PLAY_KINDS`` count on the weekly leaderboard; the daily cap from play is
    ``pay_for_game``'s. The player's open pages announce it ("+N Kudos: memo"), or,
    for ``badge`` (the slug of the badge it pays for), show the badge's toast."""
    if amount <= 0:
        raise ValueError("A credit is a positive amount.")
    with transaction.atomic():
        account = _lock(user_id)
        if not _earns(account):
            return None, False
        entry, created = _post(account, amount, kind, key, memo, reference)
        if created:
            _announce(user_id, None if badge else f"+{amount} Kudos: {memo}", badge)
    return entry, created


def spend(
    *,
    user_id: int,
    amount: int,
    key: str,
    memo: str,
    reference: str = "",
    kind: str = Entry.Kind.SHOP,
    grant: Callable[[], object] | None = None,
) -> tuple[Entry, bool]:
    """Take ``amount`` (> 0) Kudos for ``memo`` (what is bought), once per ``key``, and call
    ``grant()`` in the same transaction: whatever ``grant`` raises undoes the debit too.

    Raises NotEnoughKudos, taking nothing, when the balance is short. A repeated key returns
    the earlier entry and grants nothing again."""
    if amount <= 0:
        raise ValueError("A debit is a positive amount.")
    with transaction.atomic():
        account = _lock(user_id)
        if account is None:
            raise Refused("This player's account no longer exists.")
        entry, created = _post(account, -amount, kind, key, memo, reference)
        if created:
            if grant is not None:
                grant()
            _announce(user_id, f"−{amount} Kudos: {memo}")
    return entry, created


def correct(*, user_id: int, amount: int, reason: str, key: str) -> tuple[Entry, bool]:
    """A correction (staff only): a new entry of ``amount`` (either sign), never an edit."""
    if amount == 0:
        raise ValueError("A correction of 0 changes nothing.")
    with transaction.atomic():
        account = _lock(user_id)
        if account is None:
            raise Refused("This player's account no longer exists.")
        entry, created = _post(
            account,
            amount,
            Entry.Kind.CORRECTION,
            key,
            reason,
            short="This player has {balance} Kudos: a correction can't take {cost}.",
        )
        if created:
            _announce(user_id, f"{amount:+} Kudos: {reason}")
    return entry, created


def hold(user_id: int) -> Account | None:
    """Lock the player's Account until the transaction ends (None if the player is gone): a
    caller that decides a payment from what the player was paid before (a monthly cap) holds
    it while it counts, so parallel payments queue behind it."""
    return _lock(user_id)


def hold_all(user_ids) -> None:
    """Lock several players' Accounts until the transaction ends, in user order: the one
    order every multi-account lock takes, so two transactions never wait on each other."""
    for user_id in sorted(user_ids):
        _lock(user_id)


def _earns(account: Account | None) -> bool:
    """Only people earn Kudos: a computer player's or a bot's account is never credited (a
    program could otherwise farm them). The one check every payment passes."""
    return account is not None and account.user.is_person


def _lock(user_id: int) -> Account | None:
    """The player's Account, locked until the transaction ends; None if the player is gone."""
    found = (
        Account.objects.select_for_update(of=("self",))
        .select_related("user")
        .filter(user_id=user_id)
        .first()
    )
    if found is not None:
        return found
    if not get_user_model().objects.filter(pk=user_id).exists():
        return None
    Account.objects.get_or_create(user_id=user_id)
    return (
        Account.objects.select_for_update(of=("self",)).select_related("user").get(user_id=user_id)
    )


def _post(
    account: Account,
    amount: int,
    kind: str,
    key: str,
    memo: str,
    reference: str = "",
    short: str = "This costs {cost} Kudos and you have {balance}.",
) -> tuple[Entry, bool]:
    """Append one entry and move the balance with it; a key paid before returns its entry.
    The caller holds the Account lock, and keys are per player, so the check for an earlier
    entry can't race. A debit the balance can't cover raises NotEnoughKudos(``short``)."""
    earlier = Entry.objects.filter(key=key).first()
    if earlier is not None:
        if earlier.user_id != account.user_id:
            raise ValueError(f"Idempotency key {key!r} belongs to another player.")
        return earlier, False
    balance = account.balance + amount
    if balance < 0:
        raise NotEnoughKudos(short.format(cost=-amount, balance=account.balance))
    account.balance = balance
    account.save()
    entry = Entry.objects.create(
        user_id=account.user_id,
        amount=amount,
        kind=kind,
        key=key,
        memo=memo[:200],
        reference=reference,
        balance_after=balance,
        created=clock.now(),
    )
    return entry, True


# ---- daily streaks ------------------------------------------------------------------------------


def visit(user) -> Entry | None:
    """A signed-in player's visit: the first of their day (in their own time zone) pays that
    day's streak reward, once whatever the tabs, devices or retries. Returns the entry this
    call paid, or None.

    A day pays only if it comes after the last day paid both as recorded and as that moment
    reads in the player's zone now, so a change of zone never makes a second day out of one:
    between two paid days there is always a midnight of the zone in use."""
    now = clock.now()
    zone = selectors.zone_of(user)
    today = now.astimezone(zone).date()
    with transaction.atomic():
        account = _lock(user.pk)
        if not _earns(account):
            return None
        streak, _ = Streak.objects.get_or_create(account=account)
        changed = _see_zone(streak, user.time_zone, now)
        changed = _keep_up(streak, today, zone, now) or changed
        last = selectors.last_day(streak, zone)
        if last is not None and today <= last:  # this day is paid (or was, in another zone)
            if changed:
                streak.save()
            return None
        streak.current = streak.current + 1 if streak.current and last == today - ONE_DAY else 1
        streak.best = max(streak.best, streak.current)
        streak.last_day, streak.last_paid = today, now
        streak.save()
        StreakDay.objects.create(
            user_id=user.pk,
            day=today,
            outcome=StreakDay.Outcome.PAID,
            streak=streak.current,
            created=now,
        )
        reward = rules.streak_reward(streak.current)
        entry, _ = _post(
            account,
            reward,
            Entry.Kind.STREAK,
            keys.streak_day(user.pk, today),
            f"Day {streak.current} of your daily streak",
            f"day:{today.isoformat()}",
        )
        _announce(user.pk, f"+{reward} Kudos: day {streak.current} of your streak")
    return entry


def keep_up_streaks() -> int:
    """The daily upkeep: for every running streak whose player's day has moved on, cover each
    missed day with the week's grace day or a freeze, or end the streak. Idempotent, and the
    same whenever it runs (late, twice, in two workers). Returns how many streaks changed."""
    now = clock.now()
    then = now - UPKEEP_WAITS
    # No zone is more than 14 hours ahead of UTC: a streak with a missed, finished day has
    # last_day before this.
    before = (then + timedelta(hours=14)).date() - ONE_DAY
    candidates = list(
        Streak.objects.filter(current__gt=0, last_day__lt=before).values_list(
            "account_id", flat=True
        )
    )
    changed = 0
    for user_id in candidates:
        with transaction.atomic():
            account = _lock(user_id)
            if account is None:
                continue
            streak = Streak.objects.get(account=account)
            zone = selectors.zone_of(account.user)
            if _keep_up(streak, then.astimezone(zone).date(), zone, now):
                streak.save()
                changed += 1
    return changed


def _keep_up(streak: Streak, today: date, zone: ZoneInfo, now: datetime) -> bool:
    """Account for every finished day since the last one accounted for: the week's grace day,
    then a freeze, else the streak ends there. Returns whether anything changed."""
    last = selectors.last_day(streak, zone)
    if not streak.current or last is None:
        return False
    changed = False
    day = last + ONE_DAY
    while day < today:
        week = selectors.iso_week(day)
        if streak.grace_week != week:
            streak.grace_week, outcome = week, StreakDay.Outcome.GRACE
        elif streak.freezes:
            streak.freezes, outcome = streak.freezes - 1, StreakDay.Outcome.FREEZE
        else:
            streak.current, outcome = 0, StreakDay.Outcome.ENDED
        StreakDay.objects.create(
            user_id=streak.account_id, day=day, outcome=outcome, streak=streak.current, created=now
        )
        streak.last_day, changed = day, True
        if outcome == StreakDay.Outcome.ENDED:
            break
        day += ONE_DAY
    return changed


def give_freeze(*, user_id: int) -> int:
    """One more streak freeze for the player (part of a purchase: pass it to ``spend`` as the
    grant). Returns how many they hold."""
    with transaction.atomic():
        account = _lock(user_id)
        if account is None:
            raise Refused("This player's account no longer exists.")
        streak, _ = Streak.objects.get_or_create(account=account)
        if streak.freezes >= rules.MAX_FREEZES:
            raise Refused(
                f"You already hold {rules.MAX_FREEZES} streak freezes, the most you can keep."
            )
        streak.freezes += 1
        streak.save(update_fields=["freezes"])
        _announce(user_id, None)
    return streak.freezes


# ---- time zones ---------------------------------------------------------------------------------


def why_not_change_time_zone(user) -> str | None:
    """Why the player may not change their time zone now (a sentence), or None when they may.
    One change per ``rules.TIME_ZONE_CHANGE_EVERY``: the settings page asks before saving."""
    changed = (
        Streak.objects.filter(account__user=user).values_list("zone_changed", flat=True).first()
    )
    if changed is None:
        return None
    again = changed + rules.TIME_ZONE_CHANGE_EVERY
    if clock.now() >= again:
        return None
    zone = selectors.zone_of(user)
    return (
        f"You changed your time zone on {changed.astimezone(zone):%-d %B}. You can change it "
        f"again from {again.astimezone(zone):%-d %B, %H:%M}: one change a week keeps daily "
        "streaks fair."
    )


def saw_time_zone(user) -> None:
    """Note the player's time zone (a change starts the wait before the next one)."""
    with transaction.atomic():
        account = _lock(user.pk)
        if account is None:
            return
        streak, _ = Streak.objects.get_or_create(account=account)
        if _see_zone(streak, user.time_zone, clock.now()):
            streak.save(update_fields=["zone", "zone_changed"])


def _see_zone(streak: Streak, zone: str, now: datetime) -> bool:
    if streak.zone == zone:
        return False
    if streak.zone:
        streak.zone_changed = now
    streak.zone = zone
    return True


# ---- Kudos from play ------------------------------------------------------------------------------


def pay_for_game(game: Game) -> list[Entry]:
    """Kudos from play for a finished game (the end-of-game hook's "kudos" receiver): each
    signed-in person who held a seat to the end, once per game, by table size and result, with
    the first win of the day at that game doubled, a bonus event's multiplier, and the daily
    cap. Abandoned games, computer-only games, guests and seats a computer finished pay
    nothing."""
    if game.status != Game.Status.OVER or not game.result:
        return []
    winners = set(game.result.get("winners") or [])
    people: dict[int, bool] = {}
    for seat, info in enumerate(game.seats):
        user_id = info.get("user_id")
        if user_id and not info.get("bot") and not info.get("left"):
            people[user_id] = people.get(user_id, False) or seat in winners
    if not people:
        return []
    ended = game.ended or clock.now()
    event = selectors.bonus_event_at(ended, game.kind)
    paid: list[Entry] = []
    for user_id, won in sorted(people.items()):  # accounts locked in one global order
        paid += _pay_player(user_id, game, won, ended, event)
    return paid


def _pay_player(
    user_id: int, game: Game, won: bool, ended: datetime, event: BonusEvent | None
) -> list[Entry]:
    title = game_title(game.kind)
    with transaction.atomic():
        account = _lock(user_id)
        if not _earns(account) or Entry.objects.filter(key=keys.play(game.pk, user_id)).exists():
            return []
        day = ended.astimezone(selectors.zone_of(account.user)).date()
        if account.play_day is not None and account.play_day >= day:
            day = account.play_day  # a later game never counts on an earlier day
        else:
            account.play_day, account.play_today = day, 0
        base = rules.play_pay(game.players, won)
        what = f"{'Won' if won else 'Finished'} {title}"
        if game.players > 1:
            what += f" at a table of {game.players}"
        parts = [(Entry.Kind.PLAY, base, keys.play(game.pk, user_id), what)]
        first_win = keys.first_win(user_id, game.kind, day)
        if won and not Entry.objects.filter(key=first_win).exists():
            extra = base * (rules.FIRST_WIN_MULTIPLIER - 1)
            parts.append((Entry.Kind.BONUS, extra, first_win, f"First win of the day at {title}"))
        if event is not None:
            extra = math.floor(sum(p[1] for p in parts) * (event.multiplier - 1))
            if extra > 0:
                key = keys.bonus_event(event.pk, game.pk, user_id)
                parts.append((Entry.Kind.BONUS, extra, key, f"{event.name} ({event.times})"))
        paid = []
        for kind, amount, key, memo in parts:
            room = rules.PLAY_DAILY_CAP - account.play_today
            if room <= 0:
                break
            if amount > room:
                amount, memo = room, f"{memo} (today's cap from play reached)"
            account.play_today += amount
            entry, _ = _post(account, amount, kind, key, memo, f"game:{game.pk}")
            paid.append(entry)
        if paid:
            total = sum(e.amount for e in paid)
            _announce(user_id, f"+{total} Kudos: {what[0].lower()}{what[1:]}")
    return paid


def game_title(kind: str) -> str:
    try:
        return registry.get(kind).title
    except KeyError:
        return kind


# ---- the weekly leaderboard -------------------------------------------------------------------------


def close_weeks() -> list[str]:
    """Close every week that has ended (``rules.WEEK_CLOSES_AFTER`` ago) and is not closed yet,
    oldest first: freeze its standings and pay its prizes. Run twice, it pays once; run late
    (a worker was down), it closes the weeks that ended, each on its own Kudos. Returns the
    weeks it closed."""
    now = clock.now()
    newest = selectors.week_start(now - rules.WEEK_CLOSES_AFTER) - WEEK
    latest = WeekClose.objects.order_by("-starts").values_list("starts", flat=True).first()
    if latest is not None:
        start = latest + WEEK
    else:
        first = (
            Entry.objects.filter(kind__in=Entry.PLAY_KINDS)
            .order_by("created")
            .values_list("created", flat=True)
            .first()
        )
        if first is None:
            return []
        start = selectors.week_start(first)
    closed = []
    while start <= newest:
        if _close_week(start, now):
            closed.append(selectors.week_label(start))
        start += WEEK
    return closed


def _close_week(start: datetime, now: datetime) -> bool:
    label = selectors.week_label(start)
    with transaction.atomic():
        try:
            with transaction.atomic():
                close = WeekClose.objects.create(week=label, starts=start, closed=now)
        except IntegrityError:  # closed already, or being closed by another worker
            return False
        top = selectors.standings(start, start + WEEK, limit=rules.WEEKLY_SHOWN)
        close.players = selectors.week_players(start, start + WEEK)
        close.save(update_fields=["players"])
        names = dict(
            get_user_model()
            .objects.filter(pk__in=[row["user_id"] for row in top])
            .values_list("pk", "username")
        )
        places = []
        for place, row in enumerate(top, start=1):
            prize = rules.WEEKLY_PRIZES[place - 1] if place <= len(rules.WEEKLY_PRIZES) else 0
            places.append(
                WeekPlace(
                    close=close,
                    place=place,
                    user_id=row["user_id"],
                    name=names.get(row["user_id"], ""),
                    earned=row["earned"],
                    prize=prize,
                )
            )
        WeekPlace.objects.bulk_create(places)
        hold_all({spot.user_id for spot in places if spot.prize})  # the global order first
        for spot in places:
            if spot.prize:
                credit(
                    user_id=spot.user_id,
                    amount=spot.prize,
                    kind=Entry.Kind.WEEKLY,
                    key=keys.weekly(label, spot.user_id),
                    memo=f"{ordinal(spot.place)} place in week {label}",
                    reference=f"week:{label}",
                )
    return True


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


# ---- bonus events ------------------------------------------------------------------------------------


def announce_bonus_events() -> int:
    """Refresh every open header when a bonus event starts or ends. Returns how many did."""
    now = clock.now()
    started = BonusEvent.objects.filter(announced=0, starts__lte=now, ends__gt=now).update(
        announced=1
    )
    ended = BonusEvent.objects.filter(announced__lt=2, ends__lte=now).update(announced=2)
    if started or ended:
        news.tell_now(EVERYONE, "kudos.changed", news=None, badge="")
    return started + ended


# ---- players leaving ------------------------------------------------------------------------------


def forget(*, user_id: int) -> None:
    """A player's account is being deleted (in that transaction): wait for any payment in
    flight, let the database delete their entries with them, and take their name off frozen
    leaderboards. Payments after this find the player gone and pay nothing."""
    Account.objects.select_for_update().filter(user_id=user_id).first()
    WeekPlace.objects.filter(user_id=user_id).update(name="")
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT set_config('kudos.forget', "
                "coalesce(current_setting('kudos.forget', true), '') || ',' || %s, true)",
                [str(user_id)],
            )


# ---- telling open pages ------------------------------------------------------------------------------


def _announce(user_id: int, news_text: str | None, badge: str = "") -> None:
    """After the commit, refresh the player's open headers (with ``news_text`` to show, and
    the badge just earned, if any)."""
    news.tell_after_commit(news.person_group(user_id), "kudos.changed", news=news_text, badge=badge)
