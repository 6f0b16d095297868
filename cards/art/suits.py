"""The suits: their symbols (SVG paths, no font needed) and each family's small background
motifs."""

from __future__ import annotations

import random
from collections.abc import Callable

from .svg import num

# Paths in a 100 x 100 box.
_HEART = (
    "M50 93C21 69 4 51 4 30C4 15 15 5 28 5C38 5 45 10 50 19C55 10 62 5 72 5"
    "C85 5 96 15 96 30C96 51 79 69 50 93Z"
)
_SPADE = (
    "M50 3C60 20 96 38 96 60C96 74 86 82 74 82C65 82 58 78 54 71C55 81 59 89 67 97H33"
    "C41 89 45 81 46 71C42 78 35 82 26 82C14 82 4 74 4 60C4 38 40 20 50 3Z"
)
_DIAMOND = "M50 2C61 20 74 36 91 50C74 64 61 80 50 98C39 80 26 64 9 50C26 36 39 20 50 2Z"
_CLUB = (
    "M50 5A21 21 0 0 1 66 40A21 21 0 1 1 56 75C58 84 62 90 69 97H31C38 90 42 84 44 75"
    "A21 21 0 1 1 34 40A21 21 0 0 1 50 5Z"
)
_BELL = (
    "M50 4A6 6 0 0 1 56 10V13C71 16 77 30 77 47C77 62 81 71 92 79V86H8V79C19 71 23 62 23 47"
    "C23 30 29 16 44 13V10A6 6 0 0 1 50 4Z"
    "M40 89H60A10 10 0 0 1 40 89Z"
)
SUIT_PATHS = {"S": _SPADE, "H": _HEART, "D": _DIAMOND, "C": _CLUB, "B": _BELL}


def suit_symbol(suit: str, x: float, y: float, size: float, fill: str, extra: str = "") -> str:
    """The suit symbol centred on (x, y), ``size`` wide."""
    s = size / 100
    return (
        f'<path transform="translate({num(x - size / 2)} {num(y - size / 2)}) scale({s:.3f})" '
        f'd="{SUIT_PATHS[suit]}" fill="{fill}"{extra}/>'
    )


# ---- motifs: one small decoration at (x, y), about r across -----------------------------------


def _twinkle(x: float, y: float, r: float, colour: str, rnd: random.Random) -> str:
    k = r * 0.28
    return (
        f'<path d="M{num(x)} {num(y - r)}Q{num(x + k)} {num(y - k)} {num(x + r)} {num(y)}'
        f"Q{num(x + k)} {num(y + k)} {num(x)} {num(y + r)}Q{num(x - k)} {num(y + k)} "
        f"{num(x - r)} {num(y)}Q{num(x - k)} {num(y - k)} {num(x)} {num(y - r)}Z"
        f'" fill="{colour}"/>'
    )


def _ember(x: float, y: float, r: float, colour: str, rnd: random.Random) -> str:
    return (
        f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(r * 0.45)}" fill="{colour}"/>'
        f'<circle cx="{num(x + r * 0.9)}" cy="{num(y - r * 0.8)}" r="{num(r * 0.2)}" '
        f'fill="{colour}"/>'
    )


def _bubble(x: float, y: float, r: float, colour: str, rnd: random.Random) -> str:
    return (
        f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(r * 0.6)}" fill="none" stroke="{colour}" '
        f'stroke-width="2.2"/>'
        f'<circle cx="{num(x - r * 0.2)}" cy="{num(y - r * 0.22)}" r="{num(r * 0.12)}" '
        f'fill="{colour}"/>'
    )


def _leaf(x: float, y: float, r: float, colour: str, rnd: random.Random) -> str:
    rot = rnd.randrange(0, 360)
    return (
        f'<path transform="rotate({rot} {num(x)} {num(y)})" d="M{num(x - r)} {num(y)}'
        f"Q{num(x)} {num(y - r * 0.9)} {num(x + r)} {num(y)}"
        f'Q{num(x)} {num(y + r * 0.9)} {num(x - r)} {num(y)}Z" fill="{colour}"/>'
    )


def _note(x: float, y: float, r: float, colour: str, rnd: random.Random) -> str:
    head_y = y + r * 0.55
    return (
        f'<ellipse cx="{num(x)}" cy="{num(head_y)}" rx="{num(r * 0.42)}" ry="{num(r * 0.3)}" '
        f'transform="rotate(-20 {num(x)} {num(head_y)})" fill="{colour}"/>'
        f'<path d="M{num(x + r * 0.36)} {num(y + r * 0.5)}V{num(y - r * 0.9)}'
        f'Q{num(x + r * 0.6)} {num(y - r * 0.4)} {num(x + r * 1.0)} {num(y - r * 0.35)}" '
        f'fill="none" stroke="{colour}" stroke-width="{num(max(1.6, r * 0.16))}" '
        f'stroke-linecap="round"/>'
    )


_MOTIFS: dict[str, Callable[[float, float, float, str, random.Random], str]] = {
    "S": _twinkle,  # night: twinkling stars
    "H": _ember,  # fire: embers
    "D": _bubble,  # sea: bubbles
    "C": _leaf,  # forest: little leaves
    "B": _note,  # bell tower: music notes
}


def motif(suit: str, x: float, y: float, r: float, colour: str, rnd: random.Random) -> str:
    """One small background decoration in the suit's family style."""
    return _MOTIFS[suit](x, y, r, colour, rnd)
