"""The shedding games' computer player at each strength: Easy and Medium play by rules
(strategy.py), Hard adds memory of what the table showed (strategy.py), Expert deals the
unseen cards and searches from Hard's move (search.py)."""

from __future__ import annotations

import random
from typing import Any

from ...core import Action
from .search import expert
from .strategy import choose, easy, hard


def bot(engine, view: dict[str, Any], legal: list[Action], rng: random.Random, strength: str):
    """The computer player at ``strength`` (core.STRENGTHS) for ``engine``'s rules."""
    if strength == "easy":
        return easy(view, legal, rng)
    if strength == "hard":
        return hard(view, legal)
    if strength == "expert":
        return expert(engine, view, legal, rng)
    return choose(view, legal)
