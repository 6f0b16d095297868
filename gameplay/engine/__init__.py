"""The game engines: pure Python, no Django, no I/O.

Every game is a module in ``games/`` with one ``Engine`` registered by its kind.
Nothing outside this package knows any game's rules.
"""

from .core import Engine, IllegalAction

__all__ = ["Engine", "IllegalAction", "registry"]

from . import registry  # noqa: E402  (registry imports the games, which import core)
