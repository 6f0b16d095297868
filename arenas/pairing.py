"""Who plays whom: the arena's free players, seated as soon as there are enough of them.

Oldest waiting first, each free player anchors a table of the free players nearest to them in
arena points, then rating (``distance``), leaving out anyone who was at their last table (no
immediate rematch). A full table sits down at once. Once the anchor has waited ``fill_after``
seconds, rematches are allowed and the table sits down with whoever is free (enough people for
the game: no computers); a player still alone then gets computer players in the empty seats."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

POINT_WEIGHT = 50  # rating points one arena point is worth when choosing the nearest


@dataclass(frozen=True)
class Free:
    id: int  # the entrant
    user_id: int
    points: int
    skill: int
    since: datetime
    last: frozenset[int] = field(default_factory=frozenset)  # user ids of their last table


@dataclass(frozen=True)
class Table:
    people: list[Free]
    computers: bool  # fill the empty seats with computer players


def distance(a: Free, b: Free) -> int:
    return abs(a.points - b.points) * POINT_WEIGHT + abs(a.skill - b.skill)


def tables(
    free: list[Free], *, size: int, least: int, now: datetime, fill_after: float
) -> list[Table]:
    """Tables of up to ``size`` seats for a game of at least ``least`` players."""
    taken: set[int] = set()
    formed = []
    for anchor in sorted(free, key=lambda f: (f.since, f.id)):
        if anchor.id in taken:
            continue
        waited = (now - anchor.since).total_seconds()
        others = sorted(
            (f for f in free if f.id not in taken and f.id != anchor.id),
            key=lambda f: (distance(anchor, f), f.since, f.id),
        )
        table = _choose(anchor, others, size, rematch=False)
        if len(table) < size and waited >= fill_after:
            table = _choose(anchor, others, size, rematch=True)
        if len(table) == size or (waited >= fill_after and len(table) >= least):
            formed.append(Table(table, computers=False))
        elif waited >= fill_after:
            formed.append(Table(table, computers=True))
        else:
            continue
        taken.update(f.id for f in table)
    return formed


def _choose(anchor: Free, others: list[Free], size: int, rematch: bool) -> list[Free]:
    table = [anchor]
    for other in others:
        if len(table) == size:
            break
        if rematch or not any(_met(other, t) for t in table):
            table.append(other)
    return table


def _met(a: Free, b: Free) -> bool:
    return b.user_id in a.last or a.user_id in b.last
