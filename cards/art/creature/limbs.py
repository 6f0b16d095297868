"""Arms and feet, one entry per style; each is drawn behind the body or in front of it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ... import roster
from ..colour import darken, lighten
from ..svg import num

if TYPE_CHECKING:
    from .painter import Painter, Part

FLOATING = "none"  # the feet of a creature that floats above its shadow


@dataclass(frozen=True)
class Arms:
    behind: Part | None = None
    front: Part | None = None
    span: tuple[float, float] = (0.5, 0)  # half the reach: (share of width, units of s)


@dataclass(frozen=True)
class Feet:
    behind: Part | None = None
    front: Part | None = None
    reach: float = 14  # how far below the body they go, in units of s


# ---- arms behind the body, from the shoulder -------------------------------------------------


def _shoulder(p: Painter) -> tuple[float, float]:
    return p.w * 0.4, -p.h * 0.08


def _wings(p: Painter) -> str:
    (x0, y0), s = _shoulder(p), p.s
    d = (
        f"M{num(x0)} {num(y0)}C{num(x0 + 28 * s)} {num(y0 - 42 * s)} {num(x0 + 58 * s)} "
        f"{num(y0 - 40 * s)} {num(x0 + 60 * s)} {num(y0 - 18 * s)}C{num(x0 + 50 * s)} "
        f"{num(y0 - 12 * s)} {num(x0 + 54 * s)} {num(y0 - 2 * s)} {num(x0 + 42 * s)} "
        f"{num(y0 + 4 * s)}C{num(x0 + 40 * s)} {num(y0 + 14 * s)} {num(x0 + 24 * s)} "
        f"{num(y0 + 18 * s)} {num(x0 - 4 * s)} {num(y0 + 16 * s)}Z"
    )
    vein = (
        f'<path d="M{num(x0 + 6 * s)} {num(y0 + 4 * s)}Q{num(x0 + 28 * s)} {num(y0 - 14 * s)} '
        f'{num(x0 + 48 * s)} {num(y0 - 22 * s)}" fill="none" stroke="{p.line}" stroke-width="2" '
        f'opacity="0.5"/>'
    )
    return p.mirrored(p.part(d, p.lit(lighten(p.accent, 0.2), "#3a2a55")) + vein)


def _bat_wings(p: Painter) -> str:
    (x0, y0), s = _shoulder(p), p.s
    d = (
        f"M{num(x0 - 4 * s)} {num(y0 - 6 * s)}L{num(x0 + 56 * s)} {num(y0 - 40 * s)}"
        f"Q{num(x0 + 58 * s)} {num(y0 - 12 * s)} {num(x0 + 66 * s)} {num(y0 + 8 * s)}"
        f"Q{num(x0 + 52 * s)} {num(y0 + 2 * s)} {num(x0 + 44 * s)} {num(y0 + 16 * s)}"
        f"Q{num(x0 + 32 * s)} {num(y0 + 6 * s)} {num(x0 + 22 * s)} {num(y0 + 18 * s)}"
        f"Q{num(x0 + 12 * s)} {num(y0 + 8 * s)} {num(x0 - 4 * s)} {num(y0 + 16 * s)}Z"
    )
    ribs = (
        f'<path d="M{num(x0)} {num(y0)}L{num(x0 + 44 * s)} {num(y0 + 14 * s)}'
        f"M{num(x0)} {num(y0)}L{num(x0 + 24 * s)} {num(y0 + 16 * s)}"
        f'M{num(x0)} {num(y0)}L{num(x0 + 62 * s)} {num(y0 + 6 * s)}" stroke="{p.line}" '
        f'stroke-width="2" opacity="0.55"/>'
    )
    return p.mirrored(p.part(d, p.lit(darken(p.body, 0.2), "#2e2244")) + ribs)


def _fins(p: Painter) -> str:
    x1, y1, s = p.w * 0.42, p.h * 0.08, p.s
    d = (
        f"M{num(x1)} {num(y1 - 8 * s)}Q{num(x1 + 30 * s)} {num(y1 - 16 * s)} {num(x1 + 34 * s)} "
        f"{num(y1 + 14 * s)}Q{num(x1 + 16 * s)} {num(y1 + 8 * s)} {num(x1)} {num(y1 + 14 * s)}Z"
    )
    return p.mirrored(p.part(d, p.lit(p.accent, "#3a2a55")))


# ---- arms in front of the body, from its side ------------------------------------------------


def _side(p: Painter) -> float:
    return p.edge_x(p.h * 0.12)


def _stubby_arms(p: Painter) -> str:
    x, y = _side(p) - 3 * p.s, p.h * 0.12
    return p.mirrored(
        f'<ellipse cx="{num(x)}" cy="{num(y)}" rx="{num(9 * p.s)}" ry="{num(14 * p.s)}" '
        f'transform="rotate(-28 {num(x)} {num(y)})" {p.fill(p.limb_colour())}/>'
    )


def _long_arms(p: Painter) -> str:
    """Long thin arms hanging down, with round hands."""
    s, colour = p.s, p.limb_colour()
    x, y = _side(p) - 6 * s, 0.0
    d = f"M{num(x)} {num(y)}Q{num(x + 22 * s)} {num(y + 8 * s)} {num(x + 20 * s)} {num(y + 34 * s)}"
    hand = (
        f'<circle cx="{num(x + 20 * s)}" cy="{num(y + 36 * s)}" r="{num(8 * s)}" {p.fill(colour)}/>'
    )
    return p.mirrored(p.tube(d, 13 * s, 7.5 * s, colour) + hand)


def _claws(p: Painter) -> str:
    """Arms raised, each holding up a pincer."""
    s, edge = p.s, _side(p)
    x, y = edge + 14 * s, -p.h * 0.2
    d = (
        f"M{num(edge - 6 * s)} {num(p.h * 0.1)}Q{num(x + 4 * s)} {num(p.h * 0.08)} {num(x)} "
        f"{num(y + 10 * s)}"
    )
    r = 15 * s
    pincer = (
        f"M{num(x)} {num(y + r)}A{num(r)} {num(r)} 0 1 1 {num(x + r * 0.95)} {num(y - r * 0.1)}"
        f"L{num(x + r * 0.1)} {num(y - r * 0.05)}L{num(x + r * 0.85)} {num(y + r * 0.5)}"
        f"A{num(r)} {num(r)} 0 0 1 {num(x)} {num(y + r)}Z"
    )
    arm = p.tube(d, 11 * s, 6 * s, p.limb_colour())
    return p.mirrored(arm + p.part(pincer, p.lit(p.accent, "#3a2a55")))


def _leaves(p: Painter) -> str:
    s = p.s
    x, y = _side(p) - 4 * s, p.h * 0.06
    # Leaves are green in the forest, and where the accent (berry, cream) would not read as leaf.
    green = p.cr.suit == "C" or p.look.accent in ("berry", "cream")
    colour = p.lit(roster.PALETTES["C"]["leaf"] if green else p.accent, "#3a2a55")
    d = (
        f"M{num(x)} {num(y)}C{num(x + 14 * s)} {num(y - 14 * s)} {num(x + 34 * s)} "
        f"{num(y - 4 * s)} {num(x + 40 * s)} {num(y + 14 * s)}C{num(x + 24 * s)} "
        f"{num(y + 22 * s)} {num(x + 8 * s)} {num(y + 16 * s)} {num(x)} {num(y)}Z"
    )
    vein = (
        f'<path d="M{num(x + 2 * s)} {num(y + 2 * s)}Q{num(x + 22 * s)} {num(y + 4 * s)} '
        f'{num(x + 38 * s)} {num(y + 13 * s)}" fill="none" stroke="{p.line}" stroke-width="1.8" '
        f'opacity="0.6"/>'
    )
    return p.mirrored(p.part(d, colour) + vein)


ARMS = {
    "none": Arms(),
    "wings": Arms(behind=_wings, span=(0.4, 62)),
    "bat_wings": Arms(behind=_bat_wings, span=(0.4, 66)),
    "fins": Arms(behind=_fins, span=(0.42, 34)),
    "stubby": Arms(front=_stubby_arms, span=(0.5, 6)),
    "long": Arms(front=_long_arms, span=(0.5, 22)),
    "claws": Arms(front=_claws, span=(0.5, 29)),
    "leaves": Arms(front=_leaves, span=(0.5, 36)),
}


# ---- feet ------------------------------------------------------------------------------------


def _stubby_feet(p: Painter) -> str:
    s = p.s
    return p.mirrored(
        f'<ellipse cx="{num(p.w * 0.2)}" cy="{num(p.hem_y + 3 * s)}" rx="{num(13 * s)}" '
        f'ry="{num(9 * s)}" {p.fill(p.limb_colour())}/>'
    )


def _tentacles(p: Painter) -> str:
    """Five wavy tentacles, swaying left and right in turn."""
    w, s, base, colour = p.w, p.s, p.hem_y, p.limb_colour()
    out = []
    n = 5
    for i in range(n):
        x = -w * 0.36 + i * (w * 0.72) / (n - 1)
        sway = 7 * s * (1 if i % 2 else -1)
        d = (
            f"M{num(x)} {num(base - 4)}C{num(x + sway)} {num(base + 14 * s)} {num(x - sway)} "
            f"{num(base + 24 * s)} {num(x + sway * 0.6)} {num(base + 36 * s)}"
        )
        out.append(p.tube(d, 11 * s, 6 * s, colour))
    return "".join(out)


def _roots(p: Painter) -> str:
    w, s, base = p.w, p.s, p.hem_y
    colour = p.lit(darken(roster.PALETTES["C"]["bark"], 0.1), "#2e2244")
    out = []
    for x, dx in ((-0.3, -22), (-0.08, -6), (0.12, 8), (0.32, 24)):
        d = (
            f"M{num(w * x)} {num(base - 6)}Q{num(w * x + dx * s * 0.4)} {num(base + 10 * s)} "
            f"{num(w * x + dx * s)} {num(base + 14 * s)}"
        )
        out.append(p.tube(d, 10 * s, 5 * s, colour))
    return "".join(out)


def _paws(p: Painter) -> str:
    """Paws in front, with two toe lines each (they stand on the bottom of any body)."""
    s = p.s
    x, y = p.w * 0.22, p.h / 2 - 2 * s
    return p.mirrored(
        f'<ellipse cx="{num(x)}" cy="{num(y)}" rx="{num(14 * s)}" ry="{num(9 * s)}" '
        f"{p.fill(p.limb_colour())}/>"
        f'<path d="M{num(x - 4 * s)} {num(y + 2 * s)}v{num(5 * s)}M{num(x + 4 * s)} '
        f'{num(y + 2 * s)}v{num(5 * s)}" stroke="{p.line}" stroke-width="2" '
        f'stroke-linecap="round"/>'
    )


FEET = {
    FLOATING: Feet(),
    "stubby": Feet(behind=_stubby_feet),
    "tentacles": Feet(behind=_tentacles, reach=40),
    "roots": Feet(behind=_roots),
    "paws": Feet(front=_paws),
}
