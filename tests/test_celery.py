from celery.signals import worker_init, worker_process_init

from cubiccards import celery as worker_app
from cubiccards.celery import ping
from gameplay.engine import registry


def test_ping_round_trip_through_a_real_worker(celery_worker_process):
    assert ping.delay().get(timeout=30) == "pong"
    assert celery_worker_process.poll() is None  # the worker is still up


def test_a_worker_warms_the_computer_players_up_as_it_starts(monkeypatch):
    """Its start (and each pool child's) calls ``registry.warm_up``, the ladder's warm-up."""
    for signal in (worker_init, worker_process_init):
        assert worker_app._warm_up in signal._live_receivers(None)
    warmed = []
    monkeypatch.setattr(registry, "warm_up", lambda: warmed.append(True))
    worker_app._warm_up(sender=None)
    assert warmed == [True]
