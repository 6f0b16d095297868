"""The face: eyes, cheeks and mouth, one entry per style of eyes and of mouth."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...roster import SHADOW
from ..colour import darken
from ..svg import num

if TYPE_CHECKING:
    from .painter import Painter

PUPIL = "#1e1428"
STALKS = "stalk_eyes"  # the top that carries the eyes, so the face has none

Glance = tuple[float, float]  # where the pupils look, from the middle of the eye


def face(p: Painter) -> str:
    out = [] if p.look.top == STALKS else [eyes(p, p.look.eyes, p.face_y)]
    r = p.eye_r
    if not p.shadow:  # rosy cheeks
        cy = p.face_y + r * 1.45
        cx = p.w * EYES[p.look.eyes].spread + r * 0.75
        out.extend(
            f'<ellipse cx="{num(x)}" cy="{num(cy)}" rx="{num(r * 0.6)}" ry="{num(r * 0.36)}" '
            f'fill="#ff6f91" opacity="0.42"/>'
            for x in (cx, -cx)
        )
    out.append(mouth(p, p.look.mouth, p.face_y + r * 1.7))
    return "".join(out)


def stalk_eyes(p: Painter) -> str:
    """Two big eyes on stalks rising from the head."""
    w, t, s = p.w, p.head_y, p.s
    out = []
    for x in (-w * 0.2, w * 0.2):
        d = f"M{num(x * 0.7)} {num(t + 8)}L{num(x)} {num(t - 22 * s)}"
        out.append(
            f'<path d="{d}" stroke="{p.line}" stroke-width="{num(7 * s)}" stroke-linecap="round"/>'
            f'<path d="{d}" stroke="{p.limb_colour()}" stroke-width="{num(3.5 * s)}" '
            f'stroke-linecap="round"/>'
        )
    out.append(eyes(p, "big", t - 26 * s, spread=w * 0.2))
    return "".join(out)


# ---- eyes ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Eyes:
    draw: Callable[[Painter, float, float, Glance], str]  # (painter, spread, y, glance)
    spread: float = 0.21  # each eye's distance from the middle, as a share of the body's width
    in_shadow: str = "glow"  # the eyes a shadow creature has instead


def eyes(p: Painter, style: str, y: float, spread: float | None = None) -> str:
    kind = EYES[style]
    ex = spread if spread is not None else p.w * kind.spread
    if p.shadow:
        kind = EYES[kind.in_shadow]
    glance = p.rnd.uniform(-0.25, 0.25) * p.eye_r, p.rnd.uniform(-0.1, 0.2) * p.eye_r
    return kind.draw(p, ex, y, glance)


def _big_eye(p: Painter, x: float, y: float, r: float, glance: Glance) -> str:
    gx, gy = glance
    return (
        f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(r)}" fill="#ffffff" stroke="{p.line}" '
        f'stroke-width="2.4"/>'
        f'<circle cx="{num(x + gx)}" cy="{num(y + gy)}" r="{num(r * 0.62)}" fill="{PUPIL}"/>'
        f'<circle cx="{num(x + gx - r * 0.22)}" cy="{num(y + gy - r * 0.26)}" '
        f'r="{num(r * 0.22)}" fill="#ffffff"/>'
        f'<circle cx="{num(x + gx + r * 0.2)}" cy="{num(y + gy + r * 0.22)}" r="{num(r * 0.1)}" '
        f'fill="#ffffff"/>'
    )


def _glow_eye(p: Painter, x: float, y: float, r: float) -> str:
    halo = p.lit(p.eye, SHADOW["glow"])
    return (
        f'<ellipse cx="{num(x)}" cy="{num(y)}" rx="{num(r * 1.05)}" ry="{num(r * 0.95)}" '
        f'fill="{halo}" opacity="0.35"/>'
        f'<ellipse cx="{num(x)}" cy="{num(y)}" rx="{num(r * 0.72)}" ry="{num(r * 0.62)}" '
        f'fill="{p.eye}" stroke="{p.lit(darken(p.eye, 0.5), SHADOW["glow"])}" stroke-width="2"/>'
        f'<circle cx="{num(x - r * 0.2)}" cy="{num(y - r * 0.18)}" r="{num(r * 0.2)}" '
        f'fill="#ffffff" opacity="0.9"/>'
    )


def _pair(size: float) -> Callable[[Painter, float, float, Glance], str]:
    """Two big round eyes, ``size`` times the usual."""

    def draw(p: Painter, ex: float, y: float, glance: Glance) -> str:
        r = p.eye_r * size
        return _big_eye(p, -ex, y, r, glance) + _big_eye(p, ex, y, r, glance)

    return draw


def _dots(p: Painter, ex: float, y: float, glance: Glance) -> str:
    r = p.eye_r
    return "".join(
        f'<ellipse cx="{num(x)}" cy="{num(y)}" rx="{num(r * 0.48)}" ry="{num(r * 0.62)}" '
        f'fill="{PUPIL}"/>'
        f'<circle cx="{num(x - r * 0.14)}" cy="{num(y - r * 0.22)}" r="{num(r * 0.18)}" '
        f'fill="#ffffff"/>'
        for x in (-ex, ex)
    )


def _one(p: Painter, ex: float, y: float, glance: Glance) -> str:
    """One big eye in the middle, with a coloured iris."""
    r = p.eye_r * 1.55
    gx, gy = glance
    iris = p.lit(p.eye, SHADOW["glow"])
    return (
        f'<circle cx="0" cy="{num(y)}" r="{num(r)}" fill="#ffffff" stroke="{p.line}" '
        f'stroke-width="2.6"/>'
        f'<circle cx="{num(gx)}" cy="{num(y + gy)}" r="{num(r * 0.62)}" fill="{iris}"/>'
        f'<circle cx="{num(gx)}" cy="{num(y + gy)}" r="{num(r * 0.34)}" fill="{PUPIL}"/>'
        f'<circle cx="{num(gx - r * 0.25)}" cy="{num(y + gy - r * 0.28)}" r="{num(r * 0.17)}" '
        f'fill="#ffffff"/>'
    )


def _three(p: Painter, ex: float, y: float, glance: Glance) -> str:
    """Two eyes and a third above them (glowing on a shadow)."""
    r = p.eye_r * 0.78
    spots = ((-ex, y + 2), (ex, y + 2), (0, y - r * 1.7))
    if p.shadow:
        return "".join(_glow_eye(p, x, yy, r) for x, yy in spots)
    return "".join(_big_eye(p, x, yy, r, glance) for x, yy in spots)


def _sleepy(p: Painter, ex: float, y: float, glance: Glance) -> str:
    r = p.eye_r
    return "".join(
        f'<path d="M{num(x - r * 0.75)} {num(y + r * 0.15)}Q{num(x)} {num(y - r * 0.85)} '
        f'{num(x + r * 0.75)} {num(y + r * 0.15)}" fill="none" stroke="{PUPIL}" '
        f'stroke-width="3.6" stroke-linecap="round"/>'
        for x in (-ex, ex)
    )


def _angry(p: Painter, ex: float, y: float, glance: Glance) -> str:
    """Big eyes under frowning brows."""
    r = p.eye_r
    brows = "".join(
        f'<path d="M{num(s * ex + s * r * 1.05)} {num(y - r * 1.35)}'
        f'L{num(s * ex - s * r * 0.7)} {num(y - r * 0.85)}" stroke="{PUPIL}" stroke-width="4.2" '
        f'stroke-linecap="round"/>'
        for s in (-1, 1)
    )
    return _pair(1.0)(p, ex, y, glance) + brows


def _glow(p: Painter, ex: float, y: float, glance: Glance) -> str:
    return _glow_eye(p, -ex, y, p.eye_r) + _glow_eye(p, ex, y, p.eye_r)


EYES = {
    "big": Eyes(_pair(1.0)),
    "wide": Eyes(_pair(0.9), spread=0.3),
    "dots": Eyes(_dots),
    "one": Eyes(_one, in_shadow="one"),
    "three": Eyes(_three, in_shadow="three"),
    "sleepy": Eyes(_sleepy),
    "angry": Eyes(_angry),
    "glow": Eyes(_glow),
}


# ---- mouths ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Mouth:
    """Where a mouth goes and what it is drawn with."""

    y: float
    m: float  # half the width of a usual mouth
    ink: str
    inside: str

    @property
    def line(self) -> str:
        return (
            f'fill="none" stroke="{self.ink}" stroke-width="3.4" stroke-linecap="round" '
            f'stroke-linejoin="round"'
        )


def mouth(p: Painter, style: str, y: float) -> str:
    spot = _Mouth(y, p.w * 0.085, p.lit("#2a1a2e", SHADOW["glow"]), p.lit("#5b1f2e", "#0e0818"))
    return MOUTHS[style](p, spot)


def _smile(p: Painter, mo: _Mouth) -> str:
    m, y = mo.m, mo.y
    return f'<path d="M{num(-m)} {num(y)}Q0 {num(y + m * 0.9)} {num(m)} {num(y)}" {mo.line}/>'


def _flat(p: Painter, mo: _Mouth) -> str:
    m, y = mo.m, mo.y
    return (
        f'<path d="M{num(-m * 0.8)} {num(y + 2)}Q0 {num(y + 4)} {num(m * 0.8)} {num(y + 2)}" '
        f"{mo.line}/>"
    )


def _cat(p: Painter, mo: _Mouth) -> str:
    m, y = mo.m, mo.y
    return (
        f'<path d="M{num(-m)} {num(y)}Q{num(-m / 2)} {num(y + m * 0.75)} 0 {num(y + 1)}'
        f'Q{num(m / 2)} {num(y + m * 0.75)} {num(m)} {num(y)}" {mo.line}/>'
    )


def _o(p: Painter, mo: _Mouth) -> str:
    m, y = mo.m, mo.y
    return (
        f'<ellipse cx="0" cy="{num(y + m * 0.3)}" rx="{num(m * 0.42)}" ry="{num(m * 0.5)}" '
        f'fill="{mo.inside}" stroke="{mo.ink}" stroke-width="2.6"/>'
    )


def _open(mo: _Mouth, wide: float = 1.0) -> tuple[str, float]:
    """The outline of an open mouth ``wide`` times the usual, and its half width."""
    mw, y = mo.m * wide, mo.y
    return f"M{num(-mw)} {num(y)}Q0 {num(y + mw * 1.55)} {num(mw)} {num(y)}Z", mw


def _open_plain(mo: _Mouth, d: str) -> str:
    return (
        f'<path d="{d}" fill="{mo.inside}" stroke="{mo.ink}" stroke-width="3" '
        f'stroke-linejoin="round"/>'
    )


def _open_with(p: Painter, mo: _Mouth, d: str, content: str) -> str:
    """An open mouth with ``content`` (clipped to ``#<uid>-mouth``) inside it."""
    return (
        f'<defs><clipPath id="{p.uid}-mouth"><path d="{d}"/></clipPath></defs>'
        f'<path d="{d}" fill="{mo.inside}"/>{content}'
        f'<path d="{d}" fill="none" stroke="{mo.ink}" stroke-width="3" stroke-linejoin="round"/>'
    )


def _grin(p: Painter, mo: _Mouth) -> str:
    d, mw = _open(mo, wide=1.25)
    teeth = (
        f'<rect x="{num(-mw)}" y="{num(mo.y - 1)}" width="{num(2 * mw)}" '
        f'height="{num(mw * 0.32)}" fill="#ffffff" clip-path="url(#{p.uid}-mouth)"/>'
    )
    return _open_with(p, mo, d, teeth)


def _tongue(p: Painter, mo: _Mouth) -> str:
    d, mw = _open(mo)
    tongue = (
        f'<ellipse cx="{num(mw * 0.15)}" cy="{num(mo.y + mw * 0.85)}" rx="{num(mw * 0.5)}" '
        f'ry="{num(mw * 0.38)}" fill="#ff7d8f" clip-path="url(#{p.uid}-mouth)"/>'
    )
    return _open_with(p, mo, d, tongue)


def _fang(p: Painter, mo: _Mouth) -> str:
    d, mw = _open(mo)
    return _open_plain(mo, d) + "".join(
        f'<path d="M{num(x)} {num(mo.y + 1)}l{num(mw * 0.18)} {num(mw * 0.42)}'
        f'l{num(mw * 0.18)} {num(-mw * 0.42)}Z" fill="#ffffff"/>'
        for x in (-mw * 0.55, mw * 0.2)
    )


def _tusks(p: Painter, mo: _Mouth) -> str:
    d, mw = _open(mo)
    y, tusk = mo.y, p.lit("#fff8e6", "#cdb6f5")
    return _open_plain(mo, d) + "".join(
        f'<path d="M{num(s * mw * 0.75)} {num(y + mw * 0.45)}Q{num(s * mw * 1.0)} '
        f"{num(y - mw * 0.25)} {num(s * mw * 1.15)} {num(y - mw * 0.6)}Q{num(s * mw * 1.2)} "
        f'{num(y + mw * 0.1)} {num(s * mw * 0.95)} {num(y + mw * 0.5)}Z" fill="{tusk}" '
        f'stroke="{mo.ink}" stroke-width="2"/>'
        for s in (-1, 1)
    )


def _beak(p: Painter, mo: _Mouth) -> str:
    m, y = mo.m, mo.y
    beak = p.lit("#f6b23d", "#4a3868")
    return (
        f'<path d="M{num(-m * 0.7)} {num(y - m * 0.5)}Q0 {num(y - m * 0.9)} {num(m * 0.7)} '
        f'{num(y - m * 0.5)}L0 {num(y + m * 0.75)}Z" fill="{beak}" '
        f'stroke="{p.lit(darken(beak, 0.45), SHADOW["glow"])}" stroke-width="2.6" '
        f'stroke-linejoin="round"/>'
    )


MOUTHS: dict[str, Callable[[Painter, _Mouth], str]] = {
    "smile": _smile,
    "flat": _flat,
    "cat": _cat,
    "o": _o,
    "grin": _grin,
    "tongue": _tongue,
    "fang": _fang,
    "tusks": _tusks,
    "beak": _beak,
}
