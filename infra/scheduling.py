"""When work runs: a Celery task later, a coroutine from sync code, a database call off the
event loop.

- ``run_later(name, *args, delay=s)``: the Celery task registered under ``name``, after
  ``delay`` seconds. Tasks are named, not imported, so the code that schedules one never
  imports the module that defines it (which imports that code back).
- ``run_async(fn, *args)`` / ``run_soon(fn, *args)``: a coroutine function from sync code,
  waited for or not.
- ``on_thread(fn)``: a sync function, as a coroutine function that runs it on one of the
  process's DB_THREADS and gives its database connection back before returning.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import contextlib
import logging
import threading
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import SyncToAsync, async_to_sync, sync_to_async
from celery import current_app
from django.conf import settings
from django.db import close_old_connections

log = logging.getLogger(__name__)

# A task that fails while run in-process (embedded, with no broker to retry it) is tried again
# after these pauses; on a worker, each task retries itself (see its own module).
RETRY_AFTER = (0.5, 1.0, 2.0, 4.0, 8.0)


# ---- Celery tasks, by name ----------------------------------------------------------------------


def run_later(name: str, *args, delay: float) -> None:
    """Run the Celery task `name` after `delay` seconds.

    With a broker: a countdown. Embedded (eager tasks ignore countdowns): on the server's own
    event loop, which the sync code inside daphne can reach; with no loop at all (a command,
    a plain test) at once, one after another."""
    task = current_app.tasks[name]
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        task.apply_async(args, countdown=delay)
        return
    if getattr(SyncToAsync.threadlocal, "main_event_loop", None) is None:
        _run_now(task, args)
        return
    async_to_sync(_call_later)(delay, task, args, 0)


async def _call_later(delay: float, task, args, attempt: int) -> None:
    loop = asyncio.get_running_loop()
    # Not thread-sensitive: the request that scheduled this is long gone by then.
    run = sync_to_async(_run_in_thread, thread_sensitive=False)
    loop.call_later(delay, lambda: loop.create_task(run(task, args, attempt)))


def _run_in_thread(task, args, attempt: int) -> None:
    close_old_connections()
    try:
        task.run(*args)
    except Exception as exc:
        if attempt < len(RETRY_AFTER):
            pause = RETRY_AFTER[attempt]
            log.warning("%s%s failed (%r); trying again in %s s", task.name, args, exc, pause)
            async_to_sync(_call_later)(pause, task, args, attempt + 1)
        else:
            log.exception("%s%s failed; the sweep will send it again", task.name, args)
    finally:
        close_old_connections()


_inline = threading.local()


def _run_now(task, args) -> None:
    """Queue instead of nesting: a game of computer players would otherwise recurse."""
    queue = getattr(_inline, "queue", None)
    if queue is not None:
        queue.append((task, args))
        return
    _inline.queue = [(task, args)]
    try:
        while _inline.queue:
            next_task, next_args = _inline.queue.pop(0)
            next_task.run(*next_args)
    finally:
        _inline.queue = None


# ---- coroutines from sync code -------------------------------------------------------------------

_loop: asyncio.AbstractEventLoop | None = None
_loop_lock = threading.Lock()
_pending: set[concurrent.futures.Future] = set()


def _event_loop() -> asyncio.AbstractEventLoop:
    """Inside daphne, the server's own loop; elsewhere (a Celery worker, a command) one
    long-lived loop on a thread of its own, so the channel layer's Redis connections are
    reused instead of opened per message."""
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    if loop is not None and loop.is_running():  # (a finished test's loop may linger here)
        return loop
    global _loop
    with _loop_lock:
        if _loop is None or _loop.is_closed():
            _loop = asyncio.new_event_loop()
            threading.Thread(target=_loop.run_forever, name="infra-async", daemon=True).start()
            atexit.register(_finish_pending)
    return _loop


def run_async(fn, *args):
    """Run a coroutine function from sync code and wait for its result."""
    if getattr(SyncToAsync.threadlocal, "main_event_loop", None) is not None:
        return async_to_sync(fn)(*args)
    return asyncio.run_coroutine_threadsafe(fn(*args), _event_loop()).result(timeout=10)


def run_soon(fn, *args) -> None:
    """Start a coroutine function from sync code and go on without waiting for it."""
    future = asyncio.run_coroutine_threadsafe(fn(*args), _event_loop())
    _pending.add(future)
    future.add_done_callback(_pending.discard)


def _finish_pending() -> None:
    """At exit (a command, a worker), let what run_soon started finish: nothing is lost."""
    for future in list(_pending):
        with contextlib.suppress(Exception):
            future.result(timeout=5)


# ---- database calls off the event loop -----------------------------------------------------------

# Threads for the sockets' database calls (settings.DB_THREADS); the pool has a connection for
# each, so a thread never waits for one.
DB_THREADS = ThreadPoolExecutor(settings.DB_THREADS, thread_name_prefix="table-db")


def on_thread(fn):
    """`fn` as a coroutine function that runs it on one of DB_THREADS, so sockets don't queue
    behind each other on one shared thread, and gives back its database connection (to the
    pool) before it returns. Closing inside the call matters: the connection lives in the
    call's context, which channels' database_sync_to_async cleanup, running outside it, does
    not always reach."""

    def call(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        finally:
            close_old_connections()

    return sync_to_async(call, thread_sensitive=False, executor=DB_THREADS)
