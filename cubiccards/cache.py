"""Django's Redis cache with one client per process.

Django keeps a cache object per thread (and per async task context), each opening its own
Redis connection pool, and builds a new redis.Redis client for every command; with redis-py 8
building the client costs more CPU than the command itself, and every daphne worker thread
or task context would open connections of its own. Here every cache object of a process
shares one client, whose pool is thread-safe, for each server.
"""

from __future__ import annotations

import threading

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient
from django.utils.functional import cached_property


class SharedClient(RedisCacheClient):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients.setdefault(id(pool), self._client(connection_pool=pool))
        return client


class RedisCache(DjangoRedisCache):
    _shared: dict[tuple, SharedClient] = {}
    _lock = threading.Lock()

    @cached_property
    def _cache(self):
        key = (tuple(self._servers), tuple(sorted((k, repr(v)) for k, v in self._options.items())))
        with self._lock:
            if key not in self._shared:
                self._shared[key] = SharedClient(self._servers, **self._options)
            return self._shared[key]
