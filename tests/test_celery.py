from cubiccards.celery import ping


def test_ping_round_trip_through_a_real_worker(celery_worker_process):
    assert ping.delay().get(timeout=30) == "pong"
    assert celery_worker_process.poll() is None  # the worker is still up
