"""Sentences for people, in English, that keep what they were made from.

The engine speaks English; a ``Said`` is that English sentence (a str, equal to it) which also
keeps its template (``msgid``, with ``{name}`` placeholders) and its ``params``, so the site
can say it again in another language (gameplay.text.in_language). It pickles, copies and
serialises as the plain English string: stored states and events stay plain data.
"""

from __future__ import annotations

from typing import Any


class Said(str):
    """An English sentence with its template and params (a param may itself be a Said)."""

    msgid: str
    params: dict[str, Any]
    plural: str | None
    n: int | None

    def __new__(
        cls,
        msgid: str,
        params: dict[str, Any] | None = None,
        plural: str | None = None,
        n: int | None = None,
    ) -> Said:
        params = dict(params or {})
        template = plural if plural is not None and n != 1 else msgid
        text = super().__new__(cls, template.format(**params) if params else template)
        text.msgid = msgid
        text.params = params
        text.plural = plural
        text.n = n
        return text

    def __reduce__(self):
        # Copies and pickles are the plain sentence: nothing stored depends on this class.
        return (str, (str(self),))

    def __deepcopy__(self, memo: dict) -> str:
        return str(self)

    def __copy__(self) -> str:
        return str(self)


def say(msgid: str, **params: Any) -> Said:
    """The sentence ``msgid`` with its ``{name}`` placeholders filled from ``params``."""
    return Said(msgid, params)


def say_n(singular: str, plural: str, n: int, **params: Any) -> Said:
    """``singular`` when n is 1, ``plural`` otherwise; ``n`` is also a param ({n})."""
    return Said(singular, {"n": n, **params}, plural=plural, n=n)


def stored(text: Any) -> Any:
    """A sentence as plain data for a state (which is stored as JSON): a Said becomes
    {"said": msgid, "params": {...}} (with "plural" and "n" when it has them), so it can be
    said again in any language after a reload; anything else is kept as it is."""
    if not isinstance(text, Said):
        return text
    data: dict[str, Any] = {
        "said": text.msgid,
        "params": {k: stored(v) for k, v in text.params.items()},
    }
    if text.plural is not None:
        data.update(plural=text.plural, n=text.n)
    return data


def restored(data: Any) -> Any:
    """The Said that ``stored`` kept (a plain string, as older states have, stays one)."""
    if not isinstance(data, dict) or "said" not in data:
        return data
    params = {k: restored(v) for k, v in data.get("params", {}).items()}
    return Said(data["said"], params, plural=data.get("plural"), n=data.get("n"))
