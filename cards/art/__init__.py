"""Card faces, backs and badges drawn as SVG, from code.

Everything here is deterministic: the only randomness is a RNG seeded from the card string
(``random.Random("art/" + card)``), used for small touches such as where the spots and the
background stars go. No outside image or font is used: suit symbols are SVG paths, text uses
generic font families.

Public API: ``card_svg(card, four_colour=False, back="classic")``; ``"??"`` gives the back.

One module per thing drawn: ``faces``, ``backs``, ``badges``, ``logo``, the creatures in
``creature/``; with ``suits`` (symbols and motifs), ``colour`` and ``svg`` (shared basics).
Styles are tables (a back, an eye, a tail... is one entry), so a new one is one more entry.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from gameplay.engine import cards as c

from .. import roster
from .backs import BACK_NAMES, BACKS, DEFAULT_BACK, back_svg
from .badges import BADGE_RINGS, badge_svg
from .colour import FOUR_COLOUR, INK, TWO_COLOUR
from .faces import face_svg
from .logo import amic_logo
from .suits import SUIT_PATHS, suit_symbol

__all__ = [
    "ART_VERSION", "BACK_NAMES", "BACKS", "BADGE_RINGS", "DEFAULT_BACK", "FOUR_COLOUR", "INK",
    "SUIT_PATHS", "TWO_COLOUR", "amic_logo", "badge_svg", "card_svg", "suit_symbol",
]  # fmt: skip


def _art_version() -> str:
    """Changes whenever the drawing code or the roster changes (for cache-busting URLs)."""
    digest = hashlib.sha256()
    here = Path(__file__).parent
    for path in [*sorted(here.rglob("*.py")), Path(roster.__file__)]:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:10]


ART_VERSION = _art_version()


@lru_cache(maxsize=512)
def card_svg(card: str, four_colour: bool = False, back: str = DEFAULT_BACK) -> str:
    """The SVG of one card (``"??"``: the back named ``back``).

    Raises ``ValueError`` for a card string or back name that does not exist.
    """
    if back not in BACKS:
        raise ValueError(f"unknown card back: {back!r}")
    if card == c.HIDDEN:
        return back_svg(back)
    if not c.is_card(card):
        raise ValueError(f"not a card: {card!r}")
    return face_svg(card, bool(four_colour))
