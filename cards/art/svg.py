"""What every drawing shares: the card's size, numbers written short, the font, the seeded
randomness of small touches, and the card's outer sheet."""

from __future__ import annotations

import random
from xml.sax.saxutils import escape

W, H = 250, 350

FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"


def num(v: float) -> str:
    """A short number for SVG attributes."""
    s = f"{v:.1f}"
    if s.endswith(".0"):
        s = s[:-2]
    return "0" if s == "-0" else s


def art_rng(key: str) -> random.Random:
    """The only randomness of the art, so every drawing is the same on every machine."""
    return random.Random("art/" + key)


def card_sheet(uid: str, title: str, content: str) -> str:
    """A whole card: the SVG document, its title and the cream card with ``content`` on it."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}" '
        f'role="img" aria-labelledby="{uid}-title">'
        f'<title id="{uid}-title">{escape(title)}</title>'
        f'<rect x="1" y="1" width="{W - 2}" height="{H - 2}" rx="18" fill="#fffdf6" '
        f'stroke="#cfc6b4" stroke-width="2"/>{content}</svg>'
    )
