"""The Redis cache: one client (and connection pool) per process, whichever thread asks."""

import threading

from django.core.cache import cache, caches


def test_every_thread_shares_one_redis_client(real_services):
    clients = []

    def use_the_cache():
        caches["default"].set("shared-client", "yes", 10)
        clients.append(caches["default"]._cache.get_client(write=True))

    threads = [threading.Thread(target=use_the_cache) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    mine = cache._cache.get_client(write=True)
    assert all(client is mine for client in clients)
    assert cache.get("shared-client") == "yes"
