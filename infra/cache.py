"""Django's Redis cache with one client per process, and an async set of its own.

Django keeps a cache object per thread (and per async task context), each opening its own
Redis connection pool, and builds a new redis.Redis client for every command; with redis-py 8
building the client costs more CPU than the command itself, and every daphne worker thread
or task context would open connections of its own. Here every cache object of a process
shares one client, whose pool is thread-safe, for each server.

Django's `aset` runs the sync `set` on the process's one shared thread, where every caller
waits in one queue; here it talks to Redis from the event loop (a client per loop).
"""

from __future__ import annotations

import threading

import redis.asyncio
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient
from django.utils.functional import cached_property

from infra.loops import PerLoop


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

    async def aset(self, key, value, timeout) -> None:
        client = self._async_clients.get()
        if timeout == 0:
            await client.delete(key)
        else:
            await client.set(key, self._serializer.dumps(value), ex=timeout)

    @cached_property
    def _async_clients(self) -> PerLoop[redis.asyncio.Redis]:
        # The server writes go to, with the same options (the sync parser aside).
        options = {k: v for k, v in self._pool_options.items() if k != "parser_class"}
        return PerLoop(
            lambda: redis.asyncio.Redis.from_url(self._servers[0], **options),
            lambda client: client.aclose(),
        )


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

    async def aset(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        key = self.make_and_validate_key(key, version=version)
        await self._cache.aset(key, value, self.get_backend_timeout(timeout))

    @property
    def url(self) -> str:
        return self._servers[0]

    def entry(self, key, value, timeout: int) -> tuple[str, bytes, int]:
        """The key, bytes and seconds `set` would write, for a write sent in another client's
        round trip to the same Redis (infra.news.tell's `keep`)."""
        return (
            self.make_and_validate_key(key),
            self._cache._serializer.dumps(value),
            self.get_backend_timeout(timeout),
        )


def require_redis() -> None:
    """Raise RedisError now if Redis can't be reached (one round trip): for a page whose live
    parts need it even when the page itself could be drawn without it."""
    from django.core.cache import cache

    cache.has_key("redis-reachable")
