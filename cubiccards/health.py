"""GET /healthz: is each part of the site answering, and are the Celery worker and beat alive?

200 when every check passes, 503 naming the one that failed otherwise. Monitoring probes
often and in parallel, so each check has a deadline and none waits on what the tables use:
the channel-layer round trip goes through a channel of its own, not through the process's
shared inbox that every table socket of the process reads behind one lock.
"""

import asyncio
import time
import uuid

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from kombu import Connection

from . import heartbeat

DEADLINE = 3.0  # seconds for one check; a slower answer counts as "not answering"


def _failed(backend: str, exc: Exception) -> dict:
    return {"backend": backend, "ok": False, "error": (str(exc) or type(exc).__name__)[:200]}


def _database() -> dict:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return {"backend": connection.vendor, "ok": True}
    except Exception as exc:  # any failure means "not answering"
        return _failed(connection.vendor, exc)


async def _layer_round_trip(layer) -> bool:
    async def there_and_back() -> bool:
        channel, token = f"health.{uuid.uuid4().hex}", uuid.uuid4().hex
        await layer.send(channel, {"type": "health.check", "token": token})
        return (await layer.receive(channel)).get("token") == token

    return await asyncio.wait_for(there_and_back(), DEADLINE)


def _channel_layer() -> dict:
    layer = get_channel_layer()
    name = type(layer).__name__
    try:
        return {"backend": name, "ok": async_to_sync(_layer_round_trip)(layer)}
    except Exception as exc:
        return _failed(name, exc)


def _broker() -> dict:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return {"backend": "in-process", "ok": True}
    url = settings.CELERY_BROKER_URL
    try:
        with Connection(url, connect_timeout=DEADLINE) as conn:
            conn.ensure_connection(max_retries=1, timeout=DEADLINE)
        return {"backend": url.split("://")[0], "ok": True}
    except Exception as exc:
        return _failed(url.split("://")[0], exc)


def _heartbeats() -> dict:
    """The Celery worker's and beat's last heartbeats, each fresh or not."""
    if settings.CELERY_TASK_ALWAYS_EAGER:  # embedded: tasks and the schedule run in-process
        return {name: {"backend": "in-process", "ok": True} for name in ("worker", "beat")}
    try:
        beats = heartbeat.last_beats()
    except Exception as exc:
        return {name: _failed("heartbeat", exc) for name in ("worker", "beat")}
    limit = settings.HEALTH_STALE_AFTER
    checks = {}
    for name, key in (("worker", heartbeat.WORKER), ("beat", heartbeat.BEAT)):
        last = beats[key]
        if last is None:
            checks[name] = {"backend": "heartbeat", "ok": False, "error": "no heartbeat yet"}
            continue
        age = round(max(0.0, time.time() - last["at"]), 1)
        checks[name] = {"backend": "heartbeat", "ok": age <= limit, "age": age}
        if age > limit:
            checks[name]["error"] = f"last heartbeat {age:.0f} s ago (limit {limit:.0f} s)"
    return checks


def healthz(request):
    checks = {
        "database": _database(),
        "channel_layer": _channel_layer(),
        "broker": _broker(),
        **_heartbeats(),
    }
    ok = all(check["ok"] for check in checks.values())
    return JsonResponse({"ok": ok, **checks}, status=200 if ok else 503)
