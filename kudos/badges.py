"""Milestone badges: the catalogue, what each one measures, and awarding them.

A badge is one entry of ``CATALOGUE``: a name, what earns it, its art (a creature of the deck
in a bronze, silver or gold ring), its reward in Kudos, and a measure of the player's stored
history with the goal it must reach (so a profile can show progress: 37 of 100 wins). A
measure is one small class below; adding a badge is one entry, plus a measure where none fits.

Awarding recomputes from what is stored (accounts' finished games and their facts, ratings,
streaks, Daily Challenge attempts), never from a running count, so it is the same whenever it
runs: after each game (the end-of-game hook), after a streak day pays, after a challenge ends,
or in ``manage.py award_badges`` (the backfill after a badge is added). Each award is a
credit with the key ``badge:<slug>:<user>`` and a ``BadgeEarned`` row in the same transaction:
once per player, whoever runs it and however often.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

from django.db import transaction
from django.db.models import F, IntegerField, Max, Sum
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast

from accounts import ratings
from accounts.models import GameRecord, GameStat, RatingChange

from . import services
from .models import Attempt, BadgeEarned, Entry, Streak

# What can move a measure: a finished game, the rating a ranked game brought, a streak day, a
# Daily Challenge attempt.
GAME, RATING, STREAK, CHALLENGE = "game", "rating", "streak", "challenge"
SOURCES = (GAME, RATING, STREAK, CHALLENGE)


class History:
    """One player's stored history, each question asked of the database once."""

    def __init__(self, user_id: int):
        self.user_id = user_id
        self._facts: dict[tuple[str, str, str], int] = {}

    @cached_property
    def stats(self) -> dict[str, tuple[int, int]]:
        rows = GameStat.objects.filter(user_id=self.user_id).values_list("kind", "played", "wins")
        return {kind: (played, wins) for kind, played, wins in rows}

    def played(self, kind: str = "") -> int:
        return sum(p for k, (p, _) in self.stats.items() if not kind or k == kind)

    def wins(self, kind: str = "") -> int:
        return sum(w for k, (_, w) in self.stats.items() if not kind or k == kind)

    def fact(self, kind: str, name: str, how: str) -> int:
        """The total ("sum") or the best ("max") of one fact over the finished games of a kind."""
        key = (kind, name, how)
        if key not in self._facts:
            value = Cast(KeyTextTransform(name, "facts"), IntegerField())
            found = GameRecord.objects.filter(user_id=self.user_id, kind=kind).aggregate(
                v=(Sum if how == "sum" else Max)(value)
            )["v"]
            self._facts[key] = found or 0
        return self._facts[key]

    def fast_wins(self, kind: str, seconds: int) -> int:
        return GameRecord.objects.filter(
            user_id=self.user_id, kind=kind, won=True, seconds__lt=seconds
        ).count()

    @cached_property
    def best_streak(self) -> int:
        best = Streak.objects.filter(account_id=self.user_id).values_list("best", flat=True)
        return best.first() or 0

    @cached_property
    def best_rating(self) -> int:
        """The best rating ever shown after a ranked game, at any game (0: never rated). The
        shown rating grows with mu - 3 sigma, so the best is the row where that is highest."""
        best = (
            RatingChange.objects.filter(user_id=self.user_id)
            .annotate(ordinal=F("mu") - 3 * F("sigma"))
            .order_by("-ordinal")
            .values_list("mu", "sigma")
            .first()
        )
        return ratings.shown(*best) if best else 0

    def challenges(self, won: bool) -> int:
        attempts = Attempt.objects.filter(user_id=self.user_id, finished__isnull=False)
        return attempts.filter(won=True).count() if won else attempts.count()


# ---- measures: what a badge counts ---------------------------------------------------------


@dataclass(frozen=True)
class Played:
    kind: str = ""  # "" for every game
    source = GAME

    def of(self, h: History) -> int:
        return h.played(self.kind)


@dataclass(frozen=True)
class Wins:
    kind: str = ""
    source = GAME

    def of(self, h: History) -> int:
        return h.wins(self.kind)


@dataclass(frozen=True)
class FactTotal:
    """A fact of the engine's ``facts`` added up over every finished game of the kind."""

    kind: str
    fact: str
    source = GAME

    def of(self, h: History) -> int:
        return h.fact(self.kind, self.fact, "sum")


@dataclass(frozen=True)
class FactBest:
    """The best value of a fact in any one finished game of the kind."""

    kind: str
    fact: str
    source = GAME

    def of(self, h: History) -> int:
        return h.fact(self.kind, self.fact, "max")


@dataclass(frozen=True)
class FastWins:
    """Wins of the kind in under ``seconds`` (the game's time, from start to end)."""

    kind: str
    seconds: int
    source = GAME

    def of(self, h: History) -> int:
        return h.fast_wins(self.kind, self.seconds)


@dataclass(frozen=True)
class StreakDays:
    """The longest daily streak so far."""

    kind = ""
    source = STREAK

    def of(self, h: History) -> int:
        return h.best_streak


@dataclass(frozen=True)
class RatingReached:
    """The best ranked rating so far, at any game (ratings move when ranked games end)."""

    kind = ""
    source = RATING

    def of(self, h: History) -> int:
        return h.best_rating


@dataclass(frozen=True)
class Challenges:
    """Daily Challenges finished (or won) within their day."""

    won: bool = False
    kind = ""
    source = CHALLENGE

    def of(self, h: History) -> int:
        return h.challenges(self.won)


# ---- the catalogue ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Badge:
    slug: str
    name: str
    about: str  # what earns it, as the profile says it
    reward: int  # Kudos
    measure: (
        Played | Wins | FactTotal | FactBest | FastWins | StreakDays | RatingReached | Challenges
    )
    goal: int
    card: str  # the creature on it
    ring: str  # bronze, silver, gold
    mark: str  # the word on its ribbon

    @property
    def kind(self) -> str:
        """The game it is about ("" for any)."""
        return self.measure.kind

    @property
    def counted(self) -> bool:
        """Whether the profile shows progress towards it (a goal of more than one)."""
        return self.goal > 1


def _first_win(kind: str, title: str, card: str) -> Badge:
    return Badge(
        f"first-win-{kind}",
        f"First win at {title}",
        f"Win a game of {title}.",
        15,
        Wins(kind),
        1,
        card,
        "bronze",
        "1st",
    )


CATALOGUE: tuple[Badge, ...] = (
    Badge("first-game", "First deal", "Finish your first game.", 10, Played(), 1, "2C", "bronze", "Hello"),
    Badge("wins-10", "Ten wins", "Win 10 games.", 25, Wins(), 10, "5H", "bronze", "10"),
    Badge("wins-100", "A hundred wins", "Win 100 games.", 100, Wins(), 100, "9D", "silver", "100"),
    Badge("wins-1000", "A thousand wins", "Win 1,000 games.", 500, Wins(), 1000, "KH", "gold", "1000"),
    Badge("streak-7", "A week of days", "Keep a daily streak for 7 days.", 50, StreakDays(), 7, "7S", "silver", "7 days"),
    Badge("streak-30", "A month of days", "Keep a daily streak for 30 days.", 200, StreakDays(), 30, "QS", "gold", "30 days"),
    Badge("rating-1600", "Rising star", "Reach a ranked rating of 1600 at any game.", 100, RatingReached(), 1600, "8S", "silver", "1600"),
    Badge("rating-1800", "Card shark", "Reach a ranked rating of 1800 at any game.", 300, RatingReached(), 1800, "KD", "gold", "1800"),
    Badge("challenge-win", "Daily champion", "Win a Daily Challenge.", 25, Challenges(won=True), 1, "JH", "silver", "Champion"),
    Badge("challenges-7", "Seven challenges", "Finish 7 Daily Challenges.", 50, Challenges(), 7, "6D", "silver", "7"),
    _first_win("klondike", "Klondike", "3S"),
    _first_win("war", "War", "4H"),
    _first_win("poker", "Poker", "JS"),
    _first_win("blackjack", "Blackjack", "10D"),
    _first_win("gin", "Gin Rummy", "4C"),
    _first_win("crazy8", "Crazy 8", "8H"),
    _first_win("american8", "8 Américain", "8D"),
    _first_win("gridcannon", "Gridcannon", "QC"),
    _first_win("cardice", "Cardice", "5B"),
    _first_win("thirteen", "Thirteen", "3D"),
    Badge("klondike-fast", "Three-minute Klondike", "Win a game of Klondike in under 3 minutes.", 75, FastWins("klondike", 180), 1, "9S", "gold", "< 3:00"),
    Badge("war-10", "War veteran", "Win 10 games of War.", 25, Wins("war"), 10, "KC", "bronze", "10"),
    Badge("poker-five", "Five of a kind", "Show five of a kind at a Poker showdown.", 100, FactTotal("poker", "five_of_a_kind"), 1, "QH", "gold", "5 of a kind"),
    Badge("poker-pot", "Big pot", "Win a Poker pot of 100 chips or more.", 50, FactBest("poker", "biggest_pot"), 100, "6H", "silver", "100"),
    Badge("blackjack-stack", "High roller", "End a Blackjack game with 200 chips or more.", 50, FactBest("blackjack", "chips"), 200, "JD", "silver", "200"),
    Badge("gin-gin", "Gin!", "Win a hand of Gin Rummy by going gin.", 25, FactTotal("gin", "gins"), 1, "6C", "bronze", "Gin"),
    Badge("gin-undercut", "Undercut", "Win a hand of Gin Rummy with an undercut.", 25, FactTotal("gin", "undercuts"), 1, "JC", "bronze", "Undercut"),
    Badge("gridcannon-royals", "Royal hunter", "Kill 100 royals at Gridcannon.", 50, FactTotal("gridcannon", "royals_killed"), 100, "KS", "silver", "100"),
    Badge("cardice-nil", "Made nil", "Bid nil at Cardice and take no trick.", 25, FactTotal("cardice", "made_nils"), 1, "9B", "bronze", "Nil"),
    Badge("crazy8-pass", "Pass it on", "Pass 10 draw cards on at Crazy 8.", 25, FactTotal("crazy8", "penalties_stacked"), 10, "2H", "bronze", "10"),
    Badge("american8-knock", "Knock knock", "Knock 10 times at 8 Américain.", 25, FactTotal("american8", "knocks"), 10, "7C", "bronze", "10"),
    Badge("thirteen-out", "Going out", "Go out first in 10 rounds of Thirteen.", 25, FactTotal("thirteen", "rounds_out"), 10, "10H", "bronze", "10"),
)  # fmt: skip
BY_SLUG = {badge.slug: badge for badge in CATALOGUE}


def get(slug: str) -> Badge | None:
    return BY_SLUG.get(slug)


# ---- awarding ------------------------------------------------------------------------------------


def award_due(
    user_id: int, sources: Iterable[str] = SOURCES, kind: str | None = None
) -> list[Badge]:
    """Award every badge the player's stored history has reached and they don't hold yet,
    among those ``sources`` can move (and, with ``kind``, those about that game or any game).
    Returns the badges this call awarded."""
    sources = set(sources)
    held = set(BadgeEarned.objects.filter(user_id=user_id).values_list("badge", flat=True))
    history = History(user_id)
    awarded = []
    for badge in CATALOGUE:
        if badge.slug in held or badge.measure.source not in sources:
            continue
        if kind is not None and badge.kind not in ("", kind):
            continue
        if badge.measure.of(history) >= badge.goal and award(user_id, badge):
            awarded.append(badge)
    return awarded


def award(user_id: int, badge: Badge) -> bool:
    """Pay the badge's reward and record it, once per player. Returns whether this call did."""
    with transaction.atomic():
        entry, created = services.credit(
            user_id=user_id,
            amount=badge.reward,
            kind=Entry.Kind.BADGE,
            key=f"badge:{badge.slug}:{user_id}",
            memo=f"Badge: {badge.name}",
            reference=f"badge:{badge.slug}",
            badge=badge.slug,
        )
        if created:
            BadgeEarned.objects.create(user_id=user_id, badge=badge.slug, earned=entry.created)
    return created


def progress(user_id: int) -> list[dict]:
    """Every badge of the catalogue for a profile: earned (when) or not, and how far along."""
    earned = dict(BadgeEarned.objects.filter(user_id=user_id).values_list("badge", "earned"))
    history = History(user_id)
    shown = []
    for badge in CATALOGUE:
        row = {"badge": badge, "earned": earned.get(badge.slug), "have": None}
        if row["earned"] is None and badge.counted:
            have = min(badge.measure.of(history), badge.goal)
            row["have"], row["percent"] = have, round(100 * have / badge.goal)
        shown.append(row)
    shown.sort(key=lambda r: r["earned"] is None)  # earned first, catalogue order kept
    return shown


def players_with_history() -> list[int]:
    """Everyone whose stored history could have earned a badge (for the backfill)."""
    ids = set(GameStat.objects.values_list("user_id", flat=True).distinct())
    ids |= set(Streak.objects.filter(best__gt=0).values_list("account_id", flat=True))
    ids |= set(Attempt.objects.values_list("user_id", flat=True).distinct())
    return sorted(ids)
