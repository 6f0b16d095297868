"""What an operator watches: Prometheus metrics (prometheus_client) and one log line per action.

Several processes (make serve's daphnes, Celery's worker processes) share their figures through
prometheus_client's multiprocess mode when PROMETHEUS_MULTIPROC_DIR names a folder they all
write (scripts/serve.sh makes one, empty, per start); /metrics then answers for all of them.
Without it (make run, tests) each process answers for itself. /metrics is off unless
METRICS_TOKEN is set, and then answers only a request that carries it
(Authorization: Bearer <token>): the figures are not for the public."""

from __future__ import annotations

import hmac
import json
import logging
import os
import time

from django.conf import settings
from django.http import Http404, HttpResponse
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily

action_log = logging.getLogger("cubiccards.actions")

# Seconds; the goal is a round trip under 0.25 s at 500 tables.
BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

OPEN_SOCKETS = Gauge(
    "cubiccards_open_sockets",
    "Table sockets open now (all daphne processes)",
    multiprocess_mode="livesum",
)
ACTION_SECONDS = Histogram(
    "cubiccards_action_seconds",
    "A person's action: from the socket receiving it to the mover's new view sent",
    ["game"],
    buckets=BUCKETS,
)
COMPUTER_DELAY = Histogram(
    "cubiccards_computer_turn_delay_seconds",
    "How late a computer player's move came, past the pause it was meant to take",
    ["game"],
    buckets=BUCKETS,
)
TASK_FAILURES = Counter(
    "cubiccards_task_failures", "Celery tasks that raised (retries included)", ["task"]
)


def action_done(*, game, seat, started: float, by: str) -> None:
    """One action applied: its round trip in the histogram and one log line (JSON)."""
    seconds = time.perf_counter() - started
    ACTION_SECONDS.labels(game.kind).observe(seconds)
    if not action_log.isEnabledFor(logging.INFO):  # off (the default): not even formatted
        return
    action_log.info(
        json.dumps(
            {
                "event": "action",
                "game": game.pk,
                "kind": game.kind,
                "seq": game.seq,
                "seat": seat,
                "by": by,
                "ms": round(seconds * 1000, 2),
            }
        )
    )


def computer_moved(*, game, due: float) -> None:
    """A computer player's move was applied; `due` is when it was meant to come (epoch s)."""
    COMPUTER_DELAY.labels(game.kind).observe(max(0.0, time.time() - due))


# Figures read at scrape time, registered by the app that knows them (name: (help, count)).
_AT_SCRAPE: dict[str, tuple[str, object]] = {}


def at_scrape(name: str, help_text: str, count) -> None:
    """Report `count()` as the gauge `name` whenever /metrics is read."""
    _AT_SCRAPE[name] = (help_text, count)


class _Live:
    """Figures read at scrape time: what apps registered, and the Celery queue's depth."""

    def collect(self):
        for name, (help_text, count) in _AT_SCRAPE.items():
            yield GaugeMetricFamily(name, help_text, count())
        depth = GaugeMetricFamily(
            "cubiccards_celery_queue_depth", "Tasks waiting in the broker's queue", labels=["queue"]
        )
        if settings.REDIS_URL:
            import redis

            client = redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_timeout=5)
            try:
                depth.add_metric(["celery"], client.llen("celery"))
            finally:
                client.close()
        yield depth


def metrics_view(request):
    token = settings.METRICS_TOKEN
    if not token:
        raise Http404("Metrics are off: set METRICS_TOKEN.")
    given = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
    if not hmac.compare_digest(given.encode(), token.encode()):
        return HttpResponse("A metrics token is needed.\n", status=401, content_type="text/plain")
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):  # every process's figures, added up
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    else:
        registry = REGISTRY
    live = CollectorRegistry()
    live.register(_Live())
    text = generate_latest(registry) + generate_latest(live)
    return HttpResponse(text, content_type=CONTENT_TYPE_LATEST)
