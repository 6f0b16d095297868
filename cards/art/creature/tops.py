"""What grows on a creature's head (ears, horns, antlers, flames, caps...), one entry per
style: most stand behind the body, caps sit over it."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ... import roster
from ..colour import darken, lighten, mix
from ..svg import num
from . import face

if TYPE_CHECKING:
    from .painter import Painter, Part


@dataclass(frozen=True)
class Top:
    behind: Part | None = None
    front: Part | None = None  # drawn over the face
    reach: float = 36  # how far it rises above the head, in units of s
    face: float | None = None  # where the eyes sit under it, as a share of the body's height
    # How much higher a royal's headwear sits on it: in units of s, and in shares of the height.
    crown_lift: float = 0
    crown_lift_h: float = 0


# ---- ears ------------------------------------------------------------------------------------


def _inner_ear(p: Painter) -> str:
    return p.lit(lighten(p.accent, 0.1), "#4a3868")


def _fur(p: Painter) -> str:
    return p.lit(p.body, "#2e2244")


def _cat_ears(p: Painter) -> str:
    x, t, s = p.w * 0.27, p.head_y, p.s
    ear = (
        f"M{num(x - 17 * s)} {num(t + 14 * s)}L{num(x + 4 * s)} {num(t - 26 * s)}"
        f"L{num(x + 18 * s)} {num(t + 12 * s)}Z"
    )
    inner = (
        f'<path d="M{num(x - 8 * s)} {num(t + 8 * s)}L{num(x + 3 * s)} {num(t - 14 * s)}'
        f'L{num(x + 10 * s)} {num(t + 8 * s)}Z" fill="{_inner_ear(p)}"/>'
    )
    return p.mirrored(p.part(ear, _fur(p)) + inner)


def _bunny_ears(p: Painter) -> str:
    s = p.s
    x, y = p.w * 0.17, p.head_y - 24 * s
    tilt = f'transform="rotate(12 {num(x)} {num(y)})"'
    return p.mirrored(
        f'<ellipse cx="{num(x)}" cy="{num(y)}" rx="{num(10 * s)}" ry="{num(30 * s)}" {tilt} '
        f"{p.fill(_fur(p))}/>"
        f'<ellipse cx="{num(x)}" cy="{num(y + 3 * s)}" rx="{num(5 * s)}" ry="{num(21 * s)}" '
        f'{tilt} fill="{_inner_ear(p)}"/>'
    )


def _bat_ears(p: Painter) -> str:
    x, t, s = p.w * 0.24, p.head_y, p.s
    ear = (
        f"M{num(x - 20 * s)} {num(t + 16 * s)}L{num(x + 18 * s)} {num(t - 30 * s)}"
        f"Q{num(x + 16 * s)} {num(t + 2 * s)} {num(x + 26 * s)} {num(t + 24 * s)}Z"
    )
    inner = (
        f'<path d="M{num(x - 8 * s)} {num(t + 12 * s)}L{num(x + 14 * s)} {num(t - 16 * s)}'
        f'Q{num(x + 12 * s)} {num(t + 4 * s)} {num(x + 18 * s)} {num(t + 16 * s)}Z" '
        f'fill="{_inner_ear(p)}"/>'
    )
    return p.mirrored(p.part(ear, _fur(p)) + inner)


def _round_ears(p: Painter) -> str:
    s = p.s
    x, y = p.w * 0.33, p.head_y + 10 * s
    return p.mirrored(
        f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(15 * s)}" {p.fill(_fur(p))}/>'
        f'<circle cx="{num(x)}" cy="{num(y + 1 * s)}" r="{num(8 * s)}" fill="{_inner_ear(p)}"/>'
    )


# ---- horns, antlers and the like -------------------------------------------------------------


def _horns(p: Painter) -> str:
    x, t, s = p.w * 0.2, p.head_y, p.s
    d = (
        f"M{num(x - 8 * s)} {num(t + 10 * s)}Q{num(x + 2 * s)} {num(t - 14 * s)} {num(x + 16 * s)} "
        f"{num(t - 26 * s)}Q{num(x + 14 * s)} {num(t - 4 * s)} {num(x + 10 * s)} {num(t + 12 * s)}Z"
    )
    return p.mirrored(p.part(d, p.lit(lighten(p.accent, 0.3), "#4a3868")))


def _curl_horns(p: Painter) -> str:
    """A ram's horns curling down beside the head."""
    s = p.s
    x, y = p.w * 0.38, p.head_y + 16 * s
    d = (
        f"M{num(x - 16 * s)} {num(y - 8 * s)}C{num(x + 4 * s)} {num(y - 30 * s)} "
        f"{num(x + 30 * s)} {num(y - 14 * s)} {num(x + 24 * s)} {num(y + 8 * s)}"
        f"C{num(x + 20 * s)} {num(y + 22 * s)} {num(x + 4 * s)} {num(y + 18 * s)} "
        f"{num(x + 6 * s)} {num(y + 6 * s)}"
        f"C{num(x + 8 * s)} {num(y - 4 * s)} {num(x + 16 * s)} {num(y)} {num(x + 14 * s)} "
        f"{num(y + 4 * s)}"
        f"C{num(x + 12 * s)} {num(y - 10 * s)} {num(x - 4 * s)} {num(y - 10 * s)} "
        f"{num(x - 12 * s)} {num(y + 2 * s)}Z"
    )
    return p.mirrored(p.part(d, p.lit(lighten(p.accent, 0.15), "#4a3868")))


def _branches(p: Painter, colour: str, width: float) -> str:
    """A branching stroke on each side of the head: antlers or coral."""
    x, t, s = p.w * 0.16, p.head_y, p.s
    d = (
        f"M{num(x)} {num(t + 8 * s)}Q{num(x + 6 * s)} {num(t - 18 * s)} {num(x + 18 * s)} "
        f"{num(t - 36 * s)}"
        f"M{num(x + 5 * s)} {num(t - 10 * s)}Q{num(x + 20 * s)} {num(t - 14 * s)} "
        f"{num(x + 30 * s)} {num(t - 24 * s)}"
        f"M{num(x + 12 * s)} {num(t - 26 * s)}Q{num(x + 6 * s)} {num(t - 34 * s)} "
        f"{num(x + 4 * s)} {num(t - 42 * s)}"
    )
    return p.mirrored(p.tube(d, (width + 5) * s, width * s, p.lit(colour, "#4a3868")))


def _antlers(p: Painter) -> str:
    # Bark brown; in the forest, a darker shade of the creature's own colour.
    if p.cr.suit != "C":
        return _branches(p, darken(roster.PALETTES["C"]["bark"], 0.05), 8)
    return _branches(p, darken(p.body, 0.25), 8)


def _coral(p: Painter) -> str:
    return _branches(p, lighten(p.accent, 0.05), 9)


def _antennae(p: Painter) -> str:
    x, t, s = p.w * 0.12, p.head_y, p.s
    d = (
        f"M{num(x)} {num(t + 6 * s)}Q{num(x + 2 * s)} {num(t - 22 * s)} {num(x + 18 * s)} "
        f"{num(t - 34 * s)}"
    )
    return p.mirrored(
        f'<path d="{d}" fill="none" stroke="{p.line}" stroke-width="{num(4 * s)}" '
        f'stroke-linecap="round"/>'
        f'<circle cx="{num(x + 18 * s)}" cy="{num(t - 36 * s)}" r="{num(7 * s)}" '
        f'fill="{p.lit(p.eye, roster.SHADOW["glow"])}" stroke="{p.line}" stroke-width="2.4"/>'
    )


# ---- things growing on top -------------------------------------------------------------------


def _flame(p: Painter) -> str:
    s = p.s
    return p.flame(0, p.head_y - 20 * s, 48 * s, 60 * s)


def _sprout(p: Painter) -> str:
    """A stem with two leaves."""
    t, s = p.head_y, p.s
    leaf = p.lit(roster.PALETTES["C"]["leaf"], "#4a3868")
    if p.cr.suit == "C" and p.look.colour == "leaf":  # fern on a leaf-green body, shadow or not
        leaf = roster.PALETTES["C"]["fern"]
    stem = (
        f'<path d="M0 {num(t + 6)}Q{num(-2 * s)} {num(t - 14 * s)} {num(2 * s)} {num(t - 22 * s)}" '
        f'fill="none" stroke="{p.line}" stroke-width="{num(5 * s)}" stroke-linecap="round"/>'
    )
    d = (
        f"M{num(2 * s)} {num(t - 20 * s)}C{num(10 * s)} {num(t - 38 * s)} {num(28 * s)} "
        f"{num(t - 36 * s)} {num(34 * s)} {num(t - 30 * s)}C{num(28 * s)} {num(t - 18 * s)} "
        f"{num(12 * s)} {num(t - 14 * s)} {num(2 * s)} {num(t - 20 * s)}Z"
    )
    twin = f'<g transform="scale(-1 1) translate(-4 4)">{p.part(d, leaf)}</g>'
    return stem + p.part(d, leaf) + twin


def _crystals(p: Painter) -> str:
    t, s, w = p.head_y, p.s, p.w
    gem = p.lit(mix(lighten(p.body, 0.45), p.accent, 0.3), "#4a3868")
    out = []
    for x, ht, rot in ((-w * 0.2, 26, -18), (0, 38, 0), (w * 0.2, 28, 16)):
        cw, hh = 9 * s, ht * s
        d = (
            f"M{num(-cw)} 0L{num(-cw)} {num(-hh * 0.7)}L0 {num(-hh)}L{num(cw)} {num(-hh * 0.7)}"
            f"L{num(cw)} 0Z"
        )
        out.append(
            f'<g transform="translate({num(x)} {num(t + 10 * s)}) rotate({rot})">{p.part(d, gem)}'
            f'<path d="M0 {num(-hh)}L{num(cw * 0.2)} 0" stroke="#ffffff" stroke-width="2" '
            f'opacity="0.7"/></g>'
        )
    return "".join(out)


def _fin(p: Painter) -> str:
    t, s = p.head_y, p.s
    d = (
        f"M{num(-14 * s)} {num(t + 8 * s)}Q{num(-10 * s)} {num(t - 24 * s)} {num(14 * s)} "
        f"{num(t - 30 * s)}Q{num(4 * s)} {num(t - 8 * s)} {num(16 * s)} {num(t + 8 * s)}Z"
    )
    return p.part(d, p.accent)


def _tuft(p: Painter) -> str:
    """Three feathers fanned out."""
    t, s = p.head_y, p.s
    d = (
        f"M0 {num(t + 6 * s)}C{num(-8 * s)} {num(t - 12 * s)} {num(-4 * s)} {num(t - 24 * s)} "
        f"{num(4 * s)} {num(t - 30 * s)}C{num(6 * s)} {num(t - 16 * s)} {num(8 * s)} "
        f"{num(t - 6 * s)} 0 {num(t + 6 * s)}Z"
    )
    return "".join(
        f'<g transform="rotate({rot} 0 {num(t + 6 * s)})">{p.part(d, p.accent)}</g>'
        for rot in (-28, 0, 28)
    )


def _spikes(p: Painter) -> str:
    """Nine spikes along the top half of the body's outline."""
    s, a, b = p.s, p.w / 2, p.h / 2
    spike = p.lit(darken(p.body, 0.2), "#2e2244")
    out = []
    n = 9
    for i in range(n):
        ang = math.pi * (1.05 + 0.9 * i / (n - 1))
        x, y = a * 0.95 * math.cos(ang), b * 0.95 * math.sin(ang)
        nx, ny = math.cos(ang), math.sin(ang)
        tx, ty = -ny, nx
        length, half = 22 * s, 9 * s
        d = (
            f"M{num(x + tx * half)} {num(y + ty * half)}L{num(x + nx * length)} "
            f"{num(y + ny * length)}L{num(x - tx * half)} {num(y - ty * half)}Z"
        )
        out.append(p.part(d, spike))
    return "".join(out)


# ---- caps, over the face ---------------------------------------------------------------------


# The mushroom cap's spots: (x, height, radius) as shares of the cap's width and height.
_CAP_SPOTS = ((-0.5, 0.45, 0.14), (0.05, 0.85, 0.17), (0.55, 0.4, 0.12), (-0.15, 0.3, 0.08))


def _mushroom_cap(p: Painter) -> str:
    """A spotted cap coming down over the head (the face sits lower under it)."""
    w, h = p.w, p.h
    cw, ch = w * 0.85, h * 0.42
    y = p.head_y + h * 0.28
    d = (
        f"M{num(-cw)} {num(y)}C{num(-cw)} {num(y - ch * 1.5)} {num(cw)} {num(y - ch * 1.5)} "
        f"{num(cw)} {num(y)}Q0 {num(y + ch * 0.22)} {num(-cw)} {num(y)}Z"
    )
    spots = "".join(
        f'<ellipse cx="{num(x * cw)}" cy="{num(y - yy * ch)}" rx="{num(r * cw)}" '
        f'ry="{num(r * cw * 0.7)}" fill="#fff8ea" opacity="{0.9 if not p.shadow else 0.15}"/>'
        for x, yy, r in _CAP_SPOTS
    )
    return p.part(d, p.lit(p.accent, "#3a2a55")) + spots


def _acorn_cap(p: Painter) -> str:
    """A hatched acorn cap with a stalk."""
    w, h, s = p.w, p.h, p.s
    cw = w * 0.58
    y = p.head_y + h * 0.22
    d = (
        f"M{num(-cw)} {num(y)}C{num(-cw)} {num(y - h * 0.42)} {num(cw)} {num(y - h * 0.42)} "
        f"{num(cw)} {num(y)}Q0 {num(y + 8 * s)} {num(-cw)} {num(y)}Z"
    )
    hatch = "".join(
        f'<path d="M{num(x)} {num(y - 2)}l{num(10 * s)} {num(-16 * s)}" stroke="{p.line}" '
        f'stroke-width="1.6" opacity="0.45"/>'
        for x in (-cw * 0.7, -cw * 0.35, 0, cw * 0.35)
    )
    stem = (
        f'<path d="M0 {num(y - h * 0.3)}q{num(2 * s)} {num(-12 * s)} {num(10 * s)} {num(-14 * s)}" '
        f'fill="none" stroke="{p.line}" stroke-width="{num(6 * s)}" stroke-linecap="round"/>'
    )
    cap = p.lit(darken(roster.PALETTES["C"]["bark"], 0.05), "#3a2a55")
    return stem + p.part(d, cap) + hatch


def _bell_hat(p: Painter) -> str:
    s = p.s
    return p.small_bell(p.w * 0.05, p.head_y - 10 * s, 42 * s)


TOPS = {
    "none": Top(reach=0),
    "cat_ears": Top(behind=_cat_ears, reach=26),
    "bunny_ears": Top(behind=_bunny_ears),
    "bat_ears": Top(behind=_bat_ears),
    "round_ears": Top(behind=_round_ears, reach=6),
    "horns": Top(behind=_horns),
    "curl_horns": Top(behind=_curl_horns, reach=10),
    "antlers": Top(behind=_antlers),
    "coral": Top(behind=_coral),
    "antennae": Top(behind=_antennae),
    "flame": Top(behind=_flame, crown_lift=8),
    "sprout": Top(behind=_sprout, crown_lift=18),
    "crystals": Top(behind=_crystals, crown_lift=26),
    "fin": Top(behind=_fin, crown_lift=10),
    "tuft": Top(behind=_tuft, crown_lift=14),
    "spikes": Top(behind=_spikes, reach=18, crown_lift=10),
    "mushroom_cap": Top(front=_mushroom_cap, reach=6, face=0.1, crown_lift_h=0.3),
    "acorn_cap": Top(front=_acorn_cap, reach=6, crown_lift_h=0.2),
    "bell_hat": Top(front=_bell_hat, crown_lift=28),
    face.STALKS: Top(front=face.stalk_eyes),
}
