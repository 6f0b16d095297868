"""The body: its outline per shape, its shading, and the shadow on the ground."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from ..colour import darken, lighten
from ..svg import num
from . import patterns
from .limbs import FLOATING

if TYPE_CHECKING:
    from .painter import Painter


@dataclass(frozen=True)
class Body:
    size: tuple[float, float]  # usual (width, height), before the roster's factors
    outline: Callable[[float, float], str]  # the path around (0, 0), for a width and height
    head: float = 0.5  # the top of the head above the centre, as a share of the height
    head_dip: float = 0  # how far below that the features sit (a drop's tip is thin)
    face: float | None = None  # where the eyes sit, as a share of the height (None: usual)
    hem: float = 0.5  # where the back feet join, as a share of the height
    straight_sides: bool = False


def _ellipse(w: float, h: float) -> str:
    a, b = w / 2, h / 2
    return f"M{num(-a)} 0A{num(a)} {num(b)} 0 1 1 {num(a)} 0A{num(a)} {num(b)} 0 1 1 {num(-a)} 0Z"


def _teardrop(w: float, h: float, top: float, mid: float, bulge: float) -> str:
    """Egg, pear and drop: round below, narrowing to the top as ``top``, ``mid`` and ``bulge``
    say (the curve's handles, as shares of the half width and half height)."""
    a, b = w / 2, h / 2
    pts = [
        (0, -b),
        (a * top, -b), (a, b * mid), (a, b * bulge),
        (a, b * 0.72), (a * 0.55, b), (0, b),
    ]  # fmt: skip
    (x0, y0), (c1x, c1y), (c2x, c2y), (x1, y1), (c3x, c3y), (c4x, c4y), (x2, y2) = pts
    return (
        f"M{num(x0)} {num(y0)}C{num(c1x)} {num(c1y)} {num(c2x)} {num(c2y)} {num(x1)} {num(y1)}"
        f"C{num(c3x)} {num(c3y)} {num(c4x)} {num(c4y)} {num(x2)} {num(y2)}"
        f"C{num(-c4x)} {num(c4y)} {num(-c3x)} {num(c3y)} {num(-x1)} {num(y1)}"
        f"C{num(-c2x)} {num(c2y)} {num(-c1x)} {num(c1y)} {num(x0)} {num(y0)}Z"
    )


def _rounded_box(w: float, h: float, radius: Callable[[float, float], float]) -> str:
    a, b, r = w / 2, h / 2, radius(w, h)
    return (
        f"M{num(-a + r)} {num(-b)}H{num(a - r)}A{num(r)} {num(r)} 0 0 1 {num(a)} {num(-b + r)}"
        f"V{num(b - r)}A{num(r)} {num(r)} 0 0 1 {num(a - r)} {num(b)}H{num(-a + r)}"
        f"A{num(r)} {num(r)} 0 0 1 {num(-a)} {num(b - r)}V{num(-b + r)}"
        f"A{num(r)} {num(r)} 0 0 1 {num(-a + r)} {num(-b)}Z"
    )


def _dome(w: float, h: float) -> str:
    """A dome standing on a scalloped hem."""
    a, b = w / 2, h / 2
    base = b * 0.62
    d = (
        f"M{num(-a)} {num(base)}C{num(-a)} {num(-b * 1.35)} {num(a)} {num(-b * 1.35)} "
        f"{num(a)} {num(base)}"
    )
    n = 5
    for i in range(n):
        x0 = a - (i + 1) * w / n
        d += f"Q{num(x0 + w / n / 2)} {num(base + b * 0.4)} {num(x0)} {num(base)}"
    return d + "Z"


def _ghost(w: float, h: float) -> str:
    """A round head over a wavy hem."""
    a, b = w / 2, h / 2
    r = a
    top = -b + r
    d = f"M{num(-a)} {num(top)}A{num(r)} {num(r)} 0 0 1 {num(a)} {num(top)}V{num(b * 0.8)}"
    n = 3
    for i in range(n):
        x0 = a - (i + 1) * w / n
        d += f"Q{num(x0 + w / n * 0.75)} {num(b * 1.12)} {num(x0 + w / n / 2)} {num(b * 0.86)}"
        d += f"Q{num(x0 + w / n * 0.25)} {num(b * 0.6)} {num(x0)} {num(b * 0.8)}"
    return d + "Z"


def _star(w: float, h: float) -> str:
    """An ellipse with eleven soft points."""
    a, b = w / 2, h / 2
    n = 11
    d = ""
    for i in range(n):
        t0 = -math.pi / 2 + i * 2 * math.pi / n
        t1 = t0 + math.pi / n
        t2 = t0 + 2 * math.pi / n
        ox, oy = a * math.cos(t0), b * math.sin(t0)
        ix, iy = a * 0.8 * math.cos(t1), b * 0.8 * math.sin(t1)
        nx, ny = a * math.cos(t2), b * math.sin(t2)
        if i == 0:
            d += f"M{num(ox)} {num(oy)}"
        d += f"Q{num(ix)} {num(iy)} {num(nx)} {num(ny)}"
    return d + "Z"


BODIES = {
    "round": Body((112, 106), _ellipse),
    "egg": Body((102, 118), partial(_teardrop, top=0.72, mid=-0.35, bulge=0.12)),
    "pear": Body((106, 120), partial(_teardrop, top=0.5, mid=-0.15, bulge=0.22)),
    "drop": Body(
        (102, 118), partial(_teardrop, top=0.12, mid=-0.1, bulge=0.2), head_dip=6, face=0.02
    ),
    "block": Body(
        (112, 102), partial(_rounded_box, radius=lambda w, h: 0.3 * min(w, h)), straight_sides=True
    ),
    "bean": Body(
        (128, 92), partial(_rounded_box, radius=lambda w, h: 0.48 * h), straight_sides=True
    ),
    "tall": Body(
        (92, 130), partial(_rounded_box, radius=lambda w, h: 0.46 * w), straight_sides=True
    ),
    "dome": Body((122, 96), _dome, head=0.475, face=-0.05, hem=0.31),
    "ghost": Body((102, 118), _ghost, straight_sides=True),
    "star": Body((112, 112), _star),
}


def ground(p: Painter) -> str:
    """The shadow on the ground, further down under a creature that floats."""
    floating = p.look.feet == FLOATING
    y = p.h / 2 + (24 if floating else 10)
    rx = p.w * (0.36 if floating else 0.48)
    op = 0.22 if p.shadow else 0.13
    return (
        f'<ellipse cx="0" cy="{num(y)}" rx="{num(rx)}" ry="{num(rx * 0.16)}" fill="#000000" '
        f'opacity="{op}"/>'
    )


def shape(p: Painter) -> str:
    """The body: shaded, with its pattern and a sheen kept inside it, then its outline."""
    gid, cid = f"{p.uid}-body", f"{p.uid}-clip"
    d = BODIES[p.look.body].outline(p.w, p.h)
    top, bot = p.lit(lighten(p.body, 0.16), "#3a2a55"), p.lit(darken(p.body, 0.14), "#1a1226")
    defs = (
        f'<defs><linearGradient id="{gid}" x1="0" y1="0" x2="0" y2="1">'
        f'<stop offset="0" stop-color="{top}"/><stop offset="1" stop-color="{bot}"/>'
        f'</linearGradient><clipPath id="{cid}"><path d="{d}"/></clipPath></defs>'
    )
    fill = f'<path d="{d}" fill="url(#{gid})"/>'
    inside = f'<g clip-path="url(#{cid})">{patterns.pattern(p)}{_sheen(p)}</g>'
    outline = (
        f'<path d="{d}" fill="none" stroke="{p.line}" stroke-width="{p.sw + 0.6}" '
        f'stroke-linejoin="round"/>'
    )
    return defs + fill + inside + outline


def _sheen(p: Painter) -> str:
    w, h = p.w, p.h
    op = 0.16 if p.shadow else 0.38
    return (
        f'<ellipse cx="{num(-w * 0.2)}" cy="{num(-h * 0.27)}" rx="{num(w * 0.15)}" '
        f'ry="{num(h * 0.07)}" transform="rotate(-28 {num(-w * 0.2)} {num(-h * 0.27)})" '
        f'fill="#ffffff" opacity="{op}"/>'
    )
