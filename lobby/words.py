"""Sentences the lobby says to a person, written in English and said in the reader's language.

A sentence is marked where it is written (``say("Room %(code)s is full.", code=...)``, or
``gettext_noop`` for a fixed one) and stays English text there, so logs, tests and English
readers see it as before; it is translated only where it leaves for a person, by
``in_language`` under that person's language (a socket's ``self.language``)."""

from __future__ import annotations

from typing import Any

from django.utils import translation


class Said(str):
    """English text that can be said again in another language: its msgid and parameters."""

    msgid: str
    params: dict[str, Any]

    def __new__(cls, msgid: str, **params: Any) -> Said:
        text = super().__new__(cls, msgid % params if params else msgid)
        text.msgid, text.params = msgid, params
        return text


def say(msgid: str, **params: Any) -> Said:
    """The sentence `msgid` with its %(name)s parameters filled in, English until said."""
    return Said(msgid, **params)


def in_language(text: str, language: str) -> str:
    """`text` in `language`: a Said by its msgid and parameters, a plain string by looking it
    up as a msgid (unchanged when the catalogue doesn't have it)."""
    if not text:
        return text
    with translation.override(language):
        msgid = getattr(text, "msgid", None)
        if msgid is None:
            return translation.gettext(str(text))
        params = getattr(text, "params", {})
        said = translation.gettext(msgid)
        return said % params if params else said


def here(text: str) -> str:
    """`text` in the language active now (a page's: the request's)."""
    return in_language(text, translation.get_language() or "en")
