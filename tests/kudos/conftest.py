"""Kudos tests run on PostgreSQL (row locks, constraints and triggers are what they prove)."""

from datetime import UTC, datetime

import pytest

from accounts.models import User
from gameplay.models import Game
from kudos import clock


@pytest.fixture
def at(settings, real_services):
    """``at("2030-01-07 10:00")`` (UTC, or any aware datetime): Kudos' clock reads that."""
    settings.KUDOS_TEST_CLOCK = True

    def stop(moment):
        if isinstance(moment, str):
            moment = datetime.fromisoformat(moment).replace(tzinfo=UTC)
        clock.stop_at(moment)
        return moment

    yield stop
    clock.free()


@pytest.fixture
def player(db):
    made = iter(range(1, 10_000))

    def make(name: str | None = None, zone: str = "UTC") -> User:
        # No password: hashing one costs more than the rest of a test.
        return User.objects.create_user(
            name or f"player{next(made)}", password=None, time_zone=zone
        )

    return make


def ended_game(
    *,
    seats: list[dict],
    winners: list[int],
    kind: str = "war",
    ended: datetime | str | None = None,
    status: str = Game.Status.OVER,
) -> Game:
    """A game as gameplay stores one that just ended (seats: {"user_id", "bot", ...})."""
    if isinstance(ended, str):
        ended = datetime.fromisoformat(ended).replace(tzinfo=UTC)
    return Game.objects.create(
        kind=kind,
        seats=[
            {"name": f"Seat {i + 1}", "user_id": None, "bot": False, **s}
            for i, s in enumerate(seats)
        ],
        seed="kudos",
        seed_hash="0" * 64,
        status=status,
        result={"scores": [0] * len(seats), "winners": winners, "ranking": []},
        ended=ended or clock.now(),
    )
