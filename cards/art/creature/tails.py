"""Tails, one entry per style, all growing from the right of the body's lower half."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...roster import SHADOW
from ..colour import lighten
from ..svg import num

if TYPE_CHECKING:
    from .painter import Painter


@dataclass(frozen=True)
class Tail:
    draw: Callable[[Painter, float, float], str] | None  # (painter, root x, root y)
    reach: float = 50  # how far right of the root it goes, in units of s


def tail(p: Painter) -> str:
    draw = TAILS[p.look.tail].draw
    return draw(p, p.w * 0.38, p.h * 0.22) if draw is not None else ""


def _colour(p: Painter) -> str:
    return p.lit(p.body, "#2e2244")


def _flame(p: Painter, x0: float, y0: float) -> str:
    s = p.s
    return p.flame(x0 + 22 * s, y0 - 18 * s, 26 * s, 44 * s, rotate=35)


def _fish(p: Painter, x0: float, y0: float) -> str:
    s = p.s
    d = (
        f"M{num(x0 - 4 * s)} {num(y0 - 4 * s)}Q{num(x0 + 18 * s)} {num(y0)} {num(x0 + 34 * s)} "
        f"{num(y0 - 20 * s)}Q{num(x0 + 30 * s)} {num(y0 + 4 * s)} {num(x0 + 38 * s)} "
        f"{num(y0 + 22 * s)}Q{num(x0 + 18 * s)} {num(y0 + 8 * s)} {num(x0 - 4 * s)} "
        f"{num(y0 + 12 * s)}Z"
    )
    return p.part(d, p.lit(p.accent, "#3a2a55"))


def _leaf(p: Painter, x0: float, y0: float) -> str:
    """A leaf standing up, its tip in the accent colour."""
    s = p.s
    d = (
        f"M{num(x0 - 6 * s)} {num(y0 + 8 * s)}C{num(x0 + 40 * s)} {num(y0 + 12 * s)} "
        f"{num(x0 + 50 * s)} {num(y0 - 40 * s)} {num(x0 + 26 * s)} {num(y0 - 62 * s)}"
        f"C{num(x0 + 30 * s)} {num(y0 - 30 * s)} {num(x0 + 10 * s)} {num(y0 - 8 * s)} "
        f"{num(x0 - 6 * s)} {num(y0 - 6 * s)}Z"
    )
    tip = (
        f"M{num(x0 + 26 * s)} {num(y0 - 62 * s)}C{num(x0 + 40 * s)} {num(y0 - 52 * s)} "
        f"{num(x0 + 44 * s)} {num(y0 - 40 * s)} {num(x0 + 42 * s)} {num(y0 - 30 * s)}"
        f"C{num(x0 + 34 * s)} {num(y0 - 36 * s)} {num(x0 + 30 * s)} {num(y0 - 46 * s)} "
        f"{num(x0 + 26 * s)} {num(y0 - 62 * s)}Z"
    )
    return p.part(d, _colour(p)) + p.part(tip, p.lit(lighten(p.accent, 0.1), "#3a2a55"))


def _curl(p: Painter, x0: float, y0: float) -> str:
    s = p.s
    d = (
        f"M{num(x0 - 6 * s)} {num(y0 + 10 * s)}C{num(x0 + 30 * s)} {num(y0 + 14 * s)} "
        f"{num(x0 + 40 * s)} {num(y0 - 20 * s)} {num(x0 + 24 * s)} {num(y0 - 26 * s)}"
        f"C{num(x0 + 12 * s)} {num(y0 - 30 * s)} {num(x0 + 8 * s)} {num(y0 - 14 * s)} "
        f"{num(x0 + 18 * s)} {num(y0 - 12 * s)}"
    )
    return p.tube(d, 13 * s, 7.5 * s, _colour(p))


def _spiky(p: Painter, x0: float, y0: float) -> str:
    """A tail with three spikes along it and an arrow tip."""
    s, spike = p.s, p.lit(p.accent, "#4a3868")
    d = (
        f"M{num(x0 - 6 * s)} {num(y0 - 6 * s)}Q{num(x0 + 30 * s)} {num(y0 + 4 * s)} "
        f"{num(x0 + 48 * s)} {num(y0 - 26 * s)}L{num(x0 + 52 * s)} {num(y0 - 12 * s)}"
        f"Q{num(x0 + 34 * s)} {num(y0 + 20 * s)} {num(x0 - 6 * s)} {num(y0 + 14 * s)}Z"
    )
    spikes = "".join(
        p.part(
            f"M{num(x0 + px * s)} {num(y0 + py * s)}l{num(4 * s)} {num(-12 * s)}l{num(6 * s)} "
            f"{num(10 * s)}Z",
            spike,
        )
        for px, py in ((10, -2), (24, -4), (36, -12))
    )
    tip = p.part(
        f"M{num(x0 + 44 * s)} {num(y0 - 22 * s)}l{num(18 * s)} {num(-14 * s)}l{num(-4 * s)} "
        f"{num(22 * s)}Z",
        spike,
    )
    return spikes + p.part(d, _colour(p)) + tip


def _stem(p: Painter, x0: float, y0: float) -> str:
    """A thin tail curling up, ending at (x0 + 30 s, y0 - 44 s)."""
    s = p.s
    d = (
        f"M{num(x0 - 6 * s)} {num(y0 + 8 * s)}C{num(x0 + 30 * s)} {num(y0 + 10 * s)} "
        f"{num(x0 + 34 * s)} {num(y0 - 30 * s)} {num(x0 + 30 * s)} {num(y0 - 44 * s)}"
    )
    return p.tube(d, 9 * s, 4.5 * s, _colour(p))


def _lantern(p: Painter, x0: float, y0: float) -> str:
    """An angler's lure: a glowing bulb on a stem."""
    s = p.s
    bx, by = x0 + 30 * s, y0 - 52 * s
    glow = p.lit(p.eye, SHADOW["glow"])
    return _stem(p, x0, y0) + (
        f'<circle cx="{num(bx)}" cy="{num(by)}" r="{num(17 * s)}" fill="{glow}" opacity="0.3"/>'
        f'<circle cx="{num(bx)}" cy="{num(by)}" r="{num(10 * s)}" fill="{glow}" '
        f'stroke="{p.line}" stroke-width="2.4"/>'
        f'<circle cx="{num(bx - 3 * s)}" cy="{num(by - 3 * s)}" r="{num(3 * s)}" fill="#ffffff" '
        f'opacity="0.85"/>'
    )


def _bell(p: Painter, x0: float, y0: float) -> str:
    s = p.s
    return _stem(p, x0, y0) + p.small_bell(x0 + 30 * s, y0 - 52 * s + 4 * s, 24 * s)


TAILS = {
    "none": Tail(None),
    "flame": Tail(_flame),
    "fish": Tail(_fish, reach=38),
    "leaf": Tail(_leaf),
    "curl": Tail(_curl, reach=40),
    "spiky": Tail(_spiky, reach=62),
    "lantern": Tail(_lantern, reach=47),
    "bell": Tail(_bell, reach=42),
}
