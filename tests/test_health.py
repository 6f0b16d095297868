"""GET /healthz tells the truth: the database, the channel layer and the broker answer, and the
Celery worker and beat have written a fresh heartbeat."""

import concurrent.futures
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

import kombu.exceptions
import pytest
import redis.exceptions
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.test import override_settings

from cubiccards import heartbeat
from cubiccards.errors import RedisUnavailable

from .conftest import ROOT, _test_database_url

pytestmark = pytest.mark.django_db


def _health(client) -> tuple[int, dict]:
    response = client.get("/healthz")
    return response.status_code, response.json()


def _wait_for(client, predicate, seconds: float = 30) -> tuple[int, dict]:
    deadline = time.monotonic() + seconds
    while True:
        status, body = _health(client)
        if predicate(status, body) or time.monotonic() > deadline:
            return status, body
        time.sleep(0.3)


def test_healthz_all_up(client, real_services):
    heartbeat.beat_of(heartbeat.WORKER)
    heartbeat.beat_of(heartbeat.BEAT)
    status, body = _health(client)
    assert status == 200, body
    assert body["ok"] is True
    assert body["database"] == {"backend": "postgresql", "ok": True}
    assert body["channel_layer"] == {"backend": "TableLayer", "ok": True}
    assert body["broker"] == {"backend": "redis", "ok": True}
    assert body["worker"]["ok"] is True and body["worker"]["age"] < 5
    assert body["beat"]["ok"] is True


def test_healthz_503_without_any_heartbeat(client, real_services):
    cache.delete_many([heartbeat.WORKER, heartbeat.BEAT])
    status, body = _health(client)
    assert status == 503
    assert body["worker"] == {"backend": "heartbeat", "ok": False, "error": "no heartbeat yet"}
    assert body["beat"]["ok"] is False and body["database"]["ok"] is True


@override_settings(CELERY_BROKER_URL="redis://127.0.0.1:1/0", CELERY_TASK_ALWAYS_EAGER=False)
def test_healthz_503_when_broker_down(client, real_services):
    status, body = _health(client)
    assert status == 503
    assert body["ok"] is False and body["broker"]["ok"] is False
    assert body["database"]["ok"] is True


@override_settings(HEALTH_STALE_AFTER=3.0)
def test_healthz_follows_a_real_worker_and_beat(client, celery_worker_process, celery_beat_process):
    cache.delete_many([heartbeat.WORKER, heartbeat.BEAT])
    status, body = _wait_for(client, lambda s, b: s == 200)
    assert status == 200, body  # both processes wrote their heartbeats

    celery_worker_process.send_signal(signal.SIGKILL)  # died without a word
    status, body = _wait_for(client, lambda s, b: not b["worker"]["ok"], seconds=15)
    assert status == 503, body
    assert "last heartbeat" in body["worker"]["error"] and body["beat"]["ok"] is True

    celery_beat_process.send_signal(signal.SIGKILL)
    status, body = _wait_for(client, lambda s, b: not b["beat"]["ok"], seconds=15)
    assert status == 503 and body["beat"]["error"].startswith("last heartbeat"), body


def test_concurrent_probes_all_answer(daphne_server):
    """A load balancer and monitoring probe at once: 10 at a time, every answer a 200."""

    def probe(_):
        heartbeat.beat_of(heartbeat.WORKER)  # a live worker and beat (their own test is above)
        heartbeat.beat_of(heartbeat.BEAT)
        try:
            with urllib.request.urlopen(daphne_server + "/healthz", timeout=20) as response:
                return response.status, ""
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode()

    with concurrent.futures.ThreadPoolExecutor(10) as pool:
        answers = list(pool.map(probe, range(300)))
    failed = [answer for answer in answers if answer[0] != 200]
    assert not failed, f"{len(failed)} of {len(answers)} probes failed: {failed[:3]}"


def test_healthz_answers_plain_http_in_production(real_services):
    """Production redirects plain HTTP to HTTPS, except the load balancer's probe."""
    script = (
        "import django; django.setup();"
        "from django.test import Client; c = Client();"
        "print(c.get('/healthz').status_code, c.get('/').status_code)"
    )
    env = {
        **os.environ,
        "CUBIC_ENV": "production",
        "SECRET_KEY": "s" * 20 + "0123456789abcdefghijklmnopqrstuvwxyz",
        "ALLOWED_HOSTS": "testserver",
        "DATABASE_URL": _test_database_url(),
        "DJANGO_SETTINGS_MODULE": "cubiccards.settings",
    }
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )
    health, home = out.stdout.split()
    assert health in ("200", "503"), out.stderr  # an answer, whatever it says
    assert home == "301"


def test_heartbeat_survives_redis_down(caplog):
    down = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",
    }
    with override_settings(CACHES={"default": down}):
        heartbeat.beat_of(heartbeat.WORKER)  # logs, never raises: the heartbeat goes stale
    assert "Could not write the health:worker heartbeat" in caplog.text


@pytest.mark.parametrize(
    "failure",
    [
        redis.exceptions.ConnectionError("Error 111 connecting"),
        kombu.exceptions.OperationalError("broker unreachable"),
    ],
)
def test_a_page_needing_redis_says_the_tables_are_unavailable(rf, failure):
    request = rf.get("/rooms/ABCDE/")
    request.user, request.session = AnonymousUser(), {}
    response = RedisUnavailable(lambda r: None).process_exception(request, failure)
    assert response.status_code == 503 and response["Retry-After"] == "10"
    assert "The tables are unavailable right now" in response.content.decode()
    assert RedisUnavailable(lambda r: None).process_exception(request, ValueError()) is None
