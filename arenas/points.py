"""How an arena game scores, by finishing place (lichess's arena points, for tables of two to
four): 1st 4, 2nd 2, 3rd 1, last 0. Places shared by a tie share their points (rounded down):
a drawn game of two scores 2 each. A table with computer players scores half (rounded down).
After two wins in a row a player is on fire: each result counts double until a game is not
won. Leaving mid-game scores 0, ends the streak and pauses the player. docs/arenas.md says the
same to players."""

from __future__ import annotations

from dataclasses import dataclass

PLACE_POINTS = (4, 2, 1)  # 1st, 2nd, 3rd; the last place never scores
ON_FIRE_AFTER = 2  # wins in a row before results count double


def for_place(place: int, players: int) -> int:
    """Points for a place (1-based) alone at a table of ``players``."""
    if place >= players or place > len(PLACE_POINTS):
        return 0
    return PLACE_POINTS[place - 1]


def for_ranks(ranks: list[int], players: int) -> list[tuple[int, int]]:
    """Each side's (place, points) from the sides' ranks (0 = first, equal ranks tie)."""
    scored = []
    for rank in ranks:
        place = 1 + sum(1 for r in ranks if r < rank)
        tied = sum(1 for r in ranks if r == rank)
        shared = sum(for_place(p, players) for p in range(place, place + tied)) // tied
        scored.append((place, shared))
    return scored


@dataclass(frozen=True)
class Scored:
    points: int
    doubled: bool
    won: bool
    streak: int  # wins in a row after this game


def score(*, base: int, won: bool, streak: int, computers: bool, abandoned: bool = False) -> Scored:
    """One result: ``base`` points for the place, ``streak`` the wins in a row before it."""
    if abandoned:
        return Scored(0, False, False, 0)
    points = base // 2 if computers else base
    doubled = streak >= ON_FIRE_AFTER
    if doubled:
        points *= 2
    return Scored(points, doubled, won, streak + 1 if won else 0)
