"""The only code that writes Kudos.

Every write for a player runs in one transaction that first locks that player's ``Account``
row (and only then their ``Streak``), so a player's credits, debits, streak days and daily
cap are decided one at a time, whatever the tabs, devices, workers or retries. Each entry has
an idempotency key derived from what it pays for:

    streak:<user>:<UTC date>              a streak day (5 minutes of play that day)
    play:<game>:<user>                    Kudos from play for one counted game
    first-win:<user>:<kind>:<UTC date>    the first win of the day at a game
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
from datetime import UTC, date, datetime, timedelta

from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction

from accounts import sightings
from gameplay import play
from gameplay.engine import registry
from gameplay.models import Game
from infra import news

from . import clock, header, keys, rules, selectors
from .models import (
    Account,
    BonusEvent,
    Entry,
    PlayCredit,
    Streak,
    StreakDay,
    WeekClose,
    WeekPlace,
)

log = logging.getLogger(__name__)

EVERYONE = "kudos"  # the channel group of every open header
# What an account seen with another that day is told when a daily bonus went to the other.
SHARED_STREAK = "its Kudos went to an account seen on your address or device today"
SHARED_FIRST_WIN = "the first win of the day here went to an account seen with yours"
ONE_DAY = selectors.ONE_DAY
WEEK = selectors.WEEK
# The upkeep treats a day as missed only this long after it ended, so a worker whose clock runs
# a little ahead of the web's never takes a day away from a player who can still play.
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
    if connection.vendor == "postgresql":
        # One statement, atomic by itself: no transaction of its own to open and commit.
        entry, created = _post_statement(user_id, amount, kind, key, memo, reference, person=True)
    else:
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


def hold_all(user_ids) -> dict[int, Account]:
    """Lock several players' Accounts until the transaction ends, in user order: the one
    order every multi-account lock takes, so two transactions never wait on each other.
    Returns them by user id (none for a player who is gone), each with its Streak read."""
    ids = sorted(set(user_ids))
    if not ids:
        return {}
    # A player's first payment makes their account first, before any is locked: a lock
    # taken after another was held could wait the wrong way round.
    have = set(Account.objects.filter(user_id__in=ids).values_list("user_id", flat=True))
    if len(have) < len(ids):
        people = get_user_model().objects.filter(pk__in=set(ids) - have).order_by("pk")
        Account.objects.bulk_create(
            [Account(user_id=u) for u in people.values_list("pk", flat=True)],
            ignore_conflicts=True,
        )
    rows = (
        Account.objects.select_for_update(of=("self",))
        .select_related("user", "streak")
        .filter(user_id__in=ids)
        .order_by("user_id")  # locked in this order: PostgreSQL sorts before it locks
    )
    return {account.user_id: account for account in rows}


def _earns(account: Account | None) -> bool:
    """Only people earn Kudos: a computer player's or a bot's account is never credited (a
    program could otherwise farm them). The one check every payment passes."""
    return account is not None and account.user.is_person


def _lock(user_id: int) -> Account | None:
    """The player's Account, locked until the transaction ends; None if the player is gone."""
    return hold_all([user_id]).get(user_id)


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
    if connection.vendor == "postgresql":
        entry, created = _post_statement(account.user_id, amount, kind, key, memo, reference, short)
        if created:
            account.balance = entry.balance_after  # the caller may save the row again
        return entry, created
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


_POST_SQL = "SELECT * FROM kudos_post(%s::bigint, %s::integer, %s, %s, %s, %s, %s, %s)"


def _post_statement(
    user_id: int,
    amount: int,
    kind: str,
    key: str,
    memo: str,
    reference: str = "",
    short: str = "",
    *,
    person: bool = False,
) -> tuple[Entry | None, bool]:
    """``_post`` on PostgreSQL: the migration's kudos_post function locks the Account row,
    checks the key and the balance, moves it and appends the entry in one round trip. With
    ``person``, a player who is not a person is paid nothing: ``(None, False)``. A player with
    no Account row yet gets one (as signing up makes), then the statement runs again."""
    args = [user_id, amount, kind, key, memo[:200], reference, clock.now(), person]
    with connection.cursor() as cursor:
        cursor.execute(_POST_SQL, args)
        row = cursor.fetchone()
        if row[0] == "no account":
            if not get_user_model().objects.filter(pk=user_id).exists():
                return None, False
            Account.objects.get_or_create(user_id=user_id)
            cursor.execute(_POST_SQL, args)
            row = cursor.fetchone()
    outcome, pk, owner, amount, kind, memo, reference, balance_after, created = row
    if outcome == "not a person":
        return None, False
    if outcome == "not theirs":
        raise ValueError(f"Idempotency key {key!r} belongs to another player.")
    if outcome == "short":
        raise NotEnoughKudos(short.format(cost=-amount, balance=balance_after))
    entry = Entry(
        id=pk,
        user_id=owner,
        amount=amount,
        kind=kind,
        key=key,
        memo=memo,
        reference=reference,
        balance_after=balance_after,
        created=created,
    )
    entry._state.adding = False
    entry._state.db = connection.alias
    return entry, outcome == "paid"


# ---- daily streaks ------------------------------------------------------------------------------


def _streak_day(
    account: Account,
    day: date,
    now: datetime,
    together: frozenset[int] = frozenset(),
    moved: set[int] | None = None,
) -> Entry | None:
    """After play is credited (under the Account lock): the UTC ``day`` is a streak day once
    the player has ``rules.DAY_PLAYED_MINUTES`` of credited play on it, paid once, and not at
    all when one of the accounts seen ``together`` with this one (held locked) was paid that
    day's streak day: the day still counts in the streak (the player goes in ``moved``
    either way). Returns the entry this call paid, or None."""
    if account.seconds_today < rules.DAY_PLAYED_MINUTES * 60:
        return None
    try:
        streak = account.streak  # read with the Account by hold_all
    except Streak.DoesNotExist:
        streak, _ = Streak.objects.get_or_create(account=account)
    changed = _keep_up(streak, day, now)
    if streak.last_day is not None and day <= streak.last_day:  # paid already
        if changed:
            streak.save()
        return None
    streak.current = (
        streak.current + 1 if streak.current and streak.last_day == day - ONE_DAY else 1
    )
    streak.best = max(streak.best, streak.current)
    streak.last_day, streak.last_paid = day, now
    streak.save()
    if moved is not None:
        moved.add(account.user_id)
    shared = Entry.objects.filter(key__in=[keys.streak_day(u, day) for u in together]).exists()
    StreakDay.objects.create(
        user_id=account.user_id,
        day=day,
        outcome=StreakDay.Outcome.SHARED if shared else StreakDay.Outcome.PAID,
        streak=streak.current,
        created=now,
    )
    if shared:
        _announce(account.user_id, f"Day {streak.current} of your streak: {SHARED_STREAK}")
        return None
    reward = rules.streak_reward(streak.current)
    entry, _ = _post(
        account,
        reward,
        Entry.Kind.STREAK,
        keys.streak_day(account.user_id, day),
        f"Day {streak.current} of your daily streak",
        f"day:{day.isoformat()}",
    )
    _announce(account.user_id, f"+{reward} Kudos: day {streak.current} of your streak")
    return entry


def keep_up_streaks() -> int:
    """The daily upkeep: for every running streak whose player's day has moved on, cover each
    missed day with the week's grace day or a freeze, or end the streak. Idempotent, and the
    same whenever it runs (late, twice, in two workers). Returns how many streaks changed."""
    now = clock.now()
    today = (now - UPKEEP_WAITS).astimezone(UTC).date()
    candidates = list(
        Streak.objects.filter(current__gt=0, last_day__lt=today - ONE_DAY).values_list(
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
            if _keep_up(streak, today, now):
                streak.save()
                changed += 1
    return changed


def _keep_up(streak: Streak, today: date, now: datetime) -> bool:
    """Account for every finished UTC day since the last one accounted for: the week's grace
    day, then a freeze, else the streak ends there. Returns whether anything changed."""
    last = streak.last_day
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
    if changed:
        header.changed(streak.account_id)
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


# ---- Kudos from play ------------------------------------------------------------------------------


def pay_for_game(game: Game, moved: set[int] | None = None) -> list[Entry]:
    """Kudos and experience from play for a finished game (the end-of-game hook's "kudos"
    receiver), once per game and person: each person for whom the game counts as play
    (``gameplay.play``), by the minutes of play credited to them (time they were also credited
    at another table is paid once) at the table's rate, a win at ``rules.WIN_MULTIPLIER``, the
    first win of the day at that game doubled, a bonus event's multiplier, and the daily caps
    (UTC days); and the day's streak reward when this game brings the day's play to
    ``rules.DAY_PLAYED_MINUTES``. The daily bonuses (the streak day's Kudos and the first-win
    double) go to one account of those seen together on an address or device
    (``accounts.sightings.seen_with_each``, within ``rules.SEEN_TOGETHER``) each UTC day: the first
    to earn each. Games that don't count, computer players, bots and guests earn nothing.
    Returns the entries paid; ``moved`` gathers the people whose streak this game moved on
    (a streak day paid or shared: their streak badges may be due)."""
    if game.status != Game.Status.OVER or not game.result:
        return []
    winners = set(game.result.get("winners") or [])
    counted: dict[int, tuple[play.Play, bool]] = {}
    for seat, played in play.of_game(game).items():
        if played.counted:
            user_id = game.seats[seat]["user_id"]
            counted.setdefault(user_id, (played, seat in winners))
    people = set(
        get_user_model()
        .objects.filter(pk__in=counted, role=get_user_model().PERSON)
        .values_list("pk", flat=True)
    )
    if not people:
        return []
    ended = game.ended or clock.now()
    event = selectors.bonus_event_at(ended, game.kind)
    together = sightings.seen_with_each(people, ended - rules.SEEN_TOGETHER)
    paid: list[Entry] = []
    with transaction.atomic(savepoint=False):  # all or nothing with its caller's, if any
        # Every account whose bonuses the payments read, locked at once in the one global
        # order: two accounts seen together ending games at once still pay each bonus once.
        held = hold_all(people.union(*together.values()))
        payable = {u: held[u] for u in people if _earns(held.get(u))}
        # What the payments ask of the ledger, read once under the locks: the people credited
        # for this game already, and which of the keys they may pay exist (each key paid here
        # is added as it is paid, so a second person sees the first's first win of the day).
        credited = set(
            PlayCredit.objects.filter(game=game, user_id__in=payable).values_list(
                "user_id", flat=True
            )
        )
        asked = [keys.play(game.pk, u) for u in payable]
        for user_id, account in payable.items():
            if counted[user_id][1]:
                day = _day_of(account, ended)
                asked += [keys.first_win(u, game.kind, day) for u in {user_id} | together[user_id]]
        known = set(Entry.objects.filter(key__in=asked).values_list("key", flat=True))
        for user_id in sorted(payable.keys() - credited):
            played, won = counted[user_id]
            paid += _pay_player(
                payable[user_id], game, played, won, ended, event, together[user_id], known, moved
            )
    return paid


def _pay_player(
    account: Account,
    game: Game,
    played: play.Play,
    won: bool,
    ended: datetime,
    event: BonusEvent | None,
    together: frozenset[int],
    known: set[str],
    moved: set[int] | None,
) -> list[Entry]:
    """Pay one person for a game: the caller holds the Account locks of the person and of
    the accounts seen ``together`` with them, and ``known`` holds which of the keys this
    payment may write exist already."""
    user_id = account.user_id
    if keys.play(game.pk, user_id) in known:
        return []  # paid by the rule before credited time
    title = game_title(game.kind)
    spans = _unpaid(user_id, played.spans)
    seconds = int(sum((end - start).total_seconds() for start, end in spans))
    day = _play_day(account, ended)
    # In hundredths of a Kudos: the game's play, its first-win double, the event's extra.
    earned = rules.hundredths(seconds, rules.play_rate(game.players), won)
    what = f"{'Won' if won else 'Played'} {title}"
    if game.players > 1:
        what += f" at a table of {game.players}"
    what += f": {_minutes(seconds)} of play"
    parts = [(Entry.Kind.PLAY, earned, keys.play(game.pk, user_id), what)]
    first_win = keys.first_win(user_id, game.kind, day)
    if won and earned and first_win not in known:
        if any(keys.first_win(u, game.kind, day) in known for u in together):
            parts[0] = (*parts[0][:3], f"{what} ({SHARED_FIRST_WIN})")
        else:
            extra = earned * (rules.FIRST_WIN_MULTIPLIER - 1)
            memo = f"First win of the day at {title}"
            parts.append((Entry.Kind.BONUS, extra, first_win, memo))
    if event is not None:
        extra = math.floor(sum(p[1] for p in parts) * (event.multiplier - 1))
        key = keys.bonus_event(event.pk, game.pk, user_id)
        parts.append((Entry.Kind.BONUS, extra, key, f"{event.name} ({event.times})"))
    paid, owed = [], account.play_owed
    for kind, hundredths, key, memo in parts:
        owed += hundredths
        amount, owed = divmod(owed, 100)
        room = rules.PLAY_DAILY_CAP - account.play_today
        if amount > room:
            amount, owed, memo = room, 0, f"{memo} (today's cap from play reached)"
        if amount <= 0:
            continue
        account.play_today += amount
        entry, _ = _post(account, amount, kind, key, memo, f"game:{game.pk}")
        known.add(key)
        paid.append(entry)
    account.play_owed = owed
    xp = _experience(account, seconds, won)
    account.seconds_today += seconds
    account.save()
    streak_day = _streak_day(account, day, clock.now(), together, moved)
    if streak_day is not None:
        paid.append(streak_day)
    PlayCredit.objects.create(
        user_id=user_id,
        game=game,
        began=spans[0][0] if spans else ended,
        ended=spans[-1][1] if spans else ended,
        spans=[[start.isoformat(), end.isoformat()] for start, end in spans],
        seconds=seconds,
        kudos=sum(e.amount for e in paid if e.kind in Entry.PLAY_KINDS),
        xp=xp,
        created=clock.now(),
    )
    if paid or xp:
        total = sum(e.amount for e in paid if e.kind in Entry.PLAY_KINDS)
        _announce(user_id, f"+{total} Kudos, +{xp} experience: {what[0].lower()}{what[1:]}")
    return paid


def _day_of(account: Account, ended: datetime) -> date:
    """The UTC day a game that ended at ``ended`` counts on: never before the last one."""
    day = ended.astimezone(UTC).date()
    return max(day, account.play_day) if account.play_day is not None else day


def _play_day(account: Account, ended: datetime) -> date:
    """The UTC day a game that ended at ``ended`` counts on (never before the last one
    counted), its counters set to zero when it is a new day."""
    day = _day_of(account, ended)
    if day == account.play_day:
        return day  # a later game never counts on an earlier day
    account.play_day = day
    account.play_today = account.xp_today = account.seconds_today = 0
    return day


def _experience(account: Account, seconds: int, won: bool) -> int:
    """Add the experience for ``seconds`` of play to the account (the daily cap applied, the
    part short of a whole point carried). Returns the points added."""
    owed = account.xp_owed + rules.hundredths(seconds, rules.XP_PER_MINUTE, won)
    points, owed = divmod(owed, 100)
    room = max(rules.XP_DAILY_CAP - account.xp_today, 0)
    if points > room:
        points, owed = room, 0
    account.xp += points
    account.xp_today += points
    account.xp_owed = owed
    return points


def _unpaid(user_id: int, spans: tuple[play.Span, ...]) -> list[play.Span]:
    """``spans`` less the time already credited to the player at other tables."""
    if not spans:
        return []
    paid = []
    for other in PlayCredit.objects.filter(
        user_id=user_id, ended__gt=spans[0][0], began__lt=spans[-1][1]
    ).values_list("spans", flat=True):
        paid += [(datetime.fromisoformat(a), datetime.fromisoformat(b)) for a, b in other]
    left = []
    for start, end in spans:
        pieces = [(start, end)]
        for a, b in paid:
            pieces = [
                piece
                for s, e in pieces
                for piece in ((s, min(e, a)), (max(s, b), e))
                if piece[1] > piece[0]
            ]
        left += pieces
    return left


def _minutes(seconds: int) -> str:
    minutes, rest = divmod(seconds, 60)
    return f"{minutes} min {rest} s" if minutes else f"{rest} s"


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
    the badge just earned, if any). Sent without waiting: a nudge, never state."""
    header.changed(user_id)
    news.tell_soon_after_commit(
        news.person_group(user_id), "kudos.changed", news=news_text, badge=badge
    )
