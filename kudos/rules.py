"""What Kudos pay and when: every schedule in one place. The /kudos/ page shows these tables
and docs/kudos.md states them; the services only read them from here."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

from django.utils.translation import gettext

# ---- daily streaks ------------------------------------------------------------------------
# A UTC day with DAY_PLAYED_MINUTES of credited play in counted games is a streak day: it pays
# once, as the game that reaches those minutes ends, day 1 10 Kudos, 5 more for each day in a
# row after that, up to 50 a day from day 9 on. The player's time zone only moves the display.
DAY_PLAYED_MINUTES = 5
STREAK_FIRST = 10
STREAK_STEP = 5
STREAK_CAP = 50
# A missed day is covered by the week's grace day (one per ISO week, Monday to Sunday, of the
# missed day, used automatically), then by a streak freeze if the player holds one; otherwise
# the streak ends. A covered day keeps the streak going but pays nothing and adds no day.
MAX_FREEZES = 2


def streak_reward(day: int) -> int:
    """Kudos for day ``day`` (1, 2, ...) of a streak."""
    return min(STREAK_FIRST + STREAK_STEP * (day - 1), STREAK_CAP)


# ---- accounts seen together ---------------------------------------------------------------
# Accounts seen on one address or device (accounts.sightings: sign-up, sign-in, sitting down at
# a table), each within SEEN_TOGETHER of a game's end, share the daily bonuses: each UTC day the
# streak day's Kudos and the first win of the day's double at each game go to the first of them
# to earn it; the others' streak days still count. Play pay, experience and badges stay each
# account's own.
SEEN_TOGETHER = timedelta(days=1)

# ---- Kudos from play ------------------------------------------------------------------------
# A counted game (gameplay.play) pays each person at the table by the minutes of play they were
# credited (each decision's thinking time, at most gameplay.play.THINK_CAP), at the table's
# rate per minute: (fewest seats, Kudos a minute). A win pays WIN_MULTIPLIER times that; a
# shared win is a win. What falls short of a whole Kudos is carried to the next game.
PLAY_PER_MINUTE = (
    (1, Decimal("1")),  # solo games
    (2, Decimal("1.5")),
    (3, Decimal("2")),
    (5, Decimal("2.5")),
)
WIN_MULTIPLIER = Decimal("1.5")
PLAY_DAILY_CAP = 200  # Kudos from play (bonuses included) per UTC day
FIRST_WIN_MULTIPLIER = 2  # the first win of the day at each game pays double

# ---- bonus events ---------------------------------------------------------------------------
# Staff schedule them in the admin: a multiplier for a time window, for every game or one.
# Overlapping events don't stack: the highest multiplier applies.
BONUS_MULTIPLIER_MIN = Decimal("1.1")
BONUS_MULTIPLIER_MAX = Decimal("5")

# ---- the weekly leaderboard -----------------------------------------------------------------
# Kudos from play (with their bonuses) earned in an ISO week, Monday 00:00 UTC to the next,
# rank the players; ties go to whoever reached the total first. The week is closed, and its
# prizes paid, a few minutes after it ends (so games that ended on the stroke of midnight
# count).
WEEKLY_PRIZES = (500, 300, 200, 100, 100, 100, 100, 100, 100, 100)  # 1st, 2nd, ... 10th
WEEK_CLOSES_AFTER = timedelta(minutes=5)
WEEKLY_SHOWN = 50  # places shown, and kept when a week closes


def play_rate(seats: int) -> Decimal:
    """Kudos a minute of play at a table of ``seats``."""
    return next(rate for least, rate in reversed(PLAY_PER_MINUTE) if seats >= least)


def hundredths(seconds: int, per_minute: Decimal, won: bool) -> int:
    """Hundredths of a Kudos (or of experience) for ``seconds`` of play at ``per_minute``."""
    return int(seconds * per_minute * (WIN_MULTIPLIER if won else 1) * 100 / 60)


def play_table() -> list[dict]:
    """The play table for pages: one row per table size, Kudos a minute played and won."""
    rows = []
    for i, (least, rate) in enumerate(PLAY_PER_MINUTE):
        most = PLAY_PER_MINUTE[i + 1][0] - 1 if i + 1 < len(PLAY_PER_MINUTE) else None
        if least == 1 and most == 1:
            label = gettext("Solo")
        elif most == least:
            label = gettext("%(least)s seats") % {"least": least}
        elif most is None:
            label = gettext("%(least)s+ seats") % {"least": least}
        else:
            label = gettext("%(least)s–%(most)s seats") % {"least": least, "most": most}
        rows.append(
            {"label": label, "finish": _number(rate), "win": _number(rate * WIN_MULTIPLIER)}
        )
    return rows


def _number(value: Decimal) -> str:
    return f"{value.normalize():f}"


def streak_table() -> list[dict]:
    """Day n → Kudos, up to the cap."""
    rows, day = [], 1
    while True:
        reward = streak_reward(day)
        rows.append({"day": day, "reward": reward, "onwards": reward == STREAK_CAP})
        if reward == STREAK_CAP:
            return rows
        day += 1


def prize_table() -> list[dict]:
    rows: list[dict] = []
    for place, prize in enumerate(WEEKLY_PRIZES, start=1):
        if rows and rows[-1]["prize"] == prize:
            rows[-1]["last"] = place
        else:
            rows.append({"first": place, "last": place, "prize": prize})
    return rows


# ---- badges ----------------------------------------------------------------------------------
# Each badge's reward is its entry in kudos/badges.py.

# ---- the Daily Challenge ---------------------------------------------------------------------
# Each UTC day the same deal of each challenge game (kudos/challenges.py) for everyone, one
# attempt each. An attempt counts if it ends before the day does; finishing pays, winning pays
# more, and when the day closes the ten fastest wins (then fewest moves) get a bonus.
CHALLENGE_FINISHED = 5
CHALLENGE_WON = 25
CHALLENGE_TOP = 10  # places that get the bonus
CHALLENGE_TOP_BONUS = 25
CHALLENGE_AHEAD = 2  # days chosen ahead (today and tomorrow)
CHALLENGE_CLOSES_AFTER = timedelta(minutes=5)

# ---- sponsor spots -----------------------------------------------------------------------------
# A short in-house spot a player chooses to watch: it pays when its token comes back after the
# spot's full length and before the token expires, once per token, a few times a UTC day, and
# only on a UTC day the player has played a counted game (watching is no play).
SPOT_SECONDS = 15
SPOT_PAY = 5
SPOTS_PER_DAY = 5
SPOT_TOKEN_LIFETIME = timedelta(minutes=10)

# ---- referrals ----------------------------------------------------------------------------------
# An invited player who has finished REFERRAL_GAMES games on at least REFERRAL_DAYS different
# days of the site's calendar (UTC: a far zone can't fit two of its days into minutes) pays
# both: the inviter at most REFERRAL_MONTHLY_CAP times a calendar month (UTC).
REFERRAL_GAMES = 3
REFERRAL_DAYS = 3
REFERRAL_INVITER = 100
REFERRAL_INVITEE = 50
REFERRAL_MONTHLY_CAP = 10

# ---- player level -------------------------------------------------------------------------------
# Experience comes from counted play only (never from Kudos): XP_PER_MINUTE for each minute of
# credited play, a win WIN_MULTIPLIER times that, at most XP_DAILY_CAP a UTC day. Level n
# starts at LEVEL_STEP * n * (n - 1) / 2 experience: 100 for level 2, 300 for 3, 600 for 4,
# 1,000 for 5.
XP_PER_MINUTE = Decimal("2")
XP_DAILY_CAP = 600
LEVEL_STEP = 100


def level_start(level: int) -> int:
    """The experience at which ``level`` (1, 2, ...) starts."""
    return LEVEL_STEP * level * (level - 1) // 2


def level_of(xp: int) -> int:
    level = 1
    while level_start(level + 1) <= xp:
        level += 1
    return level
