"""The game engines: pure Python, no Django, no I/O.

Every game is a package in ``games/<kind>/`` with one ``Engine`` registered by its kind
(``registry.GAME_MODULES``). Nothing outside this package knows any game's rules.
"""

from .core import MEDIUM, STRENGTHS, Engine, IllegalAction

__all__ = ["MEDIUM", "STRENGTHS", "Engine", "IllegalAction", "registry"]

from . import registry  # noqa: E402  (registry imports the games, which import core)
