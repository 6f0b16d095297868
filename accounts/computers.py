"""The site's computer players as accounts: one per strength ("Computer-Hard"), role COMPUTER.

A computer player's seat records its strength, not an account (``seat_strength``): the games,
Kudos and stats know it as a computer seat. The ratings rate each strength of each rated game
as a player of its own, under that strength's account, starting from the game's ladder
(``Engine.ladder``, else ``DEFAULT_LADDER``) and moving with its results against people.
"""

from __future__ import annotations

import random

from django.contrib.auth.hashers import make_password

from gameplay.engine import MEDIUM, STRENGTHS, registry
from gameplay.models import is_computer_seat, seat_strength

from .models import User

__all__ = [
    "DEFAULT_LADDER",
    "account_id",
    "ensure_accounts",
    "is_computer_seat",
    "nearest",
    "seat_strength",
    "start_points",
    "strength_of",
    "username",
]

# Where a strength starts, in shown points of its estimate (accounts.ratings.shown_skill: a
# newcomer's estimate is 1500), for a game whose ladder doesn't say. Medium is the computer
# player the site had before strengths, which rated as an average player.
DEFAULT_LADDER = {"easy": 1300, "medium": 1500, "hard": 1650, "expert": 1800}

TIE = 25  # shown points: strengths nearer each other than this are as near as each other

_ids: dict[str, int] = {}


def username(strength: str) -> str:
    return f"Computer-{strength.title()}"


def account_id(strength: str) -> int:
    """The account that stands for ``strength`` in the ratings (created if it is missing)."""
    if strength not in STRENGTHS:
        strength = MEDIUM
    if strength not in _ids:
        user, _ = User.objects.get_or_create(
            username=username(strength),
            defaults={"role": User.COMPUTER, "password": make_password(None)},
        )
        _ids[strength] = user.pk
    return _ids[strength]


def strength_of(user_id: int | None) -> str | None:
    """The strength a computer account stands for; None for anyone else."""
    for strength in STRENGTHS:
        if account_id(strength) == user_id:
            return strength
    return None


def ensure_accounts(**kwargs) -> None:
    """After migrate (and after a test flushes the tables): the accounts exist, and the
    cache holds their ids, not those of rows that are gone."""
    _ids.clear()
    for strength in STRENGTHS:
        account_id(strength)


def start_points(kind: str, strength: str) -> int:
    """Where ``strength`` starts at ``kind``, in shown points of its estimate."""
    ladder = registry.get(kind).ladder
    return ladder.get(strength, DEFAULT_LADDER.get(strength, DEFAULT_LADDER[MEDIUM]))


def nearest(levels: dict[str, float], skill: float, rng: random.Random | None = None) -> str:
    """The strength whose level is nearest ``skill``. Strengths as near as it, give or take
    ``TIE`` points, are drawn from with ``rng`` (the weakest of them without one): strengths
    the ladder can't tell apart all get games, so their ratings can part."""
    best = min(abs(level - skill) for level in levels.values())
    near = sorted(
        (s for s, level in levels.items() if abs(level - skill) <= best + TIE), key=STRENGTHS.index
    )
    return rng.choice(near) if rng else near[0]
