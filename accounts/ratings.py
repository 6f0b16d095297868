"""Ratings for ranked games: openskill's Plackett-Luce model, one rating per player per game.

A rating is a belief about skill: ``mu`` (the estimate) and ``sigma`` (how unsure it is). Each
ranked game that ends updates its players once, from the engine's ``ranking`` (tied seats share
a place; partners, ``engine.teams``, are rated as one team; a person who left is ranked last).
Each strength of each game is a rated player too (accounts.computers): it starts from the
game's ladder with a modest sigma and moves with its results. Several seats of one strength at
a table are rated as separate players and its one update is their average, so a table of three
Hard computers counts as one game for Hard, not three.

Shown ratings are conservative: ``1500 + 30 · (mu − 3·sigma)``, so a newcomer starts at 1500
and a rating climbs as the model grows sure of it; it is provisional while sigma is above
``PROVISIONAL_SIGMA`` (about 9 two-player or 13 four-player games).

Rated games are applied in the order they ended. If a game is rated after a later one (its
hook was retried after a failure), every rated game that depends on it (shares a player, or a
player of a game that does) is rated again in order: the ratings are a function of the games,
never of the order their hooks ran.
"""

from __future__ import annotations

import logging
import random
import zlib
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.db.models import Q
from openskill.models import PlackettLuce

from gameplay.engine import registry
from gameplay.models import Game

from . import computers
from .models import Rating, RatingChange, User

log = logging.getLogger(__name__)

# mu 25, sigma 25/3: the model's own defaults. Sigma never grows from a game (limit_sigma):
# otherwise the small drift openskill adds (tau) can take a point off a settled player who
# wins, and a winner's shown rating must never fall.
MODEL = PlackettLuce(limit_sigma=True)
DISPLAY_BASE = 1500
DISPLAY_SCALE = 30  # shown points per unit of mu: 200 points ≈ a 3-to-1 favourite heads-up
PROVISIONAL_SIGMA = 6.5

# How unsure the ratings start about a computer player: its ladder figure is measured, not
# guessed, but against computers, not people.
COMPUTER_SIGMA = 4.0


@dataclass
class Skill:
    mu: float
    sigma: float
    games: int = 0

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


def fresh() -> Skill:
    rating = MODEL.rating()
    return Skill(rating.mu, rating.sigma)


def computer_start(kind: str, strength: str) -> Skill:
    """Where a strength starts at a game: its ladder points as the estimate (shown_skill)."""
    points = computers.start_points(kind, strength)
    return Skill(MODEL.mu + (points - DISPLAY_BASE) / DISPLAY_SCALE, COMPUTER_SIGMA)


def initial(user_id: int, kind: str) -> Skill:
    """A player's skill before their first rated game: a newcomer's, or a computer's start."""
    strength = computers.strength_of(user_id)
    return computer_start(kind, strength) if strength else fresh()


def shown(mu: float, sigma: float) -> int:
    """The rating people see: conservative, 1500 for a newcomer."""
    return round(MODEL.rating(mu=mu, sigma=sigma).ordinal(alpha=DISPLAY_SCALE, target=DISPLAY_BASE))


def shown_skill(mu: float) -> int:
    """The estimate itself on the shown scale (no uncertainty taken off): what the matchmaker
    compares, so a newcomer is matched at an average player's level."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - MODEL.mu))


def nearest_strength(kind: str, skill: float) -> str:
    """The game's strength whose rating estimate (shown points) is nearest ``skill``: the
    computer player a ranked table of people at that level is filled with."""
    strengths = registry.get(kind).strengths
    ids = {computers.account_id(s): s for s in strengths}
    rated = {
        ids[r.user_id]: shown_skill(r.mu) for r in Rating.objects.filter(kind=kind, user_id__in=ids)
    }
    levels = {s: rated.get(s, computers.start_points(kind, s)) for s in strengths}
    return computers.nearest(levels, skill, random.SystemRandom())


def provisional(sigma: float) -> bool:
    return sigma > PROVISIONAL_SIGMA


def skill_of(user, kind: str) -> Skill:
    rating = Rating.objects.filter(user=user, kind=kind).first()
    return Skill(rating.mu, rating.sigma, rating.games) if rating else fresh()


# ---- who finished where ----------------------------------------------------------------------


def sides(game: Game) -> list[tuple[list[int], int]]:
    """The game's sides with their finishing rank (0 = first; equal ranks tie): the engine's
    ``ranking`` groups, people who left moved below everyone, partners kept together."""
    engine = registry.get(game.kind)
    players = len(game.seats)
    left = {s for s, seat in enumerate(game.seats) if seat.get("left")}
    rank: dict[int, int] = {}
    groups = [[s for s in group if s not in left] for group in game.result.get("ranking", [])]
    for index, group in enumerate(g for g in groups if g):
        for seat in group:
            rank.setdefault(seat, index)
    last = max(rank.values(), default=-1) + 1
    for seat in range(players):
        if seat not in rank:  # left, or missing from the ranking: last together
            rank[seat] = last
    # A side finishes where its worst seat does: a partner who left sinks the team.
    return [
        (team, max(rank[s] for s in team)) for team in engine.teams(game.rules, players) if team
    ]


def places(ranks: list[int]) -> list[int]:
    """1-based places for ranks, tied sides sharing one: ranks [0, 1, 1, 2] → 1, 2, 2, 4."""
    return [1 + sum(1 for other in ranks if other < r) for r in ranks]


# ---- rating games ----------------------------------------------------------------------------


def rate_game(game: Game) -> int:
    """Rate one ended ranked game (the "ratings" end-of-game receiver; runs in a transaction).
    Returns the number of players rated, 0 if the game is not rated or already was."""
    if not rateable(game):
        return 0
    _lock_kind(game.kind)
    if RatingChange.objects.filter(game=game).exists():
        return 0
    later = (
        RatingChange.objects.filter(kind=game.kind)
        .filter(Q(ended__gt=game.ended) | Q(ended=game.ended, game_id__gt=game.pk))
        .order_by("ended", "game_id")
        .values_list("game_id", "user_id")
    )
    users = set(_players(game))
    replay: list[int] = []
    by_game: dict[int, set[int]] = {}
    for game_id, user_id in later:
        by_game.setdefault(game_id, set()).add(user_id)
    for game_id, players in by_game.items():  # in the order the games ended
        if players & users:
            replay.append(game_id)
            users |= players
    if replay:
        log.info("game %s rated late: rating %s later games again", game.pk, len(replay))
        skills = {u: _skill_kept(u, game.kind, replay) for u in users}
        RatingChange.objects.filter(game_id__in=replay).delete()
    else:
        skills = _current(users, game.kind)
    games = [game] + list(Game.objects.filter(pk__in=replay).order_by("ended", "pk"))
    return _apply(games, skills, game.kind)


def recompute(kind: str) -> int:
    """Rate every ended ranked game of ``kind`` again from scratch, in the order they ended
    (after a change to the model). Returns the number of games rated."""
    with transaction.atomic():
        _lock_kind(kind)
        RatingChange.objects.filter(kind=kind).delete()
        Rating.objects.filter(kind=kind).delete()
        games = [
            g
            for g in Game.objects.filter(kind=kind, ranked=True, status=Game.Status.OVER)
            .exclude(ended=None)
            .order_by("ended", "pk")
            if rateable(g)
        ]
        _apply(games, {}, kind)
    return len(games)


def rateable(game: Game) -> bool:
    if not game.ranked or game.status != Game.Status.OVER or not game.result or not game.ended:
        return False
    try:
        return registry.get(game.kind).rated
    except KeyError:
        return False


def _seat_players(game: Game) -> list[int]:
    """Who each seat is to the ratings: its person (also after leaving), or the account of
    the computer player's strength."""
    return [
        s.get("user_id") or computers.account_id(computers.seat_strength(s)) for s in game.seats
    ]


def _players(game: Game) -> set[int]:
    return set(_seat_players(game))


def _apply(games: list[Game], skills: dict[int, Skill], kind: str) -> int:
    """Rate ``games`` in order, starting from ``skills`` (players missing start fresh), and
    write the history rows and the players' ratings."""
    ids = {u for g in games for u in _players(g)}
    existing = set(User.objects.filter(pk__in=ids).values_list("pk", flat=True))
    changes = []
    touched: dict[int, datetime] = {}
    for game in games:
        for change in _rate_one(game, skills, existing):
            changes.append(change)
            touched[change.user_id] = game.ended
    RatingChange.objects.bulk_create(changes)
    Rating.objects.bulk_create(
        [
            Rating(
                user_id=user_id,
                kind=kind,
                mu=skills[user_id].mu,
                sigma=skills[user_id].sigma,
                ordinal=skills[user_id].ordinal,
                games=skills[user_id].games,
                updated=ended,
            )
            for user_id, ended in sorted(touched.items())  # rows locked in key order
        ],
        update_conflicts=True,
        unique_fields=["user", "kind"],
        update_fields=["mu", "sigma", "ordinal", "games", "updated"],
    )
    return len(changes)


def rate_sides(
    sides: list[list[int]], ranks: list[int], skills: dict[int, Skill]
) -> dict[int, Skill]:
    """One game's update, without the database: each side's players (ids, a side per team)
    finished at ``ranks``; returns every player's new skill. A player who holds several seats
    (a computer player of one strength) is rated at each as a separate player from the same
    skill, and its one update is their average: one game, however many seats it had."""
    teams = [[MODEL.rating(mu=skills[p].mu, sigma=skills[p].sigma) for p in side] for side in sides]
    rated = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    seen: dict[int, list[Any]] = {}
    for side, new_side in zip(sides, rated, strict=True):
        for player, new in zip(side, new_side, strict=True):
            seen.setdefault(player, []).append(new)
    return {
        player: Skill(
            sum(n.mu for n in news) / len(news),
            sum(n.sigma for n in news) / len(news),
            skills[player].games + 1,
        )
        for player, news in seen.items()
    }


def _rate_one(game: Game, skills: dict[int, Skill], existing: set[int]) -> list[RatingChange]:
    seats = game.seats
    people = [s.get("user_id") for s in seats]
    if len({u for u in people if u}) != len([u for u in people if u]):
        log.warning("game %s seats one person twice: not rated", game.pk)
        return []
    ranked_sides = sides(game)
    if len(ranked_sides) < 2:
        return []
    players = _seat_players(game)
    for user_id in set(players) & existing:
        if user_id not in skills:
            skills[user_id] = initial(user_id, game.kind)
    # A deleted account's seat is rated as a newcomer's, never kept: a player of its own.
    gone = {seat: -1 - seat for seat, user_id in enumerate(players) if user_id not in existing}
    start = {**skills, **{key: fresh() for key in gone.values()}}
    who = [gone.get(seat, user_id) for seat, user_id in enumerate(players)]
    after = rate_sides(
        [[who[s] for s in team] for team, _ in ranked_sides],
        [rank for _, rank in ranked_sides],
        start,
    )
    place: dict[int, int] = {}
    for (team, _), at in zip(ranked_sides, places([r for _, r in ranked_sides]), strict=True):
        for seat in team:
            place[who[seat]] = min(place.get(who[seat], at), at)
    changes = []
    for seat, user_id in enumerate(who):
        if user_id not in existing or any(c.user_id == user_id for c in changes):
            continue  # gone, or a computer's seat already counted
        before, new = skills[user_id], after[user_id]
        changes.append(
            RatingChange(
                user_id=user_id,
                game_id=game.pk,
                kind=game.kind,
                ended=game.ended,
                place=place[user_id],
                left=bool(seats[seat].get("left")),
                mu_before=before.mu,
                sigma_before=before.sigma,
                mu=new.mu,
                sigma=new.sigma,
            )
        )
        skills[user_id] = new
    return changes


def _current(users: set[int], kind: str) -> dict[int, Skill]:
    return {
        r.user_id: Skill(r.mu, r.sigma, r.games)
        for r in Rating.objects.filter(kind=kind, user_id__in=users)
    }


def _skill_kept(user_id: int, kind: str, replay: list[int]) -> Skill:
    """A player's rating after their games that are not rated again: those all came before
    their first game that is (any later game of theirs depends on it, so it is rated again)."""
    kept = RatingChange.objects.filter(user_id=user_id, kind=kind).exclude(game_id__in=replay)
    last = kept.order_by("-ended", "-game_id").first()
    if last is None:
        return initial(user_id, kind)
    return Skill(last.mu, last.sigma, kept.count())


def _lock_kind(kind: str) -> None:
    """One rater per game at a time (until the transaction ends), so two workers never
    interleave the ratings of one game. SQLite (embedded) has one writer anyway."""
    if connection.vendor == "postgresql":
        key = zlib.crc32(f"ratings:{kind}".encode()) - 2**31  # PostgreSQL's signed bigint
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])
