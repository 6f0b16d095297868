"""Many tables in one daphne process: database calls side by side on a pool-sized set of
threads."""

import asyncio
import threading

import pytest
from django.conf import settings

from lobby.consumers import DB_THREADS, on_worker


@pytest.mark.asyncio
async def test_socket_database_calls_run_side_by_side_on_threads_sized_to_the_pool():
    meeting = threading.Barrier(2, timeout=5)  # both calls must be running at once

    def meet():
        meeting.wait()
        return threading.current_thread().name

    names = await asyncio.gather(on_worker(meet)(), on_worker(meet)())
    assert all(name.startswith("table-db") for name in names)
    pool = settings.DATABASES["default"].get("OPTIONS", {}).get("pool")
    assert DB_THREADS._max_workers == (pool["max_size"] if pool else settings.DB_THREADS)
