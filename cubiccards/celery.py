import os

from celery import Celery
from celery.signals import task_failure, worker_init, worker_process_init
from kombu.transport import redis as kombu_redis

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cubiccards.settings")

app = Celery("cubiccards")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


_restore_unacked = kombu_redis.QoS.restore_unacked


def _restore_unacked_while_connected(self, client=None):
    """kombu (5.7.0), closing a channel after Redis went away, can find its connection already
    closed and fail reading the broker's address from it (AttributeError, "Unrecoverable
    error"): the worker's consumer stopped for good, and no computer player moved again. With
    the connection gone there is nothing to restore over it; Redis keeps the unacknowledged
    tasks (and restores them after their visibility timeout) if it kept anything at all, and
    the stalled-game sweep sends a lost computer turn again."""
    if client is None and self.channel.connection.client is None:
        return
    return _restore_unacked(self, client)


kombu_redis.QoS.restore_unacked = _restore_unacked_while_connected


@app.task(name="cubiccards.ping")
def ping() -> str:
    """Answers "pong": proves a worker is listening on the broker."""
    return "pong"


@task_failure.connect
def _count_failure(sender=None, **kwargs):
    from infra.metrics import TASK_FAILURES

    TASK_FAILURES.labels(getattr(sender, "name", "unknown")).inc()


@worker_init.connect
@worker_process_init.connect
def _warm_up(**kwargs):
    """A worker plays the computer turns: it builds the computer players' tables as it starts
    (Poker's hands by draw count, 0.2 s of CPU), not in the first move that needs them, and
    freezes what it holds out of the full garbage collections (``registry.warm_up``). Once
    before the pool forks its children, which inherit both; again in each child, where that
    costs little unless the child did not inherit them."""
    from gameplay.engine import registry

    registry.warm_up()


# Worker and beat heartbeats for /healthz: the receiver must be connected before the worker
# starts its heart.
from . import heartbeat  # noqa: E402, F401
