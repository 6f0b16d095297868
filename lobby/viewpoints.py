"""Render once per viewpoint: what a table shows from one seat (or from the spectators' side)
at one state is worked out once per process and shared by every connection that sees it.

A table's spectators all see seat None's view, a player's second tab sees the first tab's,
and the room page sees what its socket will: each used to redo the engine's view, the legal
actions and the seat header (three queries) per connection. A seat's view is keyed by the
game row's `seq` and `updated`, which every write to the row moves (an action, a seat changing
hands, Speed Play); the room's wins only change when a game ends, so they are keyed by the
game's status. No entry outlives what it describes. Entries are shared: read them, never
change them.

`built_aside` builds on the process's render thread instead of the event loop: a table's
spectators' view (a template render of the whole table) then never holds up the seats' moves
that the loop is handling meanwhile. What is built there reads no database (every query on
that thread is refused): it works from what the caller already read."""

from __future__ import annotations

import asyncio
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.db import connection

SIZE = 2048  # viewpoints kept per process: a few per live table is plenty
# Seconds a brief viewpoint is kept (a seat's view at one state: every connection that shows it
# asks within moments of the move). Kept until the cache's size pushed it out, each lived until
# about the next move at its table, seconds: alive through the young garbage collections in
# between, each of which looked at every one of them while every table waited.
BRIEF = 0.5

_parts: OrderedDict[tuple, Any] = OrderedDict()
_brief: OrderedDict[tuple, float] = OrderedDict()  # brief keys, oldest first: when kept
_lock = threading.Lock()
_built_by: set[tuple] = set()  # keys being built, on some thread
_finished = threading.Condition(_lock)  # told whenever a build ends
# One thread: builds wait for each other rather than for the GIL, and the loop gets its turns.
_aside = ThreadPoolExecutor(1, thread_name_prefix="viewpoints")
_building: dict[tuple, asyncio.Future] = {}  # key: its build in progress aside


def kept(key: tuple) -> Any | None:
    """What is kept for `key`, or None."""
    with _lock:
        part = _parts.get(key)
        if part is not None:
            _parts.move_to_end(key)
        return part


def shared(key: tuple, build: Callable[[], Any], brief: bool = False) -> Any:
    """What `build` gives for `key`, built once while the key is kept: a caller arriving while
    another thread builds it waits for that build. A key names everything the value depends on
    (see the callers in lobby.tables). A brief key goes with the first key kept after it is
    BRIEF seconds old."""
    while True:
        with _lock:
            part = _parts.get(key, _parts)
            if part is not _parts:
                _parts.move_to_end(key)
                return part
            if key not in _built_by:
                _built_by.add(key)
                break
            _finished.wait()  # then it is kept (or, if that build failed, built here)
    try:
        part = build()  # outside the lock: other keys are built meanwhile
        with _lock:
            _parts[key] = part
            now = time.monotonic()
            if brief:
                _brief[key] = now
                _brief.move_to_end(key)
            while _brief and now - next(iter(_brief.values())) >= BRIEF:
                _parts.pop(_brief.popitem(last=False)[0], None)
            while len(_parts) > SIZE:
                _brief.pop(_parts.popitem(last=False)[0], None)
        return part
    finally:
        with _lock:
            _built_by.discard(key)
            _finished.notify_all()


async def built_aside(key: tuple, build: Callable[[], Any]) -> Any:
    """What `build` gives for `key`, as `shared`, built on the render thread (not on the event
    loop). Everyone on the loop asking for a key while it is being built waits for that one
    build."""
    part = kept(key)
    if part is not None:
        return part
    building = _building.get(key)
    if building is None or building.get_loop() is not asyncio.get_running_loop():
        loop = asyncio.get_running_loop()
        building = _building[key] = loop.run_in_executor(_aside, _build_aside, key, build)
        building.add_done_callback(lambda done: _built(key, done))
    return await asyncio.shield(building)


def _built(key: tuple, building: asyncio.Future) -> None:
    if _building.get(key) is building:
        del _building[key]


def _build_aside(key: tuple, build: Callable[[], Any]) -> Any:
    try:
        with connection.execute_wrapper(_no_query):
            return shared(key, build)
    finally:
        connection.close()  # the one a refused query opened, if any: this thread keeps none


def _no_query(execute, sql, params, many, context):
    raise RuntimeError("a viewpoint built aside reads no database: read it before, on a thread")
