"""The header's Kudos slot as HTML, drawn once per process for each language and set of facts
shown (most pages show the same balance, streak and level as the page before): every page a
signed-in player opens has it, and the header's socket sends it anew after each change."""

from __future__ import annotations

import functools

from django.template.loader import render_to_string
from django.utils import translation


def drawn(kudos, live: bool = False) -> str:
    """``kudos`` as ``selectors.header`` gives it. A slot with news, a badge or a bonus event
    (whose time left moves) is drawn each time."""
    if kudos.get("news") or kudos.get("badge") or kudos.get("event"):
        return _draw(kudos, live)
    try:
        facts = tuple(sorted((k, v) for k, v in kudos.items() if k != "level"))
        level = tuple(sorted(kudos["level"].items()))
        return _kept(translation.get_language(), live, facts, level)
    except TypeError:  # a fact that can't be a key: draw it
        return _draw(kudos, live)


@functools.lru_cache(maxsize=4096)
def _kept(language: str, live: bool, facts: tuple, level: tuple) -> str:
    with translation.override(language):
        return _draw({**dict(facts), "level": dict(level)}, live)


def _draw(kudos, live: bool) -> str:
    return render_to_string("kudos/slot.html", {"kudos": kudos, "live": live})
