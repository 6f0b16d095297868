"""What the royals wear on their heads: one entry per rank (the King's crown, the Queen's
tiara, the Jack's feathered cap)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...roster import SHADOW
from ..colour import darken
from ..svg import num
from . import tops

if TYPE_CHECKING:
    from .painter import Painter


@dataclass(frozen=True)
class _Regalia:
    gold: str
    edge: str
    ruby: str
    sapphire: str


_LIT = _Regalia("#f5c542", "#9a6a12", "#e0344a", "#3a7bd5")
_SHADOW = _Regalia("#3b2b57", SHADOW["glow"], SHADOW["eye"], SHADOW["glow"])


def wears_one(p: Painter) -> bool:
    return p.cr.rank in HEADWEAR


def headwear(p: Painter) -> str:
    draw = HEADWEAR.get(p.cr.rank)
    if draw is None:
        return ""
    top = tops.TOPS[p.look.top]
    lift = top.crown_lift_h * p.h + top.crown_lift * p.s  # sit on top of what grows there
    y = p.head_y + 6 * p.s - lift
    return draw(p, y, _SHADOW if p.shadow else _LIT)


def _crown(p: Painter, y: float, r: _Regalia) -> str:
    """Five points, a band, a ruby in front and sapphires on the band."""
    s = p.s
    cw, ch = 30 * s, 28 * s
    d = (
        f"M{num(-cw)} {num(y)}L{num(-cw - 3 * s)} {num(y - ch)}L{num(-cw * 0.5)} "
        f"{num(y - ch * 0.45)}L0 {num(y - ch * 1.2)}L{num(cw * 0.5)} {num(y - ch * 0.45)}"
        f"L{num(cw + 3 * s)} {num(y - ch)}L{num(cw)} {num(y)}Z"
    )
    pearls = "".join(
        f'<circle cx="{num(x)}" cy="{num(yy)}" r="{num(3.4 * s)}" fill="{r.gold}" '
        f'stroke="{r.edge}" stroke-width="1.6"/>'
        for x, yy in ((-cw - 3 * s, y - ch), (0, y - ch * 1.2), (cw + 3 * s, y - ch))
    )
    return (
        f'<path d="{d}" fill="{r.gold}" stroke="{r.edge}" stroke-width="3" '
        f'stroke-linejoin="round"/>'
        f'<rect x="{num(-cw)}" y="{num(y - 7 * s)}" width="{num(2 * cw)}" height="{num(7 * s)}" '
        f'fill="{darken(r.gold, 0.12)}" stroke="{r.edge}" stroke-width="2"/>'
        f'<circle cx="0" cy="{num(y - ch * 0.55)}" r="{num(5 * s)}" fill="{r.ruby}" '
        f'stroke="{r.edge}" stroke-width="1.6"/>'
        f'<circle cx="{num(-cw * 0.6)}" cy="{num(y - 3.5 * s)}" r="{num(3 * s)}" '
        f'fill="{r.sapphire}"/>'
        f'<circle cx="{num(cw * 0.6)}" cy="{num(y - 3.5 * s)}" r="{num(3 * s)}" '
        f'fill="{r.sapphire}"/>' + pearls
    )


def _tiara(p: Painter, y: float, r: _Regalia) -> str:
    """A curved tiara with a sapphire and two pearls."""
    s = p.s
    cw, ch = 24 * s, 18 * s
    d = (
        f"M{num(-cw)} {num(y)}Q{num(-cw * 0.7)} {num(y - ch * 0.6)} {num(-cw * 0.45)} "
        f"{num(y - ch * 0.5)}Q{num(-cw * 0.2)} {num(y - ch * 1.3)} 0 {num(y - ch * 1.35)}"
        f"Q{num(cw * 0.2)} {num(y - ch * 1.3)} {num(cw * 0.45)} {num(y - ch * 0.5)}"
        f"Q{num(cw * 0.7)} {num(y - ch * 0.6)} {num(cw)} {num(y)}Q0 {num(y - ch * 0.3)} "
        f"{num(-cw)} {num(y)}Z"
    )
    return (
        f'<path d="{d}" fill="{r.gold}" stroke="{r.edge}" stroke-width="2.6" '
        f'stroke-linejoin="round"/>'
        f'<path d="M0 {num(y - ch * 1.05)}l{num(5 * s)} {num(6 * s)}l{num(-5 * s)} {num(6 * s)}'
        f'l{num(-5 * s)} {num(-6 * s)}Z" fill="{r.sapphire}" stroke="{r.edge}" '
        f'stroke-width="1.4"/>'
        + "".join(
            f'<circle cx="{num(x)}" cy="{num(y - ch * 0.55)}" r="{num(2.6 * s)}" fill="#fffaf0" '
            f'stroke="{r.edge}" stroke-width="1.2"/>'
            for x in (-cw * 0.45, cw * 0.45)
        )
    )


def _cap(p: Painter, y: float, r: _Regalia) -> str:
    """A jaunty cap with a feather."""
    s = p.s
    cap = p.lit("#4b6fd1" if p.cr.suit in "HB" else "#3a7bd5", "#3b2b57")
    cw = 26 * s
    x0 = 6 * s
    d = (
        f"M{num(x0 - cw)} {num(y + 2 * s)}C{num(x0 - cw)} {num(y - 22 * s)} {num(x0 + cw * 0.9)} "
        f"{num(y - 24 * s)} {num(x0 + cw)} {num(y - 2 * s)}"
        f"Q{num(x0)} {num(y + 6 * s)} {num(x0 - cw)} {num(y + 2 * s)}Z"
    )
    feather = (
        f"M{num(x0 + cw * 0.5)} {num(y - 14 * s)}C{num(x0 + cw * 0.9)} {num(y - 40 * s)} "
        f"{num(x0 + cw * 1.6)} {num(y - 44 * s)} {num(x0 + cw * 1.9)} {num(y - 46 * s)}"
        f"C{num(x0 + cw * 1.5)} {num(y - 30 * s)} {num(x0 + cw * 1.1)} {num(y - 16 * s)} "
        f"{num(x0 + cw * 0.5)} {num(y - 14 * s)}Z"
    )
    return (
        f'<path d="{feather}" fill="{p.lit("#e0344a", SHADOW["glow"])}" '
        f'stroke="{p.lit("#8c1f2c", r.edge)}" stroke-width="2.2" stroke-linejoin="round"/>'
        f'<path d="{d}" fill="{cap}" stroke="{p.lit("#1e3f7a", r.edge)}" stroke-width="2.8" '
        f'stroke-linejoin="round"/>'
        f'<rect x="{num(x0 - cw * 0.95)}" y="{num(y - 4 * s)}" width="{num(cw * 1.9)}" '
        f'height="{num(5 * s)}" rx="2" fill="{r.gold}" stroke="{r.edge}" stroke-width="1.4"/>'
    )


HEADWEAR: dict[str, Callable[[Painter, float, _Regalia], str]] = {
    "K": _crown,
    "Q": _tiara,
    "J": _cap,
}
