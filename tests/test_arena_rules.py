"""Arena points and pairing as plain rules (no database): places to points, ties, the flame,
computers at the table, abandons; who sits with whom, rematches, the wait for computers."""

from datetime import UTC, datetime, time, timedelta

import pytest

from arenas import pairing, points
from arenas.models import ArenaSchedule
from arenas.services import starts_between

NOW = datetime(2026, 12, 3, 20, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    "ranks, expected",
    [
        ([0, 1], [(1, 4), (2, 0)]),
        ([0, 1, 2], [(1, 4), (2, 2), (3, 0)]),
        ([0, 1, 2, 3], [(1, 4), (2, 2), (3, 1), (4, 0)]),
        ([0, 0], [(1, 2), (1, 2)]),  # a draw of two shares 4 + 0
        ([0, 1, 1, 2], [(1, 4), (2, 1), (2, 1), (4, 0)]),  # 2 + 1 shared, rounded down
        ([1, 0, 0, 0], [(4, 0), (1, 2), (1, 2), (1, 2)]),  # (4 + 2 + 1) // 3
    ],
)
def test_places_score_by_the_table(ranks, expected):
    assert points.for_ranks(ranks, len(ranks)) == expected


def test_two_wins_in_a_row_double_until_a_game_not_won():
    streak, got = 0, []
    for base, won in [(4, True), (4, True), (4, True), (2, False), (4, True)]:
        scored = points.score(base=base, won=won, streak=streak, computers=False)
        got.append((scored.points, scored.doubled))
        streak = scored.streak
    assert got == [(4, False), (4, False), (8, True), (4, True), (4, False)]


def test_computers_halve_and_an_abandon_scores_nothing_and_ends_the_streak():
    assert points.score(base=4, won=True, streak=0, computers=True).points == 2
    assert points.score(base=1, won=False, streak=0, computers=True).points == 0
    assert points.score(base=4, won=True, streak=2, computers=True).points == 4  # halved, doubled
    left = points.score(base=4, won=True, streak=5, computers=False, abandoned=True)
    assert (left.points, left.streak, left.won) == (0, 0, False)


def free(i, points_=0, skill=1500, waited=0.0, last=()):
    return pairing.Free(
        i,
        100 + i,
        points_,
        skill,
        NOW - timedelta(seconds=waited),
        frozenset(100 + u for u in last),
    )


def seated(tables):
    return [([f.id for f in t.people], t.computers) for t in tables]


def test_a_full_table_sits_down_at_once_nearest_in_points_then_rating():
    players = [free(1, 8, waited=3), free(2, 0, 1500), free(3, 7), free(4, 0, 1900)]
    got = pairing.tables(players, size=2, least=2, now=NOW, fill_after=20)
    assert seated(got) == [([1, 3], False), ([2, 4], False)]


def test_no_immediate_rematch_until_the_wait_is_over():
    ann, bob = free(1, waited=5, last=[2]), free(2, waited=5, last=[1])
    assert pairing.tables([ann, bob], size=2, least=2, now=NOW, fill_after=20) == []
    ann, bob = free(1, waited=21, last=[2]), free(2, waited=21, last=[1])
    assert seated(pairing.tables([ann, bob], size=2, least=2, now=NOW, fill_after=20)) == [
        ([1, 2], False)
    ]
    cid = free(3, waited=1)  # a third player is chosen over the rematch
    got = pairing.tables([free(1, waited=5, last=[2]), free(2, waited=4, last=[1]), cid], size=2, least=2, now=NOW, fill_after=20)  # fmt: skip
    assert seated(got) == [([1, 3], False)]


def test_computers_fill_only_a_table_of_one_after_the_wait():
    alone = [free(1, waited=19)]
    assert pairing.tables(alone, size=4, least=2, now=NOW, fill_after=20) == []
    alone = [free(1, waited=20)]
    assert seated(pairing.tables(alone, size=4, least=2, now=NOW, fill_after=20)) == [([1], True)]
    two = [free(1, waited=10), free(2, waited=3)]
    assert pairing.tables(two, size=4, least=2, now=NOW, fill_after=20) == []
    two = [free(1, waited=25), free(2, waited=3)]
    assert seated(pairing.tables(two, size=4, least=2, now=NOW, fill_after=20)) == [([1, 2], False)]


def test_nobody_is_at_two_tables():
    players = [free(i, i % 5, 1400 + 37 * i, waited=i) for i in range(1, 40)]
    got = pairing.tables(players, size=4, least=2, now=NOW, fill_after=20)
    ids = [f.id for t in got for f in t.people]
    assert len(ids) == len(set(ids)) == 36  # nine full tables; the three freshest wait


def schedule(every, at, weekday=None):
    return ArenaSchedule(every=every, at=at, weekday=weekday, minutes=30)


def test_schedule_start_times():
    hourly = schedule("hourly", time(0, 15))
    assert starts_between(hourly, NOW - timedelta(minutes=30), NOW + timedelta(hours=1)) == [
        NOW.replace(minute=15)
    ]
    assert starts_between(hourly, NOW, NOW + timedelta(hours=2)) == [
        NOW.replace(minute=15),
        NOW.replace(hour=21, minute=15),
    ]
    daily = schedule("daily", time(19, 0))
    assert starts_between(daily, NOW - timedelta(hours=2), NOW + timedelta(days=1)) == [
        NOW.replace(hour=19),
        NOW.replace(hour=19) + timedelta(days=1),
    ]
    weekly = schedule("weekly", time(18, 0), weekday=5)  # Saturdays; NOW is a Thursday
    assert starts_between(weekly, NOW, NOW + timedelta(days=7)) == [
        datetime(2026, 12, 5, 18, 0, tzinfo=UTC)
    ]
