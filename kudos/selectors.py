"""Reads for the header, the pages and the weekly close. Nothing here writes."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.db.models import F, Max, Q, QuerySet, Sum, Window

from . import badges, clock, rules
from . import header as kept
from .models import Account, BonusEvent, Entry, Look, Streak, StreakDay


def zone_of(user) -> ZoneInfo:
    """The player's time zone: their day (streaks, the daily cap) starts at midnight there."""
    try:
        return ZoneInfo(user.time_zone or "UTC")
    except (ValueError, KeyError):  # a zone tzdata no longer has
        return ZoneInfo("UTC")


# ---- weeks: ISO weeks from Monday 00:00 UTC ----------------------------------------------------

ONE_DAY = timedelta(days=1)
WEEK = timedelta(days=7)


def week_start(moment: datetime) -> datetime:
    day = moment.astimezone(UTC).date()
    return datetime.combine(day - timedelta(days=day.weekday()), time(), UTC)


def iso_week(day: date) -> str:
    """ "2025-W03": the ISO week a date falls in."""
    year, week, _ = day.isocalendar()
    return f"{year}-W{week:02d}"


def week_label(start: datetime) -> str:
    return iso_week(start.astimezone(UTC).date())


def week_from_label(label: str) -> datetime | None:
    """Monday 00:00 UTC of an ISO week written "2025-W03"; None if it is no such week."""
    found = re.fullmatch(r"(\d{4})-W(\d{2})", label)
    if not found:
        return None
    try:
        monday = date.fromisocalendar(int(found[1]), int(found[2]), 1)
    except ValueError:
        return None
    return datetime.combine(monday, time(), UTC)


def _earned(start: datetime, end: datetime) -> QuerySet:
    """Kudos from play per player between start and end, best first; ties go to whoever
    reached their total first."""
    return (
        Entry.objects.filter(kind__in=Entry.PLAY_KINDS, created__gte=start, created__lt=end)
        .values("user_id")
        .annotate(earned=Sum("amount"), reached=Max("created"))
        .order_by("-earned", "reached", "user_id")
    )


def standings(start: datetime, end: datetime, limit: int) -> list[dict]:
    """The top ``limit`` places: user_id, earned, reached."""
    return list(_earned(start, end)[:limit])


def week_players(start: datetime, end: datetime) -> int:
    return (
        Entry.objects.filter(kind__in=Entry.PLAY_KINDS, created__gte=start, created__lt=end)
        .values("user_id")
        .distinct()
        .count()
    )


def place_of(user_id: int, start: datetime, end: datetime) -> dict | None:
    """A player's Kudos from play in the week and their place; None if they earned none."""
    mine = Entry.objects.filter(
        user_id=user_id, kind__in=Entry.PLAY_KINDS, created__gte=start, created__lt=end
    ).aggregate(earned=Sum("amount"), reached=Max("created"))
    if not mine["earned"]:
        return None
    earned, reached = mine["earned"], mine["reached"]
    ahead = (
        _earned(start, end)
        .filter(
            Q(earned__gt=earned)
            | Q(earned=earned, reached__lt=reached)
            | Q(earned=earned, reached=reached, user_id__lt=user_id)
        )
        .count()
    )
    return {"earned": earned, "place": ahead + 1}


# ---- bonus events ----------------------------------------------------------------------------


def bonus_event_at(moment: datetime, kind: str) -> BonusEvent | None:
    """The event that multiplies a game of ``kind`` ending at ``moment``: the highest
    multiplier among those running (they don't stack)."""
    return (
        BonusEvent.objects.filter(starts__lte=moment, ends__gt=moment)
        .filter(Q(kind="") | Q(kind=kind))
        .order_by("-multiplier", "starts")
        .first()
    )


def bonus_events_running(moment: datetime) -> list[BonusEvent]:
    return list(
        BonusEvent.objects.filter(starts__lte=moment, ends__gt=moment).order_by("-multiplier")
    )


def bonus_events_coming(moment: datetime, limit: int = 5) -> list[BonusEvent]:
    return list(BonusEvent.objects.filter(starts__gt=moment).order_by("starts")[:limit])


# ---- a player's Kudos ---------------------------------------------------------------------------


# ---- levels and names ------------------------------------------------------------------------


def experience(user_ids) -> dict[int, int]:
    """Experience from counted play, per player (kudos.services.pay_for_game keeps it)."""
    return dict(Account.objects.filter(user_id__in=user_ids).values_list("user_id", "xp"))


def level(user_id: int, xp: int | None = None) -> dict:
    """A player's level, experience, and how far into the level they are (``xp`` when the
    caller has read it already)."""
    if xp is None:
        xp = experience([user_id]).get(user_id, 0)
    number = rules.level_of(xp)
    start, end = rules.level_start(number), rules.level_start(number + 1)
    return {
        "level": number,
        "xp": xp,
        "next_level": number + 1,
        "next": end,
        "percent": round(100 * (xp - start) / (end - start)),
    }


def name_tags(user_ids) -> dict[int, dict]:
    """What goes beside each player's name at a table: level and name colour."""
    ids = [i for i in set(user_ids) if i]
    if not ids:
        return {}
    xp = experience(ids)
    colours = dict(Look.objects.filter(user_id__in=ids).values_list("user_id", "colour"))
    return {i: {"level": rules.level_of(xp.get(i, 0)), "colour": colours.get(i, "")} for i in ids}


def header(user, news: str | None = None, badge: str = "", request=None) -> dict:
    """What the header's Kudos slot shows; on a page (``request``), from the facts kudos.header
    keeps between their changes."""
    if request is None:
        facts = header_facts(user.pk)
        event = next(iter(bonus_events_running(clock.now())), None)
    else:
        facts = kept.kept(request).get("kudos", lambda: header_facts(user.pk))
        event = kept.running_event(request, bonus_events_now)
    now = clock.now()
    last = facts["last_day"]
    return {
        "balance": facts["balance"],
        "streak": facts["streak"],
        "paid_today": last is not None and now.astimezone(UTC).date() <= last,
        "day_minutes": rules.DAY_PLAYED_MINUTES,
        "event": event,
        "news": news,
        "badge": _badge(badge),
        "level": level(user.pk, facts["xp"]),
        "colour": facts["colour"],
    }


def header_facts(user_id: int) -> dict:
    """The player's own facts in the header (kudos.header.changed says when they change)."""
    account = Account.objects.select_related("streak").filter(user_id=user_id).first()
    streak = _streak_of(account)
    return {
        "balance": account.balance if account else 0,
        "streak": streak.current if streak else 0,
        "last_day": streak.last_day if streak else None,
        "xp": account.xp if account else 0,
        "colour": name_colour(user_id),
    }


def bonus_events_now(moment: datetime) -> tuple[list[BonusEvent], datetime | None]:
    """The events running, best first, and when the next one starts (None: none planned)."""
    coming = BonusEvent.objects.filter(starts__gt=moment).order_by("starts")
    return bonus_events_running(moment), coming.values_list("starts", flat=True).first()


def _badge(slug: str):
    return badges.get(slug) if slug else None


def name_colour(user_id: int) -> str:
    return Look.objects.filter(user_id=user_id).values_list("colour", flat=True).first() or ""


def _streak_of(account: Account | None) -> Streak | None:
    if account is None:
        return None
    try:
        return account.streak
    except Streak.DoesNotExist:
        return None


def summary(user) -> dict:
    """The /kudos/ page's top: balance, streak, what's left of today's play and this week."""
    account = Account.objects.select_related("streak").filter(user_id=user.pk).first()
    streak = _streak_of(account)
    today = clock.now().astimezone(UTC).date()
    on_today = account is not None and account.play_day == today
    play_today = account.play_today if on_today else 0
    start = week_start(clock.now())
    return {
        "balance": account.balance if account else 0,
        "streak": streak,
        "next_reward": rules.streak_reward((streak.current if streak else 0) + 1),
        "grace_left": not streak or streak.grace_week != iso_week(today),
        "play_today": play_today,
        "play_left": max(rules.PLAY_DAILY_CAP - play_today, 0),
        "xp_today": account.xp_today if on_today else 0,
        "minutes_today": account.seconds_today // 60 if on_today else 0,
        "week": place_of(user.pk, start, start + WEEK),
        "days": StreakDay.objects.filter(user_id=user.pk)[:14],
    }


def balance(user_id: int) -> int:
    return Account.objects.filter(user_id=user_id).values_list("balance", flat=True).first() or 0


def history(user_id: int) -> QuerySet:
    return Entry.objects.filter(user_id=user_id).order_by("-id")


# ---- the audit (manage.py verify_ledger) -------------------------------------------------------


def audit(limit: int = 100) -> dict:
    """Check every player: balance = the sum of their entries, each entry's balance_after =
    the running sum up to it, nothing negative. Returns the problems found (at most ``limit``
    of each sort, as sentences) and totals."""
    problems: list[str] = []
    sums = dict(
        Entry.objects.order_by()
        .values("user_id")
        .annotate(total=Sum("amount"))
        .values_list("user_id", "total")
    )
    balances = dict(Account.objects.values_list("user_id", "balance"))
    for user_id in sorted(sums.keys() | balances.keys()):
        held, summed = balances.get(user_id), sums.get(user_id, 0)
        if held is None:
            problems.append(f"Player {user_id} has entries adding up to {summed} but no balance.")
        elif held != summed:
            problems.append(
                f"Player {user_id} holds {held} Kudos but their entries add up to {summed}."
            )
        elif held < 0:
            problems.append(f"Player {user_id} holds a negative balance: {held}.")
        if len(problems) >= limit:
            break
    broken = (
        Entry.objects.annotate(
            running=Window(Sum("amount"), partition_by=[F("user_id")], order_by=F("id").asc())
        )
        .exclude(running=F("balance_after"))
        .order_by("id")
        .values_list("id", "user_id", "balance_after", "running")[:limit]
    )
    for entry_id, user_id, after, running in broken:
        problems.append(
            f"Entry {entry_id} of player {user_id} says the balance became {after}, but the "
            f"entries up to it add up to {running}."
        )
    return {
        "problems": problems,
        "players": len(balances),
        "entries": Entry.objects.count(),
        "total": sum(balances.values()),
    }
