"""How long each game lasts against the computer, as bench/durations.py measured it (kept in
lengths.json beside this module): the home page's tiles offer each length with its minutes."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from django.utils.translation import gettext_lazy as _

DATA = Path(__file__).with_name("lengths.json")
TITLES = {"quick": _("Quick"), "classic": _("Classic")}


@cache
def _measured() -> dict:
    return json.loads(DATA.read_text())["kinds"] if DATA.exists() else {}


def about_minutes(minutes: float) -> int:
    """A median in minutes as a tile says it: whole minutes, at least 1."""
    return max(1, round(minutes))


def offered(engine) -> list[dict]:
    """The lengths a game's tile offers, Quick first where the game has one: each with its
    title ("Quick", "Classic"; none where the game has one length), the rule options it plays
    (JSON, for the play form) and its measured minutes (None where it was never measured)."""
    measured = _measured().get(engine.kind, {}).get("lengths", {})
    names = (["quick"] if engine.quick else []) + ["classic"]
    rules = {"quick": engine.quick or {}, "classic": {}}
    return [
        {
            "name": name if len(names) > 1 else "only",
            "title": TITLES[name] if len(names) > 1 else "",
            "rules": json.dumps(rules[name]) if rules[name] else "",
            "minutes": about_minutes(measured[name]["median_minutes"])
            if name in measured
            else None,
        }
        for name in names
    ]
