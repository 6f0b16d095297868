"""What profiles and leaderboards read: ratings, streaks, records, recent games.

Nothing here names a game: titles and records come from the engines (``registry``), records
are each engine's ``Record`` list applied to the per-seat facts kept with every finished game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.db.models import Count, IntegerField, Max, Min, Q, QuerySet, Sum
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast
from django.utils import timezone

from gameplay import archive, play
from gameplay.engine import registry

from . import computers, ratings
from .models import Rating, RatingChange, User

ACTIVE_DAYS = 30  # leaderboards list players with a rated game this recent


def title(kind: str) -> str:
    try:
        return registry.get(kind).title
    except KeyError:
        return kind


# ---- profiles ----------------------------------------------------------------------------------


@dataclass
class GameSummary:
    """One game on a profile: the player's record at it."""

    kind: str
    title: str
    played: int = 0
    wins: int = 0
    best_seconds: int | None = None
    fewest_moves: int | None = None
    streak: int = 0
    best_streak: int = 0
    records: list[dict[str, Any]] = field(default_factory=list)
    rating: dict[str, Any] | None = None

    @property
    def win_rate(self) -> int | None:
        return round(100 * self.wins / self.played) if self.played else None


def profile_games(person: User) -> list[GameSummary]:
    """Each game the person has finished or been rated at, most played first."""
    games: dict[str, GameSummary] = {}
    for stat in person.stats.all():
        games[stat.kind] = GameSummary(
            kind=stat.kind,
            title=title(stat.kind),
            played=stat.played,
            wins=stat.wins,
            best_seconds=stat.best_seconds,
            fewest_moves=stat.fewest_moves,
        )
    for kind, streak, best in win_streaks(person):
        if kind in games:
            games[kind].streak, games[kind].best_streak = streak, best
    for kind, found in records(person).items():
        if kind in games:
            games[kind].records = found
    for rating in person.ratings.all():
        summary = games.setdefault(rating.kind, GameSummary(rating.kind, title(rating.kind)))
        summary.rating = {
            "shown": ratings.shown(rating.mu, rating.sigma),
            "provisional": ratings.provisional(rating.sigma),
            "games": rating.games,
            "place": leaderboard_place(rating),
        }
    return sorted(games.values(), key=lambda g: (-(g.rating is not None), -g.played, g.title))


def win_streaks(person: User) -> list[tuple[str, int, int]]:
    """(kind, current win streak, best win streak) per game, over the finished games."""
    runs: dict[str, list[int]] = {}
    for kind, won in person.history.order_by("ended", "pk").values_list("kind", "won"):
        current, best = runs.setdefault(kind, [0, 0])
        current = current + 1 if won else 0
        runs[kind] = [current, max(best, current)]
    return [(kind, current, best) for kind, (current, best) in runs.items()]


def records(person: User) -> dict[str, list[dict[str, Any]]]:
    """Each game's records (``Engine.records``) over the facts of the person's finished games:
    the biggest, the smallest or the total of one fact. Games without that fact don't count."""
    found: dict[str, list[dict[str, Any]]] = {}
    kinds = set(person.history.values_list("kind", flat=True).distinct())
    aggregate = {"max": Max, "min": Min, "sum": Sum}
    for kind in sorted(kinds):
        try:
            wanted = registry.get(kind).records
        except KeyError:
            continue
        if not wanted:
            continue
        rows = person.history.filter(kind=kind)
        values = rows.aggregate(
            **{
                f"r{i}": aggregate[record.best](
                    Cast(KeyTextTransform(record.fact, "facts"), IntegerField())
                )
                for i, record in enumerate(wanted)
            }
        )
        found[kind] = [
            {"label": record.label, "value": values[f"r{i}"], "fact": record.fact}
            for i, record in enumerate(wanted)
            if values[f"r{i}"] is not None
        ]
    return found


def rating_history(person: User, kind: str) -> list[tuple[Any, int]]:
    """(when, shown rating) after each rated game, starting from the rating before the first."""
    changes = list(
        RatingChange.objects.filter(user=person, kind=kind)
        .order_by("ended", "game_id")
        .values_list("ended", "mu_before", "sigma_before", "mu", "sigma")
    )
    if not changes:
        return []
    first = changes[0]
    points = [(first[0], ratings.shown(first[1], first[2]))]
    points += [(ended, ratings.shown(mu, sigma)) for ended, _, _, mu, sigma in changes]
    return points


def recent_games(person: User, limit: int = 15) -> list[dict[str, Any]]:
    """The latest finished games, with the rating change of ranked ones: the counted games
    (``GameRecord``) and the rated games that didn't count (left or resigned before playing:
    rated as a loss, so they are shown, marked, beside the rating they moved)."""
    counted = list(person.history.order_by("-ended", "-pk")[:limit])
    uncounted = list(
        RatingChange.objects.filter(user=person)
        .exclude(game_id__in=person.history.values("game_id"))
        .select_related("game")
        .order_by("-ended", "-game_id")[:limit]
    )
    changes = {
        c.game_id: c
        for c in RatingChange.objects.filter(user=person, game_id__in=[r.game_id for r in counted])
    }
    rows = [
        _recent(row.game_id, row.kind, row.won, row.moves, row.seconds, row.ended)
        | {"change": changes.get(row.game_id)}
        for row in counted
    ]
    for change in uncounted:
        game = change.game
        seat = next((i for i, s in enumerate(game.seats) if s.get("user_id") == person.pk), None)
        won = seat in set((game.result or {}).get("winners") or [])
        # A seat left early is rated at once, while the others may still be playing.
        seconds = max(int(((game.ended or change.ended) - game.created).total_seconds()), 0)
        rows.append(
            _recent(game.pk, game.kind, won, game.seq, seconds, change.ended)
            | {"change": change, "counted": False, "resigned": _resigned(game, seat)}
        )
    rows.sort(key=lambda r: (r["ended"], r["game_id"]), reverse=True)
    for row in rows[:limit]:
        change = row["change"]
        if change is not None:
            row["delta"] = ratings.shown(change.mu, change.sigma) - ratings.shown(
                change.mu_before, change.sigma_before
            )
    return rows[:limit]


def _recent(game_id: int, kind: str, won: bool, moves: int, seconds: int, ended) -> dict:
    return {
        "game_id": game_id,
        "title": title(kind),
        "won": won,
        "moves": moves,
        "seconds": seconds,
        "ended": ended,
        "counted": True,
        "resigned": False,
        "delta": None,
    }


def _resigned(game, seat: int | None) -> bool:
    """Whether the seat's own last move was a resign (read from the log, archived or not)."""
    return seat is not None and any(
        e.seat == seat and not e.by_bot and e.action.get("type") in play.NOT_DECISIONS
        for e in archive.entries(game)
    )


# ---- leaderboards ------------------------------------------------------------------------------


def board(kind: str, now=None, role: str = User.PERSON) -> QuerySet[Rating]:
    """The leaderboard: settled ratings (not provisional) with a rated game in the last 30
    days, best conservative rating first; people's, or (``role=User.BOT``) the bots'. Computer
    players are listed apart (``computer_ratings``)."""
    now = now or timezone.now()
    return (
        Rating.objects.filter(
            kind=kind,
            user__role=role,
            user__is_active=True,  # an erased account leaves the boards
            sigma__lte=ratings.PROVISIONAL_SIGMA,
            updated__gte=now - timedelta(days=ACTIVE_DAYS),
        )
        .select_related("user")
        .order_by("-ordinal", "user_id")
    )


def leaderboard_place(rating: Rating, now=None) -> int | None:
    """The rating's place on its leaderboard (1 = top), None if it is not listed (a computer
    player's: they are shown apart, never placed)."""
    if rating.user.role == User.COMPUTER:
        return None
    listed = board(rating.kind, now, rating.user.role)
    if not listed.filter(pk=rating.pk).exists():
        return None
    ahead = listed.filter(
        Q(ordinal__gt=rating.ordinal) | Q(ordinal=rating.ordinal, user_id__lt=rating.user_id)
    )
    return ahead.count() + 1


def board_sizes(kinds: list[str], now=None) -> dict[str, int]:
    now = now or timezone.now()
    counts = (
        Rating.objects.filter(
            kind__in=kinds,
            user__role=User.PERSON,
            user__is_active=True,
            sigma__lte=ratings.PROVISIONAL_SIGMA,
            updated__gte=now - timedelta(days=ACTIVE_DAYS),
        )
        .values("kind")
        .annotate(n=Count("pk"))
    )
    return {row["kind"]: row["n"] for row in counts}


def computer_ratings(kind: str) -> list[dict[str, Any]]:
    """The game's computer players, weakest first, for reference beside the leaderboard:
    each strength's rating now (or where it starts, before its first rated game)."""
    rows = []
    for strength in registry.get(kind).strengths:
        user_id = computers.account_id(strength)
        rating = Rating.objects.filter(user_id=user_id, kind=kind).first()
        skill = (
            ratings.Skill(rating.mu, rating.sigma, rating.games)
            if rating
            else ratings.computer_start(kind, strength)
        )
        rows.append(
            {
                "strength": strength,
                "name": computers.username(strength),
                "shown": ratings.shown(skill.mu, skill.sigma),
                "estimate": ratings.shown_skill(skill.mu),
                "games": skill.games,
            }
        )
    return rows


def bot_accounts(user_ids) -> set[int]:
    """Which of these accounts are bot accounts (marked BOT beside their names)."""
    ids = [i for i in set(user_ids) if i]
    if not ids:
        return set()
    return set(User.objects.filter(pk__in=ids, role=User.BOT).values_list("pk", flat=True))
