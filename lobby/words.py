"""Sentences the lobby says to a person, written in English and said in the reader's language.

A sentence is marked where it is written (``say("Room {code} is full.", code=...)``: a
gameplay Said, or ``gettext_noop`` for a fixed one) and stays English text there, so logs,
tests and English readers see it as before; it is translated only where it leaves for a
person, by ``in_language`` under that person's language (a socket's ``self.language``)."""

from __future__ import annotations

from django.utils import translation

from gameplay.engine.text import Said, say
from gameplay.text import all_in_language, in_language

__all__ = ["Said", "all_in_language", "here", "in_language", "say"]


def here(text: str) -> str:
    """`text` in the language active now (a page's: the request's)."""
    return in_language(text, translation.get_language() or "en")
