import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cubiccards.settings")

app = Celery("cubiccards")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="cubiccards.ping")
def ping() -> str:
    """Answers "pong": proves a worker is listening on the broker."""
    return "pong"


# Worker and beat heartbeats for /healthz: the receiver must be connected before the worker
# starts its heart.
from . import heartbeat  # noqa: E402, F401
