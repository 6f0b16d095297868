"""The engine's sentences in the reader's language (the engine itself speaks English)."""

from __future__ import annotations

from typing import Any

from django.utils import translation

from .engine.text import Said


def in_language(text: str, language: str) -> str:
    """``text`` in ``language``: a Said through the catalogue with its params said the same
    way; a plain str looked up as it is (returned unchanged when the catalogue lacks it)."""
    if not isinstance(text, str) or not language or language.lower().startswith("en"):
        return text
    with translation.override(language):
        return _translated(text)


def _translated(text: str) -> str:
    if not isinstance(text, Said):
        return translation.gettext(text) if text else text
    # Only what the engine said is said again: a plain param (a player's name) stays as it is.
    params = {k: _translated(v) if isinstance(v, Said) else v for k, v in text.params.items()}
    if text.plural is not None:
        template = translation.ngettext(text.msgid, text.plural, text.n)
    else:
        template = translation.gettext(text.msgid)
    return template.format(**params) if params else template


def all_in_language(value: Any, language: str) -> Any:
    """A copy of a view, hint, result or event list (JSON data) with every Said in it said in
    ``language``; plain strings (card codes, names, keys) are left as they are."""
    if not language or language.lower().startswith("en"):
        return value
    with translation.override(language):
        return _all(value)


def _all(value: Any) -> Any:
    if isinstance(value, Said):
        return _translated(value)
    if isinstance(value, dict):
        return {k: _all(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_all(v) for v in value]
    return value
