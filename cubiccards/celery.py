import os

from celery import Celery
from celery.signals import task_failure

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cubiccards.settings")

app = Celery("cubiccards")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="cubiccards.ping")
def ping() -> str:
    """Answers "pong": proves a worker is listening on the broker."""
    return "pong"


@task_failure.connect
def _count_failure(sender=None, **kwargs):
    from cubiccards.metrics import TASK_FAILURES

    TASK_FAILURES.labels(getattr(sender, "name", "unknown")).inc()


# Worker and beat heartbeats for /healthz: the receiver must be connected before the worker
# starts its heart.
from . import heartbeat  # noqa: E402, F401
