import pytest
from django.test import override_settings

pytestmark = pytest.mark.django_db


def test_healthz_all_up(client, real_services):
    response = client.get("/healthz")
    body = response.json()
    assert response.status_code == 200, body
    assert body["ok"] is True
    assert body["database"] == {"backend": "postgresql", "ok": True}
    assert body["channel_layer"] == {"backend": "RedisChannelLayer", "ok": True}
    assert body["broker"] == {"backend": "redis", "ok": True}


@override_settings(CELERY_BROKER_URL="redis://127.0.0.1:1/0", CELERY_TASK_ALWAYS_EAGER=False)
def test_healthz_503_when_broker_down(client, real_services):
    response = client.get("/healthz")
    body = response.json()
    assert response.status_code == 503
    assert body["ok"] is False and body["broker"]["ok"] is False
    assert body["database"]["ok"] is True
