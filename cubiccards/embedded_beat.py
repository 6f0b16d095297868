"""Embedded mode (``make run``: no broker, so no Celery beat) runs beat's schedule itself.

The server starts this on its own event loop with the first connection (daphne has no startup
hook). Each entry of ``CELERY_BEAT_SCHEDULE`` runs at its interval, on a worker thread, as
beat would send it under ``make serve``: the stalled-game sweep, the end-of-game sweep, the
ranked matcher, the Kudos upkeep. A task that fails is logged and runs again at its next turn.
"""

from __future__ import annotations

import asyncio
import logging

from asgiref.sync import sync_to_async
from celery import current_app
from django.conf import settings
from django.db import close_old_connections

log = logging.getLogger(__name__)


async def beat_forever() -> None:
    loop = asyncio.get_running_loop()
    every = {
        entry["task"]: float(entry["schedule"]) for entry in settings.CELERY_BEAT_SCHEDULE.values()
    }
    due = {task: loop.time() + seconds for task, seconds in every.items()}
    # The apps' tasks modules, as a worker imports them at start (autodiscovery is lazy).
    await sync_to_async(current_app.loader.import_default_modules, thread_sensitive=False)()
    run = sync_to_async(_run, thread_sensitive=False)
    while True:
        task = min(due, key=due.get)
        await asyncio.sleep(max(0.0, due[task] - loop.time()))
        due[task] = loop.time() + every[task]
        await run(task)


def _run(task: str) -> None:
    close_old_connections()
    try:
        current_app.tasks[task].run()
    except Exception:
        log.exception("%s failed; it runs again at its next turn", task)
    finally:
        close_old_connections()
