"""The only list of games. ``kinds()`` and ``get(kind)`` are the public contract."""

from __future__ import annotations

import gc
import importlib
import threading

from .core import Engine

# One line per game package in gameplay/engine/games/. Each package exports ``ENGINE``, or
# ``ENGINES`` when one package plays several kinds.
GAME_MODULES = [
    "gridcannon",
    "shedding",
    "blackjack",
    "poker",
    "war",
    "klondike",
    "cardice",
    "gin",
    "thirteen",
]

_engines: dict[str, Engine] = {}
_loading = threading.Lock()


def _load() -> None:
    # Filled whole or not at all: a server's first requests arrive on several threads at
    # once, and one must never see the list half made (KeyError: 'war').
    if _engines:
        return
    with _loading:
        if _engines:
            return
        loaded = {}
        for name in GAME_MODULES:
            module = importlib.import_module(f"{__package__}.games.{name}")
            for engine in getattr(module, "ENGINES", None) or (module.ENGINE,):
                loaded[engine.kind] = engine
        _engines.update(loaded)


def kinds() -> list[str]:
    """Sorted list of registered kinds."""
    _load()
    return sorted(_engines)


def get(kind: str) -> Engine:
    """The engine for ``kind``; KeyError for an unknown kind."""
    _load()
    return _engines[kind]


def warm_up() -> None:
    """Ready this process to play computer turns: every game's computer-player tables built
    now (``Engine.warm_up``), so that no move pays for a table, and then everything it holds
    by then (its modules, those tables; in a worker, Django's and Celery's too) frozen out of
    the garbage collector's full collections (``gc.freeze``). A full collection walks every
    object it tracks; in a worker that was some 130,000 objects and 65-80 ms of CPU, paid by
    whichever move set it off. A process that plays computer turns (the Celery worker) calls
    this as it starts, and the ladder before it times a move."""
    for kind in kinds():
        get(kind).warm_up()
    gc.collect()  # what is garbage now is not frozen
    gc.freeze()
