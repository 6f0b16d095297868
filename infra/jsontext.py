"""JSON text for what the site sends and keeps: every table message and the game states kept
between moves. orjson writes a War view in about a seventh of the time json takes and reads a
state in about a third (bench/jsontext.py, docs/performance.md), on the path of every move;
its text is compact and UTF-8, which json.loads, browsers and programs read alike. Integer keys
are written as strings, as json writes them."""

from __future__ import annotations

from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(value: Any) -> str:
    return orjson.dumps(value, option=_OPTIONS).decode()


def encoded(value: Any) -> bytes:
    """The same text as UTF-8 bytes (what a socket or a database parameter sends)."""
    return orjson.dumps(value, option=_OPTIONS)


loads = orjson.loads
