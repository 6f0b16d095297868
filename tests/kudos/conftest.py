"""Kudos tests run on PostgreSQL (row locks, constraints and triggers are what they prove)."""

from datetime import UTC, datetime

import pytest

from accounts.models import User
from kudos import clock
from tests.played import ended_game  # noqa: F401  (the kudos tests import it from here)


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
