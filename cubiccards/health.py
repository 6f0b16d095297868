"""GET /healthz: is each configured service answering?"""

import uuid

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from kombu import Connection


def _database() -> dict:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return {"backend": connection.vendor, "ok": True}
    except Exception as exc:  # any failure means "not answering"
        return {"backend": connection.vendor, "ok": False, "error": str(exc)[:200]}


def _channel_layer() -> dict:
    layer = get_channel_layer()
    name = type(layer).__name__
    try:
        channel = async_to_sync(layer.new_channel)()
        token = uuid.uuid4().hex
        async_to_sync(layer.send)(channel, {"type": "health.check", "token": token})
        message = async_to_sync(layer.receive)(channel)
        return {"backend": name, "ok": message.get("token") == token}
    except Exception as exc:
        return {"backend": name, "ok": False, "error": str(exc)[:200]}


def _broker() -> dict:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return {"backend": "in-process", "ok": True}
    url = settings.CELERY_BROKER_URL
    try:
        with Connection(url, connect_timeout=2) as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
        return {"backend": url.split("://")[0], "ok": True}
    except Exception as exc:
        return {"backend": url.split("://")[0], "ok": False, "error": str(exc)[:200]}


def healthz(request):
    checks = {"database": _database(), "channel_layer": _channel_layer(), "broker": _broker()}
    ok = all(check["ok"] for check in checks.values())
    return JsonResponse({"ok": ok, **checks}, status=200 if ok else 503)
