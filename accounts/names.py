"""Usernames that can't pass for someone else's: no mixed alphabets ("аdmin" with a Cyrillic
а), and none that looks like an existing name once folded to its skeleton.

A skeleton follows Unicode's confusable detection (UTS #39): each character is replaced by the
prototype it is confused with (Cyrillic а → a, 1 → l, 0 → O, m → rn, ...) using the
`confusable_homoglyphs` package's table of Unicode's confusables.txt, and case is folded, so
"аdmin", "Admin" and "adrnin" share the skeleton of "admin".
"""

from __future__ import annotations

import json
import unicodedata
from functools import cache
from pathlib import Path

import confusable_homoglyphs
from confusable_homoglyphs import categories
from django.utils.translation import gettext


@cache
def _prototypes() -> dict[str, str]:
    """character → the prototype it is confusable with (confusables.json lists, for a source
    character, its one prototype, and for a prototype, all its sources)."""
    path = Path(confusable_homoglyphs.__file__).with_name("confusables.json")
    table = json.loads(path.read_text(encoding="utf-8"))
    strip = lambda s: s.replace("\u200e", "").replace("\u200f", "")  # noqa: E731 (bidi marks)
    proto = {}
    for char, glyphs in table.items():
        if len(glyphs) == 1:
            proto[char] = strip(glyphs[0]["c"])
    for char, target in list(proto.items()):
        if proto.get(target) == char:  # each listed as the other's only glyph: pick one
            proto[char] = proto[target] = min(char, target)
    return proto


def skeleton(name: str) -> str:
    proto = _prototypes()
    folded = unicodedata.normalize("NFKC", name).casefold()
    for _ in range(2):  # a prototype may have a prototype once case is folded (0 → O → o)
        folded = "".join(proto.get(c, c) for c in folded).casefold()
    return folded


def scripts(name: str) -> list[str]:
    """The alphabets a name's letters come from (digits and punctuation belong to none)."""
    found = []
    for char in name:
        script = categories.alias(char)
        if script not in ("COMMON", "INHERITED") and script not in found:
            found.append(script)
    return found


def problem(name: str, taken) -> str | None:
    """Why a new username can't be had, or None. `taken(key)` says whether an existing
    account has that skeleton."""
    alphabets = scripts(name)
    if len(alphabets) > 1:
        mixed = gettext(" and ").join(a.title() for a in alphabets[:2])
        return gettext(
            "A username takes its letters from one alphabet: this one mixes %(mixed)s."
        ) % {"mixed": mixed}
    if taken(skeleton(name)):
        return gettext("That username looks too much like an existing player's. Try another one.")
    return None
