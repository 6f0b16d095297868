"""Heartbeats of the Celery worker and beat, read by /healthz with a freshness limit.

A worker sends Celery's own heartbeat every 2 seconds from its event loop (the loop that takes
tasks off the broker); each one also writes the time to the cache. Beat writes the time on
each tick of its scheduler, at least every `CELERY_BEAT_MAX_LOOP_INTERVAL` seconds. A process
that died, hangs, or can't reach Redis stops writing, and its heartbeat goes stale.
"""

from __future__ import annotations

import logging
import socket
import time

from celery.beat import Scheduler
from celery.signals import heartbeat_sent
from django.core.cache import cache

log = logging.getLogger(__name__)

WORKER = "health:worker"
BEAT = "health:beat"
KEEP = 3600  # seconds a heartbeat stays readable (so /healthz can say how old it is)


def beat_of(key: str) -> None:
    """Record that the process behind `key` is alive now."""
    try:
        cache.set(key, {"at": time.time(), "host": socket.gethostname()}, KEEP)
    except Exception as exc:  # Redis down: the heartbeat goes stale, which is the truth
        log.warning("Could not write the %s heartbeat: %s", key, exc)


def last_beats() -> dict[str, dict | None]:
    """{key: {"at": epoch seconds, "host": ...} or None} for the worker and beat."""
    found = cache.get_many([WORKER, BEAT])
    return {key: found.get(key) for key in (WORKER, BEAT)}


@heartbeat_sent.connect
def _worker_heartbeat(sender=None, **kwargs) -> None:
    beat_of(WORKER)


class HeartbeatScheduler(Scheduler):
    """Celery beat's scheduler, writing beat's heartbeat on every tick (at most once a second).

    The schedule stays in memory: every entry is an interval whose task is an idempotent sweep,
    so a restarted beat only runs each one an interval later. (The on-disk schedule could be
    closed by SIGTERM's handler while a tick still read it: "invalid operation on closed shelf".)
    """

    _last = 0.0

    def tick(self, *args, **kwargs):
        now = time.monotonic()
        if now - self._last >= 1.0:
            self._last = now
            beat_of(BEAT)
        return super().tick(*args, **kwargs)
