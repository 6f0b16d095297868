"""The patterns on a body (drawn inside its outline): one entry per pattern."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ...roster import SHADOW
from ..colour import TWO_COLOUR, darken, lighten
from ..suits import suit_symbol
from ..svg import num

if TYPE_CHECKING:
    from .painter import Painter, Part


def pattern(p: Painter) -> str:
    draw = PATTERNS[p.look.pattern]
    return draw(p) if draw is not None else ""


def _ink(p: Painter) -> str:
    return p.lit(p.accent, "#4b3a6e")


def _spots(p: Painter) -> str:
    """Up to seven spots, kept off the face."""
    w, h, rnd = p.w, p.h, p.rnd
    a, b = w / 2, h / 2
    fy = p.face_y + p.eye_r
    face = min(w, h) * 0.3 + p.eye_r
    out = []
    for _ in range(40):
        if len(out) == 7:
            break
        x = rnd.uniform(-a * 0.9, a * 0.9)
        y = rnd.uniform(-b * 0.8, b * 0.95)
        r = rnd.uniform(0.05, 0.1) * w
        if math.hypot(x / 1.25, y - fy) < face + r:
            continue
        out.append(
            f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(r)}" fill="{_ink(p)}" opacity="0.8"/>'
        )
    return "".join(out)


def _freckles(p: Painter) -> str:
    a, b = p.w / 2, p.h / 2
    out = []
    for _ in range(10):
        x = p.rnd.uniform(-a * 0.8, a * 0.8)
        y = p.rnd.uniform(-b * 0.8, b * 0.9)
        out.append(
            f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(p.w * 0.022)}" '
            f'fill="{darken(p.body, 0.35)}" opacity="0.7"/>'
        )
    return "".join(out)


def _stripes(p: Painter) -> str:
    a, b, h = p.w / 2, p.h / 2, p.h
    out = []
    for i in range(4):
        y = -b * 0.05 + i * h * 0.16
        out.append(
            f'<path d="M{num(-a)} {num(y)}Q0 {num(y + h * 0.08)} {num(a)} {num(y)}" fill="none" '
            f'stroke="{_ink(p)}" stroke-width="{num(h * 0.055)}" opacity="0.75"/>'
        )
    return "".join(out)


def _belly(p: Painter) -> str:
    a, b = p.w / 2, p.h / 2
    return (
        f'<ellipse cx="0" cy="{num(b * 0.5)}" rx="{num(a * 0.62)}" ry="{num(b * 0.55)}" '
        f'fill="{p.lit(lighten(_ink(p), 0.25), _ink(p))}" opacity="0.9"/>'
    )


def _suit(p: Painter) -> str:
    """A belly with the suit's symbol on it."""
    a, b, suit = p.w / 2, p.h / 2, p.cr.suit
    symbol = p.lit(TWO_COLOUR[suit], SHADOW["glow"])
    return (
        f'<ellipse cx="0" cy="{num(b * 0.72)}" rx="{num(a * 0.56)}" ry="{num(b * 0.5)}" '
        f'fill="{p.lit(lighten(_ink(p), 0.35), _ink(p))}"/>'
        + suit_symbol(suit, 0, b * 0.64, p.w * 0.22, symbol, ' opacity="0.85"')
    )


def _scales(p: Painter) -> str:
    """Five rows of half-circles, each row shifted by half a scale."""
    a, b = p.w / 2, p.h / 2
    r = p.w * 0.075
    out = []
    for row in range(5):
        y = b * 0.02 + row * r * 1.3
        x = -a + (r if row % 2 else 0)
        while x < a + r:
            out.append(
                f'<path d="M{num(x - r)} {num(y)}A{num(r)} {num(r)} 0 0 0 {num(x + r)} {num(y)}" '
                f'fill="none" stroke="{_ink(p)}" stroke-width="2.2" opacity="0.8"/>'
            )
            x += 2 * r
    return "".join(out)


def _cracks(p: Painter) -> str:
    a, b, rnd = p.w / 2, p.h / 2, p.rnd
    colour = p.lit(darken(p.body, 0.4), "#5b3f8a")
    out = []
    for _ in range(3):
        x = rnd.uniform(-a * 0.7, a * 0.7)
        y = rnd.uniform(-b * 0.1, b * 0.7)
        d = f"M{num(x)} {num(y)}"
        for _ in range(3):
            x += rnd.uniform(-9, 9)
            y += rnd.uniform(5, 11)
            d += f"L{num(x)} {num(y)}"
        out.append(
            f'<path d="{d}" fill="none" stroke="{colour}" stroke-width="2.4" '
            f'stroke-linecap="round" opacity="0.8"/>'
        )
    return "".join(out)


def _facets(p: Painter) -> str:
    """Glints of a cut gem, and two facet edges."""
    a, b, w = p.w / 2, p.h / 2, p.w
    out = []
    for x, y in [(p.rnd.uniform(-a, a), p.rnd.uniform(-b, b)) for _ in range(5)]:
        s = w * 0.16
        out.append(
            f'<path d="M{num(x)} {num(y - s)}L{num(x + s * 0.7)} {num(y)}L{num(x)} {num(y + s)}'
            f'L{num(x - s * 0.7)} {num(y)}Z" fill="#ffffff" opacity="0.18"/>'
        )
    out.append(
        f'<path d="M{num(-a)} {num(-b * 0.1)}L{num(-a * 0.2)} {num(b * 0.3)}L{num(a)} '
        f'{num(-b * 0.2)}M{num(-a * 0.2)} {num(b * 0.3)}L{num(-a * 0.1)} {num(b)}" fill="none" '
        f'stroke="#ffffff" stroke-width="1.8" opacity="0.35"/>'
    )
    return "".join(out)


def _patches(p: Painter) -> str:
    a, b = p.w / 2, p.h / 2
    return (
        f'<ellipse cx="{num(a * 0.5)}" cy="{num(-b * 0.45)}" rx="{num(a * 0.42)}" '
        f'ry="{num(b * 0.34)}" fill="{darken(p.body, 0.25)}" opacity="0.85"/>'
        f'<ellipse cx="0" cy="{num(b * 0.55)}" rx="{num(a * 0.55)}" ry="{num(b * 0.5)}" '
        f'fill="{lighten(_ink(p), 0.2)}"/>'
    )


PATTERNS: dict[str, Part | None] = {
    "none": None,
    "spots": _spots,
    "freckles": _freckles,
    "stripes": _stripes,
    "belly": _belly,
    "suit": _suit,
    "scales": _scales,
    "cracks": _cracks,
    "facets": _facets,
    "patches": _patches,
}
