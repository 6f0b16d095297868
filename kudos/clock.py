"""The time Kudos go by: the system clock.

End-to-end tests run the web server, a Celery worker and beat as separate processes and need
them all to agree on a day that is not today. They set the time in the shared cache, and this
module reads it only when ``settings.KUDOS_TEST_CLOCK`` is on, which the settings refuse in
production.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

KEY = "kudos:test-clock"


def now() -> datetime:
    if settings.KUDOS_TEST_CLOCK:
        stopped = cache.get(KEY)
        if stopped:
            return datetime.fromisoformat(stopped)
    return timezone.now()


def stop_at(moment: datetime) -> None:
    """Tests only: every process reads ``moment`` as now until the clock is moved or freed."""
    if not settings.KUDOS_TEST_CLOCK:
        raise RuntimeError("The test clock is off (KUDOS_TEST_CLOCK).")
    cache.set(KEY, moment.isoformat(), None)


def free() -> None:
    cache.delete(KEY)
