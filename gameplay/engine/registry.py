"""The only list of games. ``kinds()`` and ``get(kind)`` are the public contract."""

from __future__ import annotations

import importlib

from .core import Engine

# One line per game package in gameplay/engine/games/. Each package exports ``ENGINE``.
GAME_MODULES = [
    "gridcannon",
    "blackjack",
    "poker",
    "war",
    "klondike",
]

_engines: dict[str, Engine] = {}


def _load() -> None:
    if _engines:
        return
    for name in GAME_MODULES:
        engine = importlib.import_module(f"{__package__}.games.{name}").ENGINE
        _engines[engine.kind] = engine


def kinds() -> list[str]:
    """Sorted list of registered kinds."""
    _load()
    return sorted(_engines)


def get(kind: str) -> Engine:
    """The engine for ``kind``; KeyError for an unknown kind."""
    _load()
    return _engines[kind]
