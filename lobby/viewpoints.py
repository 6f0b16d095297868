"""Render once per viewpoint: what a table shows from one seat (or from the spectators' side)
at one state is worked out once per process and shared by every connection that sees it.

A table's spectators all see seat None's view, a player's second tab sees the first tab's,
and the room page sees what its socket will: each used to redo the engine's view, the legal
actions and the seat header (three queries) per connection. A seat's view is keyed by the
game row's `seq` and `updated`, which every write to the row moves (an action, a seat changing
hands, Speed Play); the room's wins only change when a game ends, so they are keyed by the
game's status. No entry outlives what it describes. Entries are shared: read them, never
change them."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

SIZE = 2048  # viewpoints kept per process: a few per live table is plenty

_parts: OrderedDict[tuple, Any] = OrderedDict()
_lock = threading.Lock()


def kept(key: tuple) -> Any | None:
    """What is kept for `key`, or None."""
    with _lock:
        part = _parts.get(key)
        if part is not None:
            _parts.move_to_end(key)
        return part


def shared(key: tuple, build: Callable[[], Any]) -> Any:
    """What `build` gives for `key`, built at most once while the key is kept. A key names
    everything the value depends on (see the callers in lobby.tables)."""
    with _lock:
        part = _parts.get(key, _parts)
        if part is not _parts:
            _parts.move_to_end(key)
            return part
    part = build()  # outside the lock: two first viewers may both build, never wrongly
    with _lock:
        _parts[key] = part
        while len(_parts) > SIZE:
            _parts.popitem(last=False)
    return part
