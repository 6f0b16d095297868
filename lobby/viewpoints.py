"""Render once per viewpoint: what a table shows from one seat (or from the spectators' side)
at one state is worked out once per process and shared by every connection that sees it.

A table's spectators all see seat None's view, a player's second tab sees the first tab's,
and the room page sees what its socket will: each used to redo the engine's view, the legal
actions and the seat header (three queries) per connection. The key holds the game row's
`seq` and `updated`, which every write to the row moves (an action, a seat changing hands,
Speed Play), so an entry never outlives what it describes. Entries are shared: read them,
never change them."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

SIZE = 2048  # viewpoints kept per process: a few per live table is plenty

_parts: OrderedDict[tuple, dict[str, Any]] = OrderedDict()
_lock = threading.Lock()


def shared(room, game, seat: int | None, build: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """The table part for `seat` at `game`'s current state, built by `build` at most once."""
    key = (room.pk, game.pk, game.seed_hash, game.seq, game.updated, seat)
    with _lock:
        part = _parts.get(key)
        if part is not None:
            _parts.move_to_end(key)
            return part
    part = build()  # outside the lock: two first viewers may both build, never wrongly
    with _lock:
        _parts[key] = part
        while len(_parts) > SIZE:
            _parts.popitem(last=False)
    return part
