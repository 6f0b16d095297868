"""The Gin computer player at each strength: Easy, Medium and Hard play by rules
(strategy.py), Expert searches the guessed hands (search.py)."""

from __future__ import annotations

import random
from typing import Any

from ...core import Action
from .search import expert, quick
from .strategy import choose, easy


def bot(view: dict[str, Any], legal: list[Action], rng: random.Random, strength: str) -> Action:
    """The computer player at ``strength`` (core.STRENGTHS)."""
    if strength == "easy":
        return easy(view, legal, rng)
    if strength == "hard":
        return quick(view, legal, rng)
    if strength == "expert":
        return expert(view, legal, rng)
    return choose(view, legal)
