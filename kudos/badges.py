"""Milestone badges: the catalogue and what each one measures.

A badge is one entry of ``CATALOGUE``: a name, what earns it, its art (a creature of the deck
in a bronze, silver or gold ring), its reward in Kudos, and a measure of the player's stored
history with the goal it must reach (so a profile can show progress: 37 of 100 wins). The
site's own badges are listed here; each game's first win and its own badges come from its
engine (``first_win_card``, ``milestones``), so a new game brings its badges with it. A measure
is one small class below. Paying them is kudos.awards'.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from django.db.models import F, IntegerField, Max, Sum
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast
from django.utils.functional import lazy
from django.utils.text import format_lazy
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from accounts import ratings
from accounts.models import GameRecord, GameStat, RatingChange
from gameplay.engine import registry
from gameplay.text import in_language

from .models import Attempt, BadgeEarned, Entry, Streak

# What can move a measure: a finished game, the rating a ranked game brought, a streak day, a
# Daily Challenge attempt, an arena's prizes.
GAME, RATING, STREAK, CHALLENGE, ARENA = "game", "rating", "streak", "challenge", "arena"
SOURCES = (GAME, RATING, STREAK, CHALLENGE, ARENA)
# An arena prize's reference (kudos.keys.arena_place) for one of the first three places.
PODIUM_PRIZE = r"^arena:[0-9]+:place:[123]$"


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

    @cached_property
    def arena_podiums(self) -> int:
        return Entry.objects.filter(
            user_id=self.user_id, key__startswith="arena:", reference__regex=PODIUM_PRIZE
        ).count()

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


@dataclass(frozen=True)
class ArenaPodiums:
    """Arenas finished on the podium: a prize for one of the first three places."""

    kind = ""
    source = ARENA

    def of(self, h: History) -> int:
        return h.arena_podiums


# ---- the catalogue ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Badge:
    slug: str
    name: str  # lazily translated, as is about
    about: str  # what earns it, as the profile says it
    reward: int  # Kudos
    measure: (
        Played
        | Wins
        | FactTotal
        | FactBest
        | FastWins
        | StreakDays
        | RatingReached
        | Challenges
        | ArenaPodiums
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


# An engine's sentence (a game's title) in the language of the moment it is read.
_said = lazy(lambda text: in_language(text, get_language() or "en"), str)


def _first_win(engine) -> Badge:
    title = engine.title
    return Badge(
        f"first-win-{engine.kind}",
        format_lazy(_("First win at {title}"), title=_said(title)),
        format_lazy(_("Win a game of {title}."), title=_said(title)),
        15,
        Wins(engine.kind),
        1,
        engine.first_win_card,
        "bronze",
        "1st",
    )


def _measure(kind: str, milestone):
    """What a game's own badge (its engine's ``milestones``) counts."""
    return {
        "wins": lambda m: Wins(kind),
        "fact_total": lambda m: FactTotal(kind, m.fact),
        "fact_best": lambda m: FactBest(kind, m.fact),
        "fast_wins": lambda m: FastWins(kind, m.seconds),
    }[milestone.counts](milestone)


def _game_badges() -> tuple[Badge, ...]:
    """Each game's first win, then each game's own badges, as its engine declares them."""
    engines = [registry.get(kind) for kind in registry.kinds()]
    first_wins = [_first_win(e) for e in engines if e.first_win_card]
    own = [
        Badge(
            m.slug, m.name, m.about, m.reward, _measure(e.kind, m), m.goal, m.card, m.ring, m.mark
        )
        for e in engines
        for m in e.milestones
    ]
    return (*first_wins, *own)


CATALOGUE: tuple[Badge, ...] = (
    Badge("first-game", _("First deal"), _("Finish your first game."), 10, Played(), 1, "2C", "bronze", "Hello"),
    Badge("wins-10", _("Ten wins"), _("Win 10 games."), 25, Wins(), 10, "5H", "bronze", "10"),
    Badge("wins-100", _("A hundred wins"), _("Win 100 games."), 100, Wins(), 100, "9D", "silver", "100"),
    Badge("wins-1000", _("A thousand wins"), _("Win 1,000 games."), 500, Wins(), 1000, "KH", "gold", "1000"),
    Badge("streak-7", _("A week of days"), _("Keep a daily streak for 7 days."), 50, StreakDays(), 7, "7S", "silver", "7 days"),
    Badge("streak-30", _("A month of days"), _("Keep a daily streak for 30 days."), 200, StreakDays(), 30, "QS", "gold", "30 days"),
    Badge("rating-1600", _("Rising star"), _("Reach a ranked rating of 1600 at any game."), 100, RatingReached(), 1600, "8S", "silver", "1600"),
    Badge("rating-1800", _("Card shark"), _("Reach a ranked rating of 1800 at any game."), 300, RatingReached(), 1800, "KD", "gold", "1800"),
    Badge("challenge-win", _("Daily champion"), _("Win a Daily Challenge."), 25, Challenges(won=True), 1, "JH", "silver", "Champion"),
    Badge("challenges-7", _("Seven challenges"), _("Finish 7 Daily Challenges."), 50, Challenges(), 7, "6D", "silver", "7"),
    Badge("arena-podium", _("On the podium"), _("Take a prize for a top-three place in an arena."), 50, ArenaPodiums(), 1, "QD", "silver", "Podium"),
    *_game_badges(),
)  # fmt: skip
BY_SLUG = {badge.slug: badge for badge in CATALOGUE}


def get(slug: str) -> Badge | None:
    return BY_SLUG.get(slug)


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
    ids |= set(
        Entry.objects.filter(key__startswith="arena:").values_list("user_id", flat=True).distinct()
    )
    return sorted(ids)
