"""Card faces and backs drawn as SVG, from code.

Everything here is deterministic: the only randomness is a RNG seeded from the card string
(``random.Random("art/" + card)``), used for small touches such as where the spots and the
background stars go. No outside image or font is used: suit symbols are SVG paths, text uses
generic font families.

Public API: ``card_svg(card, four_colour=False, back="classic")``; ``"??"`` gives the back.
"""

from __future__ import annotations

import hashlib
import math
import random
from functools import lru_cache
from pathlib import Path
from xml.sax.saxutils import escape

from gameplay.engine import cards as c

from . import roster
from .roster import SHADOW, Creature, Look

W, H = 250, 350

BACKS = ("classic", "felt", "nebula", "gold", "critters")
DEFAULT_BACK = "classic"
BACK_NAMES = {
    "classic": "Classic",
    "felt": "Felt",
    "nebula": "Nebula",
    "gold": "Gold",
    "critters": "Critters",
}

INK = "#1d1d26"
TWO_COLOUR = {"S": INK, "H": "#d3182f", "D": "#d3182f", "C": INK, "B": "#b06f00"}
FOUR_COLOUR = {"S": INK, "H": "#d3182f", "D": "#1b5fd0", "C": "#13843a", "B": "#b06f00"}

FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"

# ---------------------------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------------------------


def _n(v: float) -> str:
    """A short number for SVG attributes."""
    s = f"{v:.1f}"
    if s.endswith(".0"):
        s = s[:-2]
    return "0" if s == "-0" else s


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def _hex(rgb: tuple[float, float, float]) -> str:
    return "#" + "".join(f"{max(0, min(255, round(v))):02x}" for v in rgb)


def mix(a: str, b: str, t: float) -> str:
    ra, rb = _rgb(a), _rgb(b)
    return _hex(tuple(x + (y - x) * t for x, y in zip(ra, rb, strict=True)))


def darken(colour: str, t: float) -> str:
    return mix(colour, "#140c1c", t)


def lighten(colour: str, t: float) -> str:
    return mix(colour, "#ffffff", t)


def _art_rng(key: str) -> random.Random:
    return random.Random("art/" + key)


# ---------------------------------------------------------------------------------------------
# Suit symbols (paths in a 100 x 100 box)
# ---------------------------------------------------------------------------------------------

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
        f'<path transform="translate({_n(x - size / 2)} {_n(y - size / 2)}) scale({s:.3f})" '
        f'd="{SUIT_PATHS[suit]}" fill="{fill}"{extra}/>'
    )


# ---------------------------------------------------------------------------------------------
# Creatures
# ---------------------------------------------------------------------------------------------

# Usual body size (width, height) per body shape, before the roster's width/height factors.
_BODY_SIZE = {
    "round": (112, 106),
    "egg": (102, 118),
    "pear": (106, 120),
    "block": (112, 102),
    "bean": (128, 92),
    "drop": (102, 118),
    "dome": (122, 96),
    "ghost": (102, 118),
    "tall": (92, 130),
    "star": (112, 112),
}


def _body_path(shape: str, w: float, h: float) -> str:
    a, b = w / 2, h / 2
    if shape == "round":
        return f"M{_n(-a)} 0A{_n(a)} {_n(b)} 0 1 1 {_n(a)} 0A{_n(a)} {_n(b)} 0 1 1 {_n(-a)} 0Z"
    if shape in ("egg", "pear", "drop"):
        top = {"egg": 0.72, "pear": 0.5, "drop": 0.12}[shape]
        mid = {"egg": -0.35, "pear": -0.15, "drop": -0.1}[shape]
        bulge = {"egg": 0.12, "pear": 0.22, "drop": 0.2}[shape]
        pts = [
            (0, -b),
            (a * top, -b), (a, b * mid), (a, b * bulge),
            (a, b * 0.72), (a * 0.55, b), (0, b),
        ]  # fmt: skip
        (x0, y0), (c1x, c1y), (c2x, c2y), (x1, y1), (c3x, c3y), (c4x, c4y), (x2, y2) = pts
        return (
            f"M{_n(x0)} {_n(y0)}C{_n(c1x)} {_n(c1y)} {_n(c2x)} {_n(c2y)} {_n(x1)} {_n(y1)}"
            f"C{_n(c3x)} {_n(c3y)} {_n(c4x)} {_n(c4y)} {_n(x2)} {_n(y2)}"
            f"C{_n(-c4x)} {_n(c4y)} {_n(-c3x)} {_n(c3y)} {_n(-x1)} {_n(y1)}"
            f"C{_n(-c2x)} {_n(c2y)} {_n(-c1x)} {_n(c1y)} {_n(x0)} {_n(y0)}Z"
        )
    if shape in ("block", "bean", "tall"):
        r = {"block": 0.3 * min(w, h), "bean": 0.48 * h, "tall": 0.46 * w}[shape]
        return (
            f"M{_n(-a + r)} {_n(-b)}H{_n(a - r)}A{_n(r)} {_n(r)} 0 0 1 {_n(a)} {_n(-b + r)}"
            f"V{_n(b - r)}A{_n(r)} {_n(r)} 0 0 1 {_n(a - r)} {_n(b)}H{_n(-a + r)}"
            f"A{_n(r)} {_n(r)} 0 0 1 {_n(-a)} {_n(b - r)}V{_n(-b + r)}"
            f"A{_n(r)} {_n(r)} 0 0 1 {_n(-a + r)} {_n(-b)}Z"
        )
    if shape == "dome":
        base = b * 0.62
        d = f"M{_n(-a)} {_n(base)}C{_n(-a)} {_n(-b * 1.35)} {_n(a)} {_n(-b * 1.35)} {_n(a)} {_n(base)}"
        n = 5
        for i in range(n):
            x0 = a - (i + 1) * w / n
            d += f"Q{_n(x0 + w / n / 2)} {_n(base + b * 0.4)} {_n(x0)} {_n(base)}"
        return d + "Z"
    if shape == "ghost":
        r = a
        top = -b + r
        d = f"M{_n(-a)} {_n(top)}A{_n(r)} {_n(r)} 0 0 1 {_n(a)} {_n(top)}V{_n(b * 0.8)}"
        n = 3
        for i in range(n):
            x0 = a - (i + 1) * w / n
            d += f"Q{_n(x0 + w / n * 0.75)} {_n(b * 1.12)} {_n(x0 + w / n / 2)} {_n(b * 0.86)}"
            d += f"Q{_n(x0 + w / n * 0.25)} {_n(b * 0.6)} {_n(x0)} {_n(b * 0.8)}"
        return d + "Z"
    if shape == "star":
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
                d += f"M{_n(ox)} {_n(oy)}"
            d += f"Q{_n(ix)} {_n(iy)} {_n(nx)} {_n(ny)}"
        return d + "Z"
    raise ValueError(shape)


def _top_y(shape: str, h: float) -> float:
    """Where the top of the head is, for features sitting on it."""
    return {"dome": -h * 0.5 * 0.95, "drop": -h / 2 + 6}.get(shape, -h / 2)


class _Painter:
    """Draws one creature around (0, 0) and returns SVG fragments."""

    def __init__(self, cr: Creature, uid: str, shadow: bool, rnd: random.Random):
        self.cr = cr
        self.look: Look = cr.look
        self.uid = uid
        self.shadow = shadow
        self.rnd = rnd
        pal = roster.PALETTES[cr.suit]
        if shadow:
            self.body = SHADOW["body"]
            self.accent = SHADOW["accent"]
            self.line = SHADOW["glow"]
            self.dark = "#140d1f"
            self.eye = SHADOW["eye"]
        else:
            self.body = pal[self.look.colour]
            self.accent = pal[self.look.accent]
            self.line = darken(self.body, 0.55)
            self.dark = "#2a1a2e"
            self.eye = pal[self.look.accent]
        bw, bh = _BODY_SIZE[self.look.body]
        self.w = bw * self.look.width
        self.h = bh * self.look.height
        self.top = _top_y(self.look.body, self.h)
        cap = self.look.top == "mushroom_cap"
        self.face_y = self.h * (0.1 if cap else -0.08)
        if self.look.body == "dome":
            self.face_y = -self.h * 0.05
        if self.look.body == "drop":
            self.face_y = self.h * 0.02
        self.eye_r = min(self.w, self.h) * 0.11
        self.sw = 3.6  # outline width
        self.flames = 0

    def extent(self) -> tuple[float, float, float, float]:
        """Roughly how far the drawing reaches from (0, 0): (left, right, top, bottom)."""
        lk, w, h = self.look, self.w, self.h
        s = max(w, h) / 110
        half = {
            "wings": 0.4 * w + 62 * s, "bat_wings": 0.4 * w + 66 * s, "fins": 0.42 * w + 34 * s,
            "claws": w / 2 + 29 * s, "leaves": w / 2 + 36 * s, "long": w / 2 + 22 * s,
            "stubby": w / 2 + 6 * s,
        }.get(lk.arms, w / 2)  # fmt: skip
        right = half
        if lk.tail != "none":
            reach = {"fish": 38, "curl": 40, "bell": 42, "lantern": 47, "spiky": 62}.get(
                lk.tail, 50
            )
            right = max(half, w * 0.38 + reach * s)
        top = -self.top + {
            "none": 0, "mushroom_cap": 6 * s, "acorn_cap": 6 * s, "round_ears": 6 * s,
            "cat_ears": 26 * s, "spikes": 18 * s, "curl_horns": 10 * s,
        }.get(lk.top, 36 * s)  # fmt: skip
        if self.cr.rank in ("J", "Q", "K"):
            top = max(top, -self.top + 30 * s)
        bottom = h / 2 + (40 * s if lk.feet == "tentacles" else 28 if lk.feet == "none" else 14 * s)
        return half, right, top, bottom

    # -- paint helpers ----------------------------------------------------------------------
    def fill(self, colour: str) -> str:
        return (
            f'fill="{colour}" stroke="{self.line}" stroke-width="{self.sw}" stroke-linejoin="round"'
        )

    def part(self, d: str, colour: str, extra: str = "") -> str:
        return f'<path d="{d}" {self.fill(colour)}{extra}/>'

    def mirrored(self, frag: str) -> str:
        return frag + f'<g transform="scale(-1 1)">{frag}</g>'

    def limb_colour(self) -> str:
        return darken(self.body, 0.12) if not self.shadow else "#2e2244"

    # -- the drawing ------------------------------------------------------------------------
    def draw(self) -> str:
        lk = self.look
        out = [self.ground()]
        out.append(self.tail())
        out.append(self.back_arms())
        out.append(self.back_top())
        out.append(self.back_feet())
        out.append(self.body_shape())
        out.append(self.front_feet())
        out.append(self.face())
        out.append(self.front_arms())
        out.append(self.front_top())
        if lk.top == "stalk_eyes":
            out.append(self.stalk_eyes())
        out.append(self.headwear())
        return "".join(out)

    def ground(self) -> str:
        floating = self.look.feet == "none"
        y = self.h / 2 + (24 if floating else 10)
        rx = self.w * (0.36 if floating else 0.48)
        colour = "#000000"
        op = 0.22 if self.shadow else 0.13
        return f'<ellipse cx="0" cy="{_n(y)}" rx="{_n(rx)}" ry="{_n(rx * 0.16)}" fill="{colour}" opacity="{op}"/>'

    def body_shape(self) -> str:
        lk = self.look
        gid = f"{self.uid}-body"
        cid = f"{self.uid}-clip"
        d = _body_path(lk.body, self.w, self.h)
        top, bot = lighten(self.body, 0.16), darken(self.body, 0.14)
        if self.shadow:
            top, bot = "#3a2a55", "#1a1226"
        defs = (
            f'<defs><linearGradient id="{gid}" x1="0" y1="0" x2="0" y2="1">'
            f'<stop offset="0" stop-color="{top}"/><stop offset="1" stop-color="{bot}"/>'
            f'</linearGradient><clipPath id="{cid}"><path d="{d}"/></clipPath></defs>'
        )
        body = f'<path d="{d}" fill="url(#{gid})"/>'
        pattern = f'<g clip-path="url(#{cid})">{self.pattern()}{self.sheen()}</g>'
        outline = (
            f'<path d="{d}" fill="none" stroke="{self.line}" stroke-width="{self.sw + 0.6}" '
            f'stroke-linejoin="round"/>'
        )
        return defs + body + pattern + outline

    def sheen(self) -> str:
        w, h = self.w, self.h
        op = 0.16 if self.shadow else 0.38
        return (
            f'<ellipse cx="{_n(-w * 0.2)}" cy="{_n(-h * 0.27)}" rx="{_n(w * 0.15)}" ry="{_n(h * 0.07)}" '
            f'transform="rotate(-28 {_n(-w * 0.2)} {_n(-h * 0.27)})" fill="#ffffff" opacity="{op}"/>'
        )

    def pattern(self) -> str:
        lk, w, h, rnd = self.look, self.w, self.h, self.rnd
        acc = self.accent if not self.shadow else "#4b3a6e"
        a, b = w / 2, h / 2
        p = lk.pattern
        if p == "none":
            return ""
        if p == "spots":
            out = []
            fy = self.face_y + self.eye_r  # keep the spots off the face
            face = min(w, h) * 0.3 + self.eye_r
            placed = 0
            for _ in range(40):
                if placed == 7:
                    break
                x = rnd.uniform(-a * 0.9, a * 0.9)
                y = rnd.uniform(-b * 0.8, b * 0.95)
                r = rnd.uniform(0.05, 0.1) * w
                if math.hypot(x / 1.25, y - fy) < face + r:
                    continue
                placed += 1
                out.append(
                    f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" fill="{acc}" opacity="0.8"/>'
                )
            return "".join(out)
        if p == "freckles":
            out = []
            for _ in range(10):
                x = rnd.uniform(-a * 0.8, a * 0.8)
                y = rnd.uniform(-b * 0.8, b * 0.9)
                out.append(
                    f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(w * 0.022)}" fill="{darken(self.body, 0.35)}" opacity="0.7"/>'
                )
            return "".join(out)
        if p == "stripes":
            out = []
            for i in range(4):
                y = -b * 0.05 + i * h * 0.16
                out.append(
                    f'<path d="M{_n(-a)} {_n(y)}Q0 {_n(y + h * 0.08)} {_n(a)} {_n(y)}" fill="none" '
                    f'stroke="{acc}" stroke-width="{_n(h * 0.055)}" opacity="0.75"/>'
                )
            return "".join(out)
        if p == "belly":
            return (
                f'<ellipse cx="0" cy="{_n(b * 0.5)}" rx="{_n(a * 0.62)}" ry="{_n(b * 0.55)}" '
                f'fill="{lighten(acc, 0.25) if not self.shadow else acc}" opacity="0.9"/>'
            )
        if p == "suit":
            sym_col = TWO_COLOUR[self.cr.suit] if not self.shadow else SHADOW["glow"]
            return (
                f'<ellipse cx="0" cy="{_n(b * 0.72)}" rx="{_n(a * 0.56)}" ry="{_n(b * 0.5)}" '
                f'fill="{lighten(acc, 0.35) if not self.shadow else acc}"/>'
                + suit_symbol(self.cr.suit, 0, b * 0.64, w * 0.22, sym_col, ' opacity="0.85"')
            )
        if p == "scales":
            out = []
            r = w * 0.075
            for row in range(5):
                y = b * 0.02 + row * r * 1.3
                off = r if row % 2 else 0
                x = -a + off
                while x < a + r:
                    out.append(
                        f'<path d="M{_n(x - r)} {_n(y)}A{_n(r)} {_n(r)} 0 0 0 {_n(x + r)} {_n(y)}" '
                        f'fill="none" stroke="{acc}" stroke-width="2.2" opacity="0.8"/>'
                    )
                    x += 2 * r
            return "".join(out)
        if p == "cracks":
            out = []
            col = darken(self.body, 0.4) if not self.shadow else "#5b3f8a"
            for _ in range(3):
                x = rnd.uniform(-a * 0.7, a * 0.7)
                y = rnd.uniform(-b * 0.1, b * 0.7)
                d = f"M{_n(x)} {_n(y)}"
                for _ in range(3):
                    x += rnd.uniform(-9, 9)
                    y += rnd.uniform(5, 11)
                    d += f"L{_n(x)} {_n(y)}"
                out.append(
                    f'<path d="{d}" fill="none" stroke="{col}" stroke-width="2.4" stroke-linecap="round" opacity="0.8"/>'
                )
            return "".join(out)
        if p == "facets":
            col = "#ffffff"
            out = []
            pts = [(rnd.uniform(-a, a), rnd.uniform(-b, b)) for _ in range(5)]
            for x, y in pts:
                s = w * 0.16
                out.append(
                    f'<path d="M{_n(x)} {_n(y - s)}L{_n(x + s * 0.7)} {_n(y)}L{_n(x)} {_n(y + s)}'
                    f'L{_n(x - s * 0.7)} {_n(y)}Z" fill="{col}" opacity="0.18"/>'
                )
            out.append(
                f'<path d="M{_n(-a)} {_n(-b * 0.1)}L{_n(-a * 0.2)} {_n(b * 0.3)}L{_n(a)} {_n(-b * 0.2)}'
                f'M{_n(-a * 0.2)} {_n(b * 0.3)}L{_n(-a * 0.1)} {_n(b)}" fill="none" stroke="{col}" '
                f'stroke-width="1.8" opacity="0.35"/>'
            )
            return "".join(out)
        if p == "patches":
            return (
                f'<ellipse cx="{_n(a * 0.5)}" cy="{_n(-b * 0.45)}" rx="{_n(a * 0.42)}" ry="{_n(b * 0.34)}" '
                f'fill="{darken(self.body, 0.25)}" opacity="0.85"/>'
                f'<ellipse cx="0" cy="{_n(b * 0.55)}" rx="{_n(a * 0.55)}" ry="{_n(b * 0.5)}" fill="{lighten(acc, 0.2)}"/>'
            )
        return ""

    # -- face -------------------------------------------------------------------------------
    def face(self) -> str:
        lk = self.look
        out = []
        if lk.top != "stalk_eyes":
            out.append(self.eyes(lk.eyes, self.face_y))
        r = self.eye_r
        ex = self.w * (0.3 if lk.eyes == "wide" else 0.21)
        if not self.shadow:
            cy = self.face_y + r * 1.45
            cx = ex + r * 0.75
            out.append(
                f'<ellipse cx="{_n(cx)}" cy="{_n(cy)}" rx="{_n(r * 0.6)}" ry="{_n(r * 0.36)}" fill="#ff6f91" opacity="0.42"/>'
                f'<ellipse cx="{_n(-cx)}" cy="{_n(cy)}" rx="{_n(r * 0.6)}" ry="{_n(r * 0.36)}" fill="#ff6f91" opacity="0.42"/>'
            )
        out.append(self.mouth(lk.mouth, self.face_y + r * 1.7))
        return "".join(out)

    def eyes(self, style: str, y: float, spread: float | None = None) -> str:
        r = self.eye_r
        ex = spread if spread is not None else self.w * (0.3 if style == "wide" else 0.21)
        if self.shadow:
            style = {"one": "one", "three": "three"}.get(style, "glow")
        gx = self.rnd.uniform(-0.25, 0.25) * r
        gy = self.rnd.uniform(-0.1, 0.2) * r
        pupil = "#1e1428"
        out = []

        def big(x: float, yy: float, rr: float) -> str:
            return (
                f'<circle cx="{_n(x)}" cy="{_n(yy)}" r="{_n(rr)}" fill="#ffffff" stroke="{self.line}" stroke-width="2.4"/>'
                f'<circle cx="{_n(x + gx)}" cy="{_n(yy + gy)}" r="{_n(rr * 0.62)}" fill="{pupil}"/>'
                f'<circle cx="{_n(x + gx - rr * 0.22)}" cy="{_n(yy + gy - rr * 0.26)}" r="{_n(rr * 0.22)}" fill="#ffffff"/>'
                f'<circle cx="{_n(x + gx + rr * 0.2)}" cy="{_n(yy + gy + rr * 0.22)}" r="{_n(rr * 0.1)}" fill="#ffffff"/>'
            )

        if style == "big" or style == "wide":
            rr = r * (0.9 if style == "wide" else 1.0)
            out += [big(-ex, y, rr), big(ex, y, rr)]
        elif style == "dots":
            for x in (-ex, ex):
                out.append(
                    f'<ellipse cx="{_n(x)}" cy="{_n(y)}" rx="{_n(r * 0.48)}" ry="{_n(r * 0.62)}" fill="{pupil}"/>'
                    f'<circle cx="{_n(x - r * 0.14)}" cy="{_n(y - r * 0.22)}" r="{_n(r * 0.18)}" fill="#ffffff"/>'
                )
        elif style == "one":
            rr = r * 1.55
            iris = self.eye if not self.shadow else SHADOW["glow"]
            out.append(
                f'<circle cx="0" cy="{_n(y)}" r="{_n(rr)}" fill="#ffffff" stroke="{self.line}" stroke-width="2.6"/>'
                f'<circle cx="{_n(gx)}" cy="{_n(y + gy)}" r="{_n(rr * 0.62)}" fill="{iris}"/>'
                f'<circle cx="{_n(gx)}" cy="{_n(y + gy)}" r="{_n(rr * 0.34)}" fill="{pupil}"/>'
                f'<circle cx="{_n(gx - rr * 0.25)}" cy="{_n(y + gy - rr * 0.28)}" r="{_n(rr * 0.17)}" fill="#ffffff"/>'
            )
        elif style == "three":
            rr = r * 0.78
            if self.shadow:
                for x, yy in ((-ex, y + 2), (ex, y + 2), (0, y - rr * 1.7)):
                    out.append(self._glow_eye(x, yy, rr))
            else:
                out += [big(-ex, y + 2, rr), big(ex, y + 2, rr), big(0, y - rr * 1.7, rr)]
        elif style == "sleepy":
            for x in (-ex, ex):
                out.append(
                    f'<path d="M{_n(x - r * 0.75)} {_n(y + r * 0.15)}Q{_n(x)} {_n(y - r * 0.85)} {_n(x + r * 0.75)} {_n(y + r * 0.15)}" '
                    f'fill="none" stroke="{pupil}" stroke-width="3.6" stroke-linecap="round"/>'
                )
        elif style == "angry":
            out += [big(-ex, y, r), big(ex, y, r)]
            for s in (-1, 1):
                x = s * ex
                out.append(
                    f'<path d="M{_n(x + s * r * 1.05)} {_n(y - r * 1.35)}L{_n(x - s * r * 0.7)} {_n(y - r * 0.85)}" '
                    f'stroke="{pupil}" stroke-width="4.2" stroke-linecap="round"/>'
                )
        elif style == "glow":
            for x in (-ex, ex):
                out.append(self._glow_eye(x, y, r))
        return "".join(out)

    def _glow_eye(self, x: float, y: float, r: float) -> str:
        col = self.eye if not self.shadow else SHADOW["eye"]
        halo = col if not self.shadow else SHADOW["glow"]
        return (
            f'<ellipse cx="{_n(x)}" cy="{_n(y)}" rx="{_n(r * 1.05)}" ry="{_n(r * 0.95)}" fill="{halo}" opacity="0.35"/>'
            f'<ellipse cx="{_n(x)}" cy="{_n(y)}" rx="{_n(r * 0.72)}" ry="{_n(r * 0.62)}" fill="{col}" '
            f'stroke="{darken(col, 0.5) if not self.shadow else SHADOW["glow"]}" stroke-width="2"/>'
            f'<circle cx="{_n(x - r * 0.2)}" cy="{_n(y - r * 0.18)}" r="{_n(r * 0.2)}" fill="#ffffff" opacity="0.9"/>'
        )

    def mouth(self, style: str, y: float) -> str:
        m = self.w * 0.085
        ink = "#2a1a2e" if not self.shadow else SHADOW["glow"]
        inside = "#5b1f2e" if not self.shadow else "#0e0818"
        line = f'fill="none" stroke="{ink}" stroke-width="3.4" stroke-linecap="round" stroke-linejoin="round"'
        if style == "smile":
            return f'<path d="M{_n(-m)} {_n(y)}Q0 {_n(y + m * 0.9)} {_n(m)} {_n(y)}" {line}/>'
        if style == "flat":
            return f'<path d="M{_n(-m * 0.8)} {_n(y + 2)}Q0 {_n(y + 4)} {_n(m * 0.8)} {_n(y + 2)}" {line}/>'
        if style == "cat":
            return (
                f'<path d="M{_n(-m)} {_n(y)}Q{_n(-m / 2)} {_n(y + m * 0.75)} 0 {_n(y + 1)}'
                f'Q{_n(m / 2)} {_n(y + m * 0.75)} {_n(m)} {_n(y)}" {line}/>'
            )
        if style == "o":
            return (
                f'<ellipse cx="0" cy="{_n(y + m * 0.3)}" rx="{_n(m * 0.42)}" ry="{_n(m * 0.5)}" fill="{inside}" '
                f'stroke="{ink}" stroke-width="2.6"/>'
            )
        if style in ("grin", "tongue", "fang", "tusks"):
            wide = 1.25 if style == "grin" else 1.0
            mw = m * wide
            d = f"M{_n(-mw)} {_n(y)}Q0 {_n(y + mw * 1.55)} {_n(mw)} {_n(y)}Z"
            out = f'<path d="{d}" fill="{inside}" stroke="{ink}" stroke-width="3" stroke-linejoin="round"/>'
            if style == "grin":
                cid = f"{self.uid}-mouth"
                out = (
                    f'<defs><clipPath id="{cid}"><path d="{d}"/></clipPath></defs>'
                    f'<path d="{d}" fill="{inside}"/>'
                    f'<rect x="{_n(-mw)}" y="{_n(y - 1)}" width="{_n(2 * mw)}" height="{_n(mw * 0.32)}" '
                    f'fill="#ffffff" clip-path="url(#{cid})"/>'
                    f'<path d="{d}" fill="none" stroke="{ink}" stroke-width="3" stroke-linejoin="round"/>'
                )
            if style == "tongue":
                cid = f"{self.uid}-mouth"
                out = (
                    f'<defs><clipPath id="{cid}"><path d="{d}"/></clipPath></defs>'
                    f'<path d="{d}" fill="{inside}"/>'
                    f'<ellipse cx="{_n(mw * 0.15)}" cy="{_n(y + mw * 0.85)}" rx="{_n(mw * 0.5)}" ry="{_n(mw * 0.38)}" '
                    f'fill="#ff7d8f" clip-path="url(#{cid})"/>'
                    f'<path d="{d}" fill="none" stroke="{ink}" stroke-width="3" stroke-linejoin="round"/>'
                )
            if style == "fang":
                out += (
                    f'<path d="M{_n(-mw * 0.55)} {_n(y + 1)}l{_n(mw * 0.18)} {_n(mw * 0.42)}l{_n(mw * 0.18)} {_n(-mw * 0.42)}Z" fill="#ffffff"/>'
                    f'<path d="M{_n(mw * 0.2)} {_n(y + 1)}l{_n(mw * 0.18)} {_n(mw * 0.42)}l{_n(mw * 0.18)} {_n(-mw * 0.42)}Z" fill="#ffffff"/>'
                )
            if style == "tusks":
                tusk = "#fff8e6" if not self.shadow else "#cdb6f5"
                for s in (-1, 1):
                    out += (
                        f'<path d="M{_n(s * mw * 0.75)} {_n(y + mw * 0.45)}Q{_n(s * mw * 1.0)} {_n(y - mw * 0.25)} '
                        f'{_n(s * mw * 1.15)} {_n(y - mw * 0.6)}Q{_n(s * mw * 1.2)} {_n(y + mw * 0.1)} {_n(s * mw * 0.95)} {_n(y + mw * 0.5)}Z" '
                        f'fill="{tusk}" stroke="{ink}" stroke-width="2"/>'
                    )
            return out
        if style == "beak":
            beak = "#f6b23d" if not self.shadow else "#4a3868"
            return (
                f'<path d="M{_n(-m * 0.7)} {_n(y - m * 0.5)}Q0 {_n(y - m * 0.9)} {_n(m * 0.7)} {_n(y - m * 0.5)}'
                f'L0 {_n(y + m * 0.75)}Z" fill="{beak}" stroke="{darken(beak, 0.45) if not self.shadow else SHADOW["glow"]}" '
                f'stroke-width="2.6" stroke-linejoin="round"/>'
            )
        return ""

    # -- arms -------------------------------------------------------------------------------
    def back_arms(self) -> str:
        style = self.look.arms
        w, h = self.w, self.h
        x0 = w * 0.4
        y0 = -h * 0.08
        s = max(w, h) / 110
        if style == "wings":
            col = lighten(self.accent, 0.2) if not self.shadow else "#3a2a55"
            d = (
                f"M{_n(x0)} {_n(y0)}C{_n(x0 + 28 * s)} {_n(y0 - 42 * s)} {_n(x0 + 58 * s)} {_n(y0 - 40 * s)} "
                f"{_n(x0 + 60 * s)} {_n(y0 - 18 * s)}C{_n(x0 + 50 * s)} {_n(y0 - 12 * s)} {_n(x0 + 54 * s)} {_n(y0 - 2 * s)} "
                f"{_n(x0 + 42 * s)} {_n(y0 + 4 * s)}C{_n(x0 + 40 * s)} {_n(y0 + 14 * s)} {_n(x0 + 24 * s)} {_n(y0 + 18 * s)} "
                f"{_n(x0 - 4 * s)} {_n(y0 + 16 * s)}Z"
            )
            vein = (
                f'<path d="M{_n(x0 + 6 * s)} {_n(y0 + 4 * s)}Q{_n(x0 + 28 * s)} {_n(y0 - 14 * s)} {_n(x0 + 48 * s)} {_n(y0 - 22 * s)}" '
                f'fill="none" stroke="{self.line}" stroke-width="2" opacity="0.5"/>'
            )
            return self.mirrored(self.part(d, col) + vein)
        if style == "bat_wings":
            col = darken(self.body, 0.2) if not self.shadow else "#2e2244"
            d = (
                f"M{_n(x0 - 4 * s)} {_n(y0 - 6 * s)}L{_n(x0 + 56 * s)} {_n(y0 - 40 * s)}"
                f"Q{_n(x0 + 58 * s)} {_n(y0 - 12 * s)} {_n(x0 + 66 * s)} {_n(y0 + 8 * s)}"
                f"Q{_n(x0 + 52 * s)} {_n(y0 + 2 * s)} {_n(x0 + 44 * s)} {_n(y0 + 16 * s)}"
                f"Q{_n(x0 + 32 * s)} {_n(y0 + 6 * s)} {_n(x0 + 22 * s)} {_n(y0 + 18 * s)}"
                f"Q{_n(x0 + 12 * s)} {_n(y0 + 8 * s)} {_n(x0 - 4 * s)} {_n(y0 + 16 * s)}Z"
            )
            ribs = (
                f'<path d="M{_n(x0)} {_n(y0)}L{_n(x0 + 44 * s)} {_n(y0 + 14 * s)}M{_n(x0)} {_n(y0)}L{_n(x0 + 24 * s)} {_n(y0 + 16 * s)}'
                f'M{_n(x0)} {_n(y0)}L{_n(x0 + 62 * s)} {_n(y0 + 6 * s)}" stroke="{self.line}" stroke-width="2" opacity="0.55"/>'
            )
            return self.mirrored(self.part(d, col) + ribs)
        if style == "fins":
            col = self.accent if not self.shadow else "#3a2a55"
            x1, y1 = w * 0.42, h * 0.08
            d = (
                f"M{_n(x1)} {_n(y1 - 8 * s)}Q{_n(x1 + 30 * s)} {_n(y1 - 16 * s)} {_n(x1 + 34 * s)} {_n(y1 + 14 * s)}"
                f"Q{_n(x1 + 16 * s)} {_n(y1 + 8 * s)} {_n(x1)} {_n(y1 + 14 * s)}Z"
            )
            return self.mirrored(self.part(d, col))
        return ""

    def front_arms(self) -> str:
        style = self.look.arms
        w, h = self.w, self.h
        s = max(w, h) / 110
        col = self.limb_colour()
        edge = self._edge_x(h * 0.12)
        if style == "stubby":
            x, y = edge - 3 * s, h * 0.12
            frag = (
                f'<ellipse cx="{_n(x)}" cy="{_n(y)}" rx="{_n(9 * s)}" ry="{_n(14 * s)}" '
                f'transform="rotate(-28 {_n(x)} {_n(y)})" {self.fill(col)}/>'
            )
            return self.mirrored(frag)
        if style == "long":
            x, y = edge - 6 * s, h * 0.0
            d = f"M{_n(x)} {_n(y)}Q{_n(x + 22 * s)} {_n(y + 8 * s)} {_n(x + 20 * s)} {_n(y + 34 * s)}"
            frag = (
                f'<path d="{d}" fill="none" stroke="{self.line}" stroke-width="{_n(13 * s)}" stroke-linecap="round"/>'
                f'<path d="{d}" fill="none" stroke="{col}" stroke-width="{_n(7.5 * s)}" stroke-linecap="round"/>'
                f'<circle cx="{_n(x + 20 * s)}" cy="{_n(y + 36 * s)}" r="{_n(8 * s)}" {self.fill(col)}/>'
            )
            return self.mirrored(frag)
        if style == "claws":
            x, y = edge + 14 * s, -h * 0.2
            claw_col = self.accent if not self.shadow else "#3a2a55"
            arm = (
                f'<path d="M{_n(edge - 6 * s)} {_n(h * 0.1)}Q{_n(x + 4 * s)} {_n(h * 0.08)} {_n(x)} {_n(y + 10 * s)}" '
                f'fill="none" stroke="{self.line}" stroke-width="{_n(11 * s)}" stroke-linecap="round"/>'
                f'<path d="M{_n(edge - 6 * s)} {_n(h * 0.1)}Q{_n(x + 4 * s)} {_n(h * 0.08)} {_n(x)} {_n(y + 10 * s)}" '
                f'fill="none" stroke="{col}" stroke-width="{_n(6 * s)}" stroke-linecap="round"/>'
            )
            r = 15 * s
            pincer = (
                f"M{_n(x)} {_n(y + r)}A{_n(r)} {_n(r)} 0 1 1 {_n(x + r * 0.95)} {_n(y - r * 0.1)}"
                f"L{_n(x + r * 0.1)} {_n(y - r * 0.05)}L{_n(x + r * 0.85)} {_n(y + r * 0.5)}"
                f"A{_n(r)} {_n(r)} 0 0 1 {_n(x)} {_n(y + r)}Z"
            )
            return self.mirrored(arm + self.part(pincer, claw_col))
        if style == "leaves":
            x, y = edge - 4 * s, h * 0.06
            leaf_col = self.accent if self.cr.suit != "C" else roster.PALETTES["C"]["leaf"]
            if self.shadow:
                leaf_col = "#3a2a55"
            if self.look.accent in ("berry", "cream"):
                leaf_col = roster.PALETTES["C"]["leaf"] if not self.shadow else leaf_col
            d = (
                f"M{_n(x)} {_n(y)}C{_n(x + 14 * s)} {_n(y - 14 * s)} {_n(x + 34 * s)} {_n(y - 4 * s)} "
                f"{_n(x + 40 * s)} {_n(y + 14 * s)}C{_n(x + 24 * s)} {_n(y + 22 * s)} {_n(x + 8 * s)} {_n(y + 16 * s)} {_n(x)} {_n(y)}Z"
            )
            vein = (
                f'<path d="M{_n(x + 2 * s)} {_n(y + 2 * s)}Q{_n(x + 22 * s)} {_n(y + 4 * s)} {_n(x + 38 * s)} {_n(y + 13 * s)}" '
                f'fill="none" stroke="{self.line}" stroke-width="1.8" opacity="0.6"/>'
            )
            return self.mirrored(self.part(d, leaf_col) + vein)
        return ""

    def _edge_x(self, y: float) -> float:
        """Roughly where the body's side is at height y."""
        a, b = self.w / 2, self.h / 2
        style = self.look.body
        if style in ("block", "bean", "tall", "ghost"):
            return a
        t = max(-0.99, min(0.99, y / b))
        base = a * math.sqrt(1 - t * t)
        if style in ("pear", "drop") and y < 0:
            base *= 0.85
        return base

    # -- feet -------------------------------------------------------------------------------
    def back_feet(self) -> str:
        style = self.look.feet
        w, h = self.w, self.h
        s = max(w, h) / 110
        col = self.limb_colour()
        base = h / 2
        if self.look.body == "dome":
            base = h * 0.5 * 0.62
        if style == "stubby":
            frag = f'<ellipse cx="{_n(w * 0.2)}" cy="{_n(base + 3 * s)}" rx="{_n(13 * s)}" ry="{_n(9 * s)}" {self.fill(col)}/>'
            return self.mirrored(frag)
        if style == "tentacles":
            out = []
            n = 5
            for i in range(n):
                x = -w * 0.36 + i * (w * 0.72) / (n - 1)
                sway = 7 * s * (1 if i % 2 else -1)
                d = (
                    f"M{_n(x)} {_n(base - 4)}C{_n(x + sway)} {_n(base + 14 * s)} {_n(x - sway)} {_n(base + 24 * s)} "
                    f"{_n(x + sway * 0.6)} {_n(base + 36 * s)}"
                )
                out.append(
                    f'<path d="{d}" fill="none" stroke="{self.line}" stroke-width="{_n(11 * s)}" stroke-linecap="round"/>'
                    f'<path d="{d}" fill="none" stroke="{col}" stroke-width="{_n(6 * s)}" stroke-linecap="round"/>'
                )
            return "".join(out)
        if style == "roots":
            col = darken(roster.PALETTES["C"]["bark"], 0.1) if not self.shadow else "#2e2244"
            out = []
            for x, dx in ((-0.3, -22), (-0.08, -6), (0.12, 8), (0.32, 24)):
                d = f"M{_n(w * x)} {_n(base - 6)}Q{_n(w * x + dx * s * 0.4)} {_n(base + 10 * s)} {_n(w * x + dx * s)} {_n(base + 14 * s)}"
                out.append(
                    f'<path d="{d}" fill="none" stroke="{self.line}" stroke-width="{_n(10 * s)}" stroke-linecap="round"/>'
                    f'<path d="{d}" fill="none" stroke="{col}" stroke-width="{_n(5 * s)}" stroke-linecap="round"/>'
                )
            return "".join(out)
        return ""

    def front_feet(self) -> str:
        if self.look.feet != "paws":
            return ""
        w, h = self.w, self.h
        s = max(w, h) / 110
        col = self.limb_colour()
        base = h / 2
        x, y = w * 0.22, base - 2 * s
        frag = (
            f'<ellipse cx="{_n(x)}" cy="{_n(y)}" rx="{_n(14 * s)}" ry="{_n(9 * s)}" {self.fill(col)}/>'
            f'<path d="M{_n(x - 4 * s)} {_n(y + 2 * s)}v{_n(5 * s)}M{_n(x + 4 * s)} {_n(y + 2 * s)}v{_n(5 * s)}" '
            f'stroke="{self.line}" stroke-width="2" stroke-linecap="round"/>'
        )
        return self.mirrored(frag)

    # -- tails ------------------------------------------------------------------------------
    def tail(self) -> str:
        style = self.look.tail
        w, h = self.w, self.h
        s = max(w, h) / 110
        x0, y0 = w * 0.38, h * 0.22
        col = self.body if not self.shadow else "#2e2244"
        if style == "none":
            return ""
        if style == "flame":
            return self._flame(x0 + 22 * s, y0 - 18 * s, 26 * s, 44 * s, rotate=35)
        if style == "fish":
            fin = self.accent if not self.shadow else "#3a2a55"
            d = (
                f"M{_n(x0 - 4 * s)} {_n(y0 - 4 * s)}Q{_n(x0 + 18 * s)} {_n(y0)} {_n(x0 + 34 * s)} {_n(y0 - 20 * s)}"
                f"Q{_n(x0 + 30 * s)} {_n(y0 + 4 * s)} {_n(x0 + 38 * s)} {_n(y0 + 22 * s)}"
                f"Q{_n(x0 + 18 * s)} {_n(y0 + 8 * s)} {_n(x0 - 4 * s)} {_n(y0 + 12 * s)}Z"
            )
            return self.part(d, fin)
        if style == "leaf":
            tip = lighten(self.accent, 0.1) if not self.shadow else "#3a2a55"
            d = (
                f"M{_n(x0 - 6 * s)} {_n(y0 + 8 * s)}C{_n(x0 + 40 * s)} {_n(y0 + 12 * s)} {_n(x0 + 50 * s)} {_n(y0 - 40 * s)} "
                f"{_n(x0 + 26 * s)} {_n(y0 - 62 * s)}C{_n(x0 + 30 * s)} {_n(y0 - 30 * s)} {_n(x0 + 10 * s)} {_n(y0 - 8 * s)} {_n(x0 - 6 * s)} {_n(y0 - 6 * s)}Z"
            )
            tipd = (
                f"M{_n(x0 + 26 * s)} {_n(y0 - 62 * s)}C{_n(x0 + 40 * s)} {_n(y0 - 52 * s)} {_n(x0 + 44 * s)} {_n(y0 - 40 * s)} "
                f"{_n(x0 + 42 * s)} {_n(y0 - 30 * s)}C{_n(x0 + 34 * s)} {_n(y0 - 36 * s)} {_n(x0 + 30 * s)} {_n(y0 - 46 * s)} {_n(x0 + 26 * s)} {_n(y0 - 62 * s)}Z"
            )
            return self.part(d, col) + self.part(tipd, tip)
        if style == "curl":
            d = (
                f"M{_n(x0 - 6 * s)} {_n(y0 + 10 * s)}C{_n(x0 + 30 * s)} {_n(y0 + 14 * s)} {_n(x0 + 40 * s)} {_n(y0 - 20 * s)} "
                f"{_n(x0 + 24 * s)} {_n(y0 - 26 * s)}C{_n(x0 + 12 * s)} {_n(y0 - 30 * s)} {_n(x0 + 8 * s)} {_n(y0 - 14 * s)} {_n(x0 + 18 * s)} {_n(y0 - 12 * s)}"
            )
            return (
                f'<path d="{d}" fill="none" stroke="{self.line}" stroke-width="{_n(13 * s)}" stroke-linecap="round"/>'
                f'<path d="{d}" fill="none" stroke="{col}" stroke-width="{_n(7.5 * s)}" stroke-linecap="round"/>'
            )
        if style == "spiky":
            d = (
                f"M{_n(x0 - 6 * s)} {_n(y0 - 6 * s)}Q{_n(x0 + 30 * s)} {_n(y0 + 4 * s)} {_n(x0 + 48 * s)} {_n(y0 - 26 * s)}"
                f"L{_n(x0 + 52 * s)} {_n(y0 - 12 * s)}Q{_n(x0 + 34 * s)} {_n(y0 + 20 * s)} {_n(x0 - 6 * s)} {_n(y0 + 14 * s)}Z"
            )
            spikes = "".join(
                self.part(
                    f"M{_n(x0 + px * s)} {_n(y0 + py * s)}l{_n(4 * s)} {_n(-12 * s)}l{_n(6 * s)} {_n(10 * s)}Z",
                    self.accent if not self.shadow else "#4a3868",
                )
                for px, py in ((10, -2), (24, -4), (36, -12))
            )
            tip = self.part(
                f"M{_n(x0 + 44 * s)} {_n(y0 - 22 * s)}l{_n(18 * s)} {_n(-14 * s)}l{_n(-4 * s)} {_n(22 * s)}Z",
                self.accent if not self.shadow else "#4a3868",
            )
            return spikes + self.part(d, col) + tip
        if style in ("lantern", "bell"):
            d = f"M{_n(x0 - 6 * s)} {_n(y0 + 8 * s)}C{_n(x0 + 30 * s)} {_n(y0 + 10 * s)} {_n(x0 + 34 * s)} {_n(y0 - 30 * s)} {_n(x0 + 30 * s)} {_n(y0 - 44 * s)}"
            stem = (
                f'<path d="{d}" fill="none" stroke="{self.line}" stroke-width="{_n(9 * s)}" stroke-linecap="round"/>'
                f'<path d="{d}" fill="none" stroke="{col}" stroke-width="{_n(4.5 * s)}" stroke-linecap="round"/>'
            )
            bx, by = x0 + 30 * s, y0 - 52 * s
            if style == "lantern":
                glow = self.eye if not self.shadow else SHADOW["glow"]
                return stem + (
                    f'<circle cx="{_n(bx)}" cy="{_n(by)}" r="{_n(17 * s)}" fill="{glow}" opacity="0.3"/>'
                    f'<circle cx="{_n(bx)}" cy="{_n(by)}" r="{_n(10 * s)}" fill="{glow}" stroke="{self.line}" stroke-width="2.4"/>'
                    f'<circle cx="{_n(bx - 3 * s)}" cy="{_n(by - 3 * s)}" r="{_n(3 * s)}" fill="#ffffff" opacity="0.85"/>'
                )
            return stem + self._small_bell(bx, by + 4 * s, 24 * s)
        return ""

    def _small_bell(self, x: float, y: float, size: float) -> str:
        gold = roster.PALETTES["B"]["gold"] if not self.shadow else "#4a3868"
        edge = darken(roster.PALETTES["B"]["bronze"], 0.35) if not self.shadow else SHADOW["glow"]
        return suit_symbol(
            "B", x, y, size, gold, f' stroke="{edge}" stroke-width="{_n(300 / size)}"'
        )

    def _flame(self, x: float, y: float, fw: float, fh: float, rotate: float = 0) -> str:
        self.flames += 1
        gid = f"{self.uid}-flame{self.flames}"
        if self.shadow:
            c1, c2, edge = "#7b4fd0", "#2e1f4a", SHADOW["glow"]
        else:
            c1, c2, edge = "#ffe36e", "#f2542d", "#b5321c"
        d = (
            f"M0 {_n(fh / 2)}C{_n(-fw * 0.6)} {_n(fh / 2)} {_n(-fw * 0.62)} {_n(fh * 0.05)} {_n(-fw * 0.3)} {_n(-fh * 0.12)}"
            f"C{_n(-fw * 0.22)} {_n(-fh * 0.02)} {_n(-fw * 0.12)} {_n(fh * 0.02)} {_n(-fw * 0.08)} {_n(-fh * 0.06)}"
            f"C{_n(-fw * 0.18)} {_n(-fh * 0.3)} {_n(0)} {_n(-fh * 0.42)} {_n(fw * 0.05)} {_n(-fh / 2)}"
            f"C{_n(fw * 0.1)} {_n(-fh * 0.3)} {_n(fw * 0.55)} {_n(-fh * 0.2)} {_n(fw * 0.5)} {_n(fh * 0.14)}"
            f"C{_n(fw * 0.5)} {_n(fh * 0.38)} {_n(fw * 0.3)} {_n(fh / 2)} 0 {_n(fh / 2)}Z"
        )
        inner = f"M0 {_n(fh * 0.46)}C{_n(-fw * 0.3)} {_n(fh * 0.46)} {_n(-fw * 0.3)} {_n(fh * 0.15)} {_n(fw * 0.02)} {_n(-fh * 0.08)}C{_n(fw * 0.3)} {_n(fh * 0.18)} {_n(fw * 0.26)} {_n(fh * 0.46)} 0 {_n(fh * 0.46)}Z"
        return (
            f'<g transform="translate({_n(x)} {_n(y)}) rotate({_n(rotate)})">'
            f'<defs><linearGradient id="{gid}" x1="0" y1="1" x2="0" y2="0">'
            f'<stop offset="0" stop-color="{c2}"/><stop offset="1" stop-color="{c1}"/></linearGradient></defs>'
            f'<path d="{d}" fill="url(#{gid})" stroke="{edge}" stroke-width="3" stroke-linejoin="round"/>'
            f'<path d="{inner}" fill="{c1}" opacity="0.85"/></g>'
        )

    # -- head features ----------------------------------------------------------------------
    def back_top(self) -> str:
        style = self.look.top
        w, h, t = self.w, self.h, self.top
        s = max(w, h) / 110
        acc = self.accent if not self.shadow else "#4a3868"
        col = self.body if not self.shadow else "#2e2244"
        inner = lighten(self.accent, 0.1) if not self.shadow else "#4a3868"
        if style == "cat_ears":
            x = w * 0.27
            frag = self.part(
                f"M{_n(x - 17 * s)} {_n(t + 14 * s)}L{_n(x + 4 * s)} {_n(t - 26 * s)}L{_n(x + 18 * s)} {_n(t + 12 * s)}Z",
                col,
            ) + (
                f'<path d="M{_n(x - 8 * s)} {_n(t + 8 * s)}L{_n(x + 3 * s)} {_n(t - 14 * s)}L{_n(x + 10 * s)} {_n(t + 8 * s)}Z" fill="{inner}"/>'
            )
            return self.mirrored(frag)
        if style == "bunny_ears":
            x, y = w * 0.17, t - 24 * s
            frag = (
                f'<ellipse cx="{_n(x)}" cy="{_n(y)}" rx="{_n(10 * s)}" ry="{_n(30 * s)}" transform="rotate(12 {_n(x)} {_n(y)})" {self.fill(col)}/>'
                f'<ellipse cx="{_n(x)}" cy="{_n(y + 3 * s)}" rx="{_n(5 * s)}" ry="{_n(21 * s)}" transform="rotate(12 {_n(x)} {_n(y)})" fill="{inner}"/>'
            )
            return self.mirrored(frag)
        if style == "bat_ears":
            x = w * 0.24
            frag = self.part(
                f"M{_n(x - 20 * s)} {_n(t + 16 * s)}L{_n(x + 18 * s)} {_n(t - 30 * s)}Q{_n(x + 16 * s)} {_n(t + 2 * s)} {_n(x + 26 * s)} {_n(t + 24 * s)}Z",
                col,
            ) + (
                f'<path d="M{_n(x - 8 * s)} {_n(t + 12 * s)}L{_n(x + 14 * s)} {_n(t - 16 * s)}Q{_n(x + 12 * s)} {_n(t + 4 * s)} {_n(x + 18 * s)} {_n(t + 16 * s)}Z" fill="{inner}"/>'
            )
            return self.mirrored(frag)
        if style == "round_ears":
            x, y = w * 0.33, t + 10 * s
            frag = (
                f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(15 * s)}" {self.fill(col)}/>'
                f'<circle cx="{_n(x)}" cy="{_n(y + 1 * s)}" r="{_n(8 * s)}" fill="{inner}"/>'
            )
            return self.mirrored(frag)
        if style == "horns":
            x = w * 0.2
            horn = lighten(acc, 0.3) if not self.shadow else "#4a3868"
            frag = self.part(
                f"M{_n(x - 8 * s)} {_n(t + 10 * s)}Q{_n(x + 2 * s)} {_n(t - 14 * s)} {_n(x + 16 * s)} {_n(t - 26 * s)}"
                f"Q{_n(x + 14 * s)} {_n(t - 4 * s)} {_n(x + 10 * s)} {_n(t + 12 * s)}Z",
                horn,
            )
            return self.mirrored(frag)
        if style == "curl_horns":
            horn = lighten(acc, 0.15) if not self.shadow else "#4a3868"
            x, y = w * 0.38, t + 16 * s
            d = (
                f"M{_n(x - 16 * s)} {_n(y - 8 * s)}C{_n(x + 4 * s)} {_n(y - 30 * s)} {_n(x + 30 * s)} {_n(y - 14 * s)} {_n(x + 24 * s)} {_n(y + 8 * s)}"
                f"C{_n(x + 20 * s)} {_n(y + 22 * s)} {_n(x + 4 * s)} {_n(y + 18 * s)} {_n(x + 6 * s)} {_n(y + 6 * s)}"
                f"C{_n(x + 8 * s)} {_n(y - 4 * s)} {_n(x + 16 * s)} {_n(y)} {_n(x + 14 * s)} {_n(y + 4 * s)}"
                f"C{_n(x + 12 * s)} {_n(y - 10 * s)} {_n(x - 4 * s)} {_n(y - 10 * s)} {_n(x - 12 * s)} {_n(y + 2 * s)}Z"
            )
            return self.mirrored(self.part(d, horn))
        if style == "antlers" or style == "coral":
            stroke = (
                darken(roster.PALETTES["C"]["bark"], 0.05)
                if style == "antlers" and self.cr.suit != "C"
                else (lighten(acc, 0.05) if style == "coral" else darken(self.body, 0.25))
            )
            if self.shadow:
                stroke = "#4a3868"
            x = w * 0.16
            d = (
                f"M{_n(x)} {_n(t + 8 * s)}Q{_n(x + 6 * s)} {_n(t - 18 * s)} {_n(x + 18 * s)} {_n(t - 36 * s)}"
                f"M{_n(x + 5 * s)} {_n(t - 10 * s)}Q{_n(x + 20 * s)} {_n(t - 14 * s)} {_n(x + 30 * s)} {_n(t - 24 * s)}"
                f"M{_n(x + 12 * s)} {_n(t - 26 * s)}Q{_n(x + 6 * s)} {_n(t - 34 * s)} {_n(x + 4 * s)} {_n(t - 42 * s)}"
            )
            lw = 8 if style == "antlers" else 9
            frag = (
                f'<path d="{d}" fill="none" stroke="{self.line}" stroke-width="{_n((lw + 5) * s)}" stroke-linecap="round"/>'
                f'<path d="{d}" fill="none" stroke="{stroke}" stroke-width="{_n(lw * s)}" stroke-linecap="round"/>'
            )
            return self.mirrored(frag)
        if style == "antennae":
            x = w * 0.12
            d = f"M{_n(x)} {_n(t + 6 * s)}Q{_n(x + 2 * s)} {_n(t - 22 * s)} {_n(x + 18 * s)} {_n(t - 34 * s)}"
            bulb = self.eye if not self.shadow else SHADOW["glow"]
            frag = (
                f'<path d="{d}" fill="none" stroke="{self.line}" stroke-width="{_n(4 * s)}" stroke-linecap="round"/>'
                f'<circle cx="{_n(x + 18 * s)}" cy="{_n(t - 36 * s)}" r="{_n(7 * s)}" fill="{bulb}" stroke="{self.line}" stroke-width="2.4"/>'
            )
            return self.mirrored(frag)
        if style == "flame":
            return self._flame(0, t - 20 * s, 48 * s, 60 * s)
        if style == "sprout":
            leaf = roster.PALETTES["C"]["leaf"] if not self.shadow else "#4a3868"
            if self.cr.suit == "C" and self.look.colour == "leaf":
                leaf = roster.PALETTES["C"]["fern"]
            stem = f'<path d="M0 {_n(t + 6)}Q{_n(-2 * s)} {_n(t - 14 * s)} {_n(2 * s)} {_n(t - 22 * s)}" fill="none" stroke="{self.line}" stroke-width="{_n(5 * s)}" stroke-linecap="round"/>'
            lf = f"M{_n(2 * s)} {_n(t - 20 * s)}C{_n(10 * s)} {_n(t - 38 * s)} {_n(28 * s)} {_n(t - 36 * s)} {_n(34 * s)} {_n(t - 30 * s)}C{_n(28 * s)} {_n(t - 18 * s)} {_n(12 * s)} {_n(t - 14 * s)} {_n(2 * s)} {_n(t - 20 * s)}Z"
            return (
                stem
                + self.part(lf, leaf)
                + f'<g transform="scale(-1 1) translate(-4 4)">{self.part(lf, leaf)}</g>'
            )
        if style == "crystals":
            gem = mix(lighten(self.body, 0.45), acc, 0.3) if not self.shadow else "#4a3868"
            out = []
            for x, ht, rot in ((-w * 0.2, 26, -18), (0, 38, 0), (w * 0.2, 28, 16)):
                cw = 9 * s
                hh = ht * s
                d = f"M{_n(-cw)} 0L{_n(-cw)} {_n(-hh * 0.7)}L0 {_n(-hh)}L{_n(cw)} {_n(-hh * 0.7)}L{_n(cw)} 0Z"
                facet = f"M0 {_n(-hh)}L{_n(cw * 0.2)} 0"
                out.append(
                    f'<g transform="translate({_n(x)} {_n(t + 10 * s)}) rotate({rot})">'
                    + self.part(d, gem)
                    + f'<path d="{facet}" stroke="#ffffff" stroke-width="2" opacity="0.7"/></g>'
                )
            return "".join(out)
        if style == "fin":
            fin = acc
            d = (
                f"M{_n(-14 * s)} {_n(t + 8 * s)}Q{_n(-10 * s)} {_n(t - 24 * s)} {_n(14 * s)} {_n(t - 30 * s)}"
                f"Q{_n(4 * s)} {_n(t - 8 * s)} {_n(16 * s)} {_n(t + 8 * s)}Z"
            )
            return self.part(d, fin)
        if style == "tuft":
            out = []
            tuft = acc
            for rot in (-28, 0, 28):
                d = f"M0 {_n(t + 6 * s)}C{_n(-8 * s)} {_n(t - 12 * s)} {_n(-4 * s)} {_n(t - 24 * s)} {_n(4 * s)} {_n(t - 30 * s)}C{_n(6 * s)} {_n(t - 16 * s)} {_n(8 * s)} {_n(t - 6 * s)} 0 {_n(t + 6 * s)}Z"
                out.append(
                    f'<g transform="rotate({rot} 0 {_n(t + 6 * s)})">{self.part(d, tuft)}</g>'
                )
            return "".join(out)
        if style == "spikes":
            out = []
            spike = darken(self.body, 0.2) if not self.shadow else "#2e2244"
            a, b = w / 2, h / 2
            n = 9
            for i in range(n):
                ang = math.pi * (1.05 + 0.9 * i / (n - 1))
                x, y = a * 0.95 * math.cos(ang), b * 0.95 * math.sin(ang)
                nx, ny = math.cos(ang), math.sin(ang)
                tx, ty = -ny, nx
                L, half = 22 * s, 9 * s
                d = (
                    f"M{_n(x + tx * half)} {_n(y + ty * half)}L{_n(x + nx * L)} {_n(y + ny * L)}"
                    f"L{_n(x - tx * half)} {_n(y - ty * half)}Z"
                )
                out.append(self.part(d, spike))
            return "".join(out)
        return ""

    def front_top(self) -> str:
        style = self.look.top
        w, h, t = self.w, self.h, self.top
        s = max(w, h) / 110
        if style == "mushroom_cap":
            cap = self.accent if not self.shadow else "#3a2a55"
            cw, ch = w * 0.85, h * 0.42
            y = t + h * 0.28
            d = f"M{_n(-cw)} {_n(y)}C{_n(-cw)} {_n(y - ch * 1.5)} {_n(cw)} {_n(y - ch * 1.5)} {_n(cw)} {_n(y)}Q0 {_n(y + ch * 0.22)} {_n(-cw)} {_n(y)}Z"
            spots = "".join(
                f'<ellipse cx="{_n(x * cw)}" cy="{_n(y - yy * ch)}" rx="{_n(r * cw)}" ry="{_n(r * cw * 0.7)}" fill="#fff8ea" opacity="{0.9 if not self.shadow else 0.15}"/>'
                for x, yy, r in (
                    (-0.5, 0.45, 0.14),
                    (0.05, 0.85, 0.17),
                    (0.55, 0.4, 0.12),
                    (-0.15, 0.3, 0.08),
                )
            )
            return self.part(d, cap) + spots
        if style == "acorn_cap":
            cap = darken(roster.PALETTES["C"]["bark"], 0.05) if not self.shadow else "#3a2a55"
            cw = w * 0.58
            y = t + h * 0.22
            d = f"M{_n(-cw)} {_n(y)}C{_n(-cw)} {_n(y - h * 0.42)} {_n(cw)} {_n(y - h * 0.42)} {_n(cw)} {_n(y)}Q0 {_n(y + 8 * s)} {_n(-cw)} {_n(y)}Z"
            hatch = "".join(
                f'<path d="M{_n(x)} {_n(y - 2)}l{_n(10 * s)} {_n(-16 * s)}" stroke="{self.line}" stroke-width="1.6" opacity="0.45"/>'
                for x in (-cw * 0.7, -cw * 0.35, 0, cw * 0.35)
            )
            stem = f'<path d="M0 {_n(y - h * 0.3)}q{_n(2 * s)} {_n(-12 * s)} {_n(10 * s)} {_n(-14 * s)}" fill="none" stroke="{self.line}" stroke-width="{_n(6 * s)}" stroke-linecap="round"/>'
            return stem + self.part(d, cap) + hatch
        if style == "bell_hat":
            return self._small_bell(w * 0.05, t - 10 * s, 42 * s)
        return ""

    def stalk_eyes(self) -> str:
        w, t = self.w, self.top
        s = max(w, self.h) / 110
        out = []
        for x in (-w * 0.2, w * 0.2):
            out.append(
                f'<path d="M{_n(x * 0.7)} {_n(t + 8)}L{_n(x)} {_n(t - 22 * s)}" stroke="{self.line}" stroke-width="{_n(7 * s)}" stroke-linecap="round"/>'
                f'<path d="M{_n(x * 0.7)} {_n(t + 8)}L{_n(x)} {_n(t - 22 * s)}" stroke="{self.limb_colour()}" stroke-width="{_n(3.5 * s)}" stroke-linecap="round"/>'
            )
        out.append(self.eyes("big", t - 26 * s, spread=w * 0.2))
        return "".join(out)

    # -- royal headwear ---------------------------------------------------------------------
    def headwear(self) -> str:
        rank = self.cr.rank
        if rank not in ("J", "Q", "K"):
            return ""
        w, h, t = self.w, self.h, self.top
        s = max(w, h) / 110
        style = self.look.top
        lift = {
            "mushroom_cap": h * 0.3,
            "acorn_cap": h * 0.2,
            "flame": 8 * s,
            "crystals": 26 * s,
            "spikes": 10 * s,
            "tuft": 14 * s,
            "bell_hat": 28 * s,
            "sprout": 18 * s,
            "fin": 10 * s,
        }.get(style, 0)
        y = t + 6 * s - lift
        gold = "#f5c542" if not self.shadow else "#3b2b57"
        edge = "#9a6a12" if not self.shadow else SHADOW["glow"]
        gem1 = "#e0344a" if not self.shadow else SHADOW["eye"]
        gem2 = "#3a7bd5" if not self.shadow else SHADOW["glow"]
        if rank == "K":
            cw, ch = 30 * s, 28 * s
            d = (
                f"M{_n(-cw)} {_n(y)}L{_n(-cw - 3 * s)} {_n(y - ch)}L{_n(-cw * 0.5)} {_n(y - ch * 0.45)}"
                f"L0 {_n(y - ch * 1.2)}L{_n(cw * 0.5)} {_n(y - ch * 0.45)}L{_n(cw + 3 * s)} {_n(y - ch)}L{_n(cw)} {_n(y)}Z"
            )
            return (
                f'<path d="{d}" fill="{gold}" stroke="{edge}" stroke-width="3" stroke-linejoin="round"/>'
                f'<rect x="{_n(-cw)}" y="{_n(y - 7 * s)}" width="{_n(2 * cw)}" height="{_n(7 * s)}" fill="{darken(gold, 0.12)}" stroke="{edge}" stroke-width="2"/>'
                f'<circle cx="0" cy="{_n(y - ch * 0.55)}" r="{_n(5 * s)}" fill="{gem1}" stroke="{edge}" stroke-width="1.6"/>'
                f'<circle cx="{_n(-cw * 0.6)}" cy="{_n(y - 3.5 * s)}" r="{_n(3 * s)}" fill="{gem2}"/>'
                f'<circle cx="{_n(cw * 0.6)}" cy="{_n(y - 3.5 * s)}" r="{_n(3 * s)}" fill="{gem2}"/>'
                + "".join(
                    f'<circle cx="{_n(x)}" cy="{_n(yy)}" r="{_n(3.4 * s)}" fill="{gold}" stroke="{edge}" stroke-width="1.6"/>'
                    for x, yy in ((-cw - 3 * s, y - ch), (0, y - ch * 1.2), (cw + 3 * s, y - ch))
                )
            )
        if rank == "Q":
            cw, ch = 24 * s, 18 * s
            d = (
                f"M{_n(-cw)} {_n(y)}Q{_n(-cw * 0.7)} {_n(y - ch * 0.6)} {_n(-cw * 0.45)} {_n(y - ch * 0.5)}"
                f"Q{_n(-cw * 0.2)} {_n(y - ch * 1.3)} 0 {_n(y - ch * 1.35)}Q{_n(cw * 0.2)} {_n(y - ch * 1.3)} {_n(cw * 0.45)} {_n(y - ch * 0.5)}"
                f"Q{_n(cw * 0.7)} {_n(y - ch * 0.6)} {_n(cw)} {_n(y)}Q0 {_n(y - ch * 0.3)} {_n(-cw)} {_n(y)}Z"
            )
            return (
                f'<path d="{d}" fill="{gold}" stroke="{edge}" stroke-width="2.6" stroke-linejoin="round"/>'
                f'<path d="M0 {_n(y - ch * 1.05)}l{_n(5 * s)} {_n(6 * s)}l{_n(-5 * s)} {_n(6 * s)}l{_n(-5 * s)} {_n(-6 * s)}Z" fill="{gem2}" stroke="{edge}" stroke-width="1.4"/>'
                f'<circle cx="{_n(-cw * 0.45)}" cy="{_n(y - ch * 0.55)}" r="{_n(2.6 * s)}" fill="#fffaf0" stroke="{edge}" stroke-width="1.2"/>'
                f'<circle cx="{_n(cw * 0.45)}" cy="{_n(y - ch * 0.55)}" r="{_n(2.6 * s)}" fill="#fffaf0" stroke="{edge}" stroke-width="1.2"/>'
            )
        # Jack: a jaunty cap with a feather.
        capc = "#3a7bd5" if not self.shadow else "#3b2b57"
        if self.cr.suit in "HB" and not self.shadow:
            capc = "#4b6fd1"
        cw = 26 * s
        x0 = 6 * s
        d = (
            f"M{_n(x0 - cw)} {_n(y + 2 * s)}C{_n(x0 - cw)} {_n(y - 22 * s)} {_n(x0 + cw * 0.9)} {_n(y - 24 * s)} {_n(x0 + cw)} {_n(y - 2 * s)}"
            f"Q{_n(x0)} {_n(y + 6 * s)} {_n(x0 - cw)} {_n(y + 2 * s)}Z"
        )
        feather = (
            f"M{_n(x0 + cw * 0.5)} {_n(y - 14 * s)}C{_n(x0 + cw * 0.9)} {_n(y - 40 * s)} {_n(x0 + cw * 1.6)} {_n(y - 44 * s)} {_n(x0 + cw * 1.9)} {_n(y - 46 * s)}"
            f"C{_n(x0 + cw * 1.5)} {_n(y - 30 * s)} {_n(x0 + cw * 1.1)} {_n(y - 16 * s)} {_n(x0 + cw * 0.5)} {_n(y - 14 * s)}Z"
        )
        plume = "#e0344a" if not self.shadow else SHADOW["glow"]
        return (
            f'<path d="{feather}" fill="{plume}" stroke="{edge if self.shadow else "#8c1f2c"}" stroke-width="2.2" stroke-linejoin="round"/>'
            f'<path d="{d}" fill="{capc}" stroke="{edge if self.shadow else "#1e3f7a"}" stroke-width="2.8" stroke-linejoin="round"/>'
            f'<rect x="{_n(x0 - cw * 0.95)}" y="{_n(y - 4 * s)}" width="{_n(cw * 1.9)}" height="{_n(5 * s)}" rx="2" fill="{gold}" stroke="{edge}" stroke-width="1.4"/>'
        )


# ---------------------------------------------------------------------------------------------
# The A.M.I.C. logo
# ---------------------------------------------------------------------------------------------


def amic_logo(uid: str, size: float = 150, mono: bool = False, text: bool = True) -> str:
    """The A.M.I.C. logo: a friendly isometric cube with one suit on each face, centred on
    (0, 0) and about ``size`` wide."""
    s = size / 150
    if mono:
        top, left, right, edge, pip = "#f5c542", "#2b2140", "#3b2f57", "#f5c542", "#f5c542"
        pips = {"S": pip, "H": pip, "D": pip, "C": pip}
        eye, ink = "#f5c542", "#f5c542"
    else:
        top, left, right, edge = "#fff4d6", "#e4474f", "#3b6fd1", "#1d1d26"
        pips = {"S": INK, "H": "#ffffff", "D": "#ffffff", "C": "#13843a"}
        eye, ink = "#1d1d26", "#1d1d26"
    a = 62 * s  # half width of the cube
    q = a * math.tan(math.radians(30))
    v = a * 1.05  # height of the front edge
    cy = -10 * s
    T = (0, cy - 2 * q)
    L = (-a, cy - q)
    R = (a, cy - q)
    C = (0, cy)
    BL = (-a, cy - q + v)
    BR = (a, cy - q + v)
    B = (0, cy + v)

    def poly(pts: list[tuple[float, float]], fill: str) -> str:
        d = "M" + "L".join(f"{_n(x)} {_n(y)}" for x, y in pts) + "Z"
        return f'<path d="{d}" fill="{fill}" stroke="{edge}" stroke-width="{_n(4 * s)}" stroke-linejoin="round"/>'

    out = [
        '<g class="amic-logo">',
        f'<ellipse cx="0" cy="{_n(B[1] + 10 * s)}" rx="{_n(a * 1.05)}" ry="{_n(10 * s)}" fill="#000000" opacity="0.15"/>',
        poly([T, R, C, L], top),
        poly([L, C, B, BL], left),
        poly([C, R, BR, B], right),
    ]
    # The top face carries the four suits, squashed into the cube's perspective.
    tcx, tcy = 0, cy - q
    out.append(f'<g transform="translate({_n(tcx)} {_n(tcy)}) scale(1 0.577) rotate(45)">')
    for suit, (dx, dy) in zip("SHDC", ((-1, -1), (1, -1), (1, 1), (-1, 1)), strict=True):
        col = pips[suit] if mono else TWO_COLOUR[suit] if suit in "SC" else FOUR_COLOUR["H"]
        if not mono and suit == "D":
            col = FOUR_COLOUR["D"]
        if not mono and suit == "C":
            col = FOUR_COLOUR["C"]
        out.append(suit_symbol(suit, dx * 17 * s, dy * 17 * s, 24 * s, col))
    out.append("</g>")
    # A face on the front faces: one eye each side, and a smile across the edge.
    ey = cy + v * 0.32
    for x in (-a * 0.48, a * 0.48):
        out.append(
            f'<ellipse cx="{_n(x)}" cy="{_n(ey + (abs(x) / a) * 0)}" rx="{_n(8 * s)}" ry="{_n(11 * s)}" fill="{eye if mono else "#ffffff"}" stroke="{edge}" stroke-width="{_n(2.5 * s)}"/>'
        )
        if not mono:
            out.append(
                f'<circle cx="{_n(x + 1.5 * s)}" cy="{_n(ey + 2 * s)}" r="{_n(5 * s)}" fill="{INK}"/>'
            )
            out.append(
                f'<circle cx="{_n(x - 1 * s)}" cy="{_n(ey - 1 * s)}" r="{_n(2 * s)}" fill="#ffffff"/>'
            )
    out.append(
        f'<path d="M{_n(-a * 0.42)} {_n(cy + v * 0.6)}Q0 {_n(cy + v * 0.95)} {_n(a * 0.42)} {_n(cy + v * 0.6)}" '
        f'fill="none" stroke="{eye if mono else "#ffffff"}" stroke-width="{_n(5 * s)}" stroke-linecap="round"/>'
    )
    if text:
        ty = B[1] + 40 * s
        bw = 78 * s
        out.append(
            f'<path d="M{_n(-bw)} {_n(ty - 22 * s)}H{_n(bw)}L{_n(bw - 8 * s)} {_n(ty - 4 * s)}L{_n(bw)} {_n(ty + 14 * s)}'
            f'H{_n(-bw)}L{_n(-bw + 8 * s)} {_n(ty - 4 * s)}Z" fill="{"#2b2140" if mono else "#f5c542"}" stroke="{edge if mono else "#9a6a12"}" stroke-width="{_n(3 * s)}" stroke-linejoin="round"/>'
            f'<text x="0" y="{_n(ty + 6 * s)}" text-anchor="middle" font-family="{FONT}" font-weight="900" '
            f'font-size="{_n(26 * s)}" letter-spacing="{_n(2 * s)}" fill="{ink if mono else INK}">A.M.I.C.</text>'
        )
    out.append("</g>")
    return "".join(out)


# ---------------------------------------------------------------------------------------------
# Card faces
# ---------------------------------------------------------------------------------------------

_BG = {
    "S": ("#eef0fa", "#d3d9ef", "#aab4d8"),
    "H": ("#fff4ea", "#ffdccb", "#f6b39a"),
    "D": ("#ecfbfd", "#c9eef5", "#93d3e3"),
    "C": ("#f2f9e8", "#d6ecc4", "#a9d08c"),
    "B": ("#fff9e6", "#fbe6ae", "#e8c86f"),
}


def _motif(suit: str, x: float, y: float, r: float, colour: str, rnd: random.Random) -> str:
    """One small background decoration in the suit's family style."""
    if suit == "S":  # twinkling stars
        k = r * 0.28
        return (
            f'<path d="M{_n(x)} {_n(y - r)}Q{_n(x + k)} {_n(y - k)} {_n(x + r)} {_n(y)}Q{_n(x + k)} {_n(y + k)} '
            f'{_n(x)} {_n(y + r)}Q{_n(x - k)} {_n(y + k)} {_n(x - r)} {_n(y)}Q{_n(x - k)} {_n(y - k)} {_n(x)} {_n(y - r)}Z" '
            f'fill="{colour}"/>'
        )
    if suit == "H":  # embers
        return f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r * 0.45)}" fill="{colour}"/>' + (
            f'<circle cx="{_n(x + r * 0.9)}" cy="{_n(y - r * 0.8)}" r="{_n(r * 0.2)}" fill="{colour}"/>'
        )
    if suit == "D":  # bubbles
        return (
            f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r * 0.6)}" fill="none" stroke="{colour}" stroke-width="2.2"/>'
            f'<circle cx="{_n(x - r * 0.2)}" cy="{_n(y - r * 0.22)}" r="{_n(r * 0.12)}" fill="{colour}"/>'
        )
    if suit == "C":  # little leaves
        rot = rnd.randrange(0, 360)
        return (
            f'<path transform="rotate({rot} {_n(x)} {_n(y)})" d="M{_n(x - r)} {_n(y)}Q{_n(x)} {_n(y - r * 0.9)} {_n(x + r)} {_n(y)}'
            f'Q{_n(x)} {_n(y + r * 0.9)} {_n(x - r)} {_n(y)}Z" fill="{colour}"/>'
        )
    # Bells: music notes
    return (
        f'<ellipse cx="{_n(x)}" cy="{_n(y + r * 0.55)}" rx="{_n(r * 0.42)}" ry="{_n(r * 0.3)}" transform="rotate(-20 {_n(x)} {_n(y + r * 0.55)})" fill="{colour}"/>'
        f'<path d="M{_n(x + r * 0.36)} {_n(y + r * 0.5)}V{_n(y - r * 0.9)}Q{_n(x + r * 0.6)} {_n(y - r * 0.4)} {_n(x + r * 1.0)} {_n(y - r * 0.35)}" '
        f'fill="none" stroke="{colour}" stroke-width="{_n(max(1.6, r * 0.16))}" stroke-linecap="round"/>'
    )


def _panel(
    suit: str, uid: str, rnd: random.Random, shadow: bool = False, night: bool = False
) -> str:
    """The face's inner panel: the suit family's background with a few small motifs."""
    if shadow or night:
        top, bottom, motif = "#3b2a58", "#120b1d", "#6b4fa0"
    else:
        top, bottom, motif = _BG[suit]
    gid = f"{uid}-bg"
    out = [
        f'<defs><radialGradient id="{gid}" cx="0.5" cy="0.45" r="0.75">'
        f'<stop offset="0" stop-color="{top}"/><stop offset="1" stop-color="{bottom}"/></radialGradient></defs>',
        f'<rect x="9" y="9" width="{W - 18}" height="{H - 18}" rx="13" fill="url(#{gid})"/>',
    ]
    motif_suit = suit if not (shadow or night) else "S"
    spots = [
        (70, 40),
        (205, 60),
        (215, 150),
        (60, 250),
        (195, 255),
        (40, 165),
        (150, 35),
        (120, 305),
        (222, 210),
    ]
    for x, y in spots:
        x += rnd.uniform(-8, 8)
        y += rnd.uniform(-8, 8)
        out.append(
            f'<g opacity="{rnd.uniform(0.45, 0.85):.2f}">'
            + _motif(motif_suit, x, y, rnd.uniform(5, 9), motif, rnd)
            + "</g>"
        )
    if suit == "S" and not (shadow or night):
        out.append(  # a crescent moon
            '<path d="M201 100A20 20 0 1 1 221 76A15 15 0 1 0 201 100Z" fill="#f3e39a" opacity="0.9"/>'
        )
    return "".join(out)


def _corner(rank: str, suit: str, colour: str, joker: bool = False) -> str:
    """The corner index: big rank over the suit symbol (drawn twice, the second rotated)."""
    if joker:
        letters = "".join(
            f'<text x="30" y="{34 + i * 24}" text-anchor="middle" font-family="{FONT}" font-weight="900" '
            f'font-size="25" fill="{colour}">{ch}</text>'
            for i, ch in enumerate("JOKER")
        )
        star = f'<path d="M30 143l5 10 11 1.5-8 7.5 2 11-10-5.5-10 5.5 2-11-8-7.5 11-1.5Z" fill="{colour}"/>'
        return letters + star
    size = 58
    squeeze = ""
    if rank == "10":  # two digits in the width of one column
        size = 50
        squeeze = ' letter-spacing="-4" textLength="50" lengthAdjust="spacingAndGlyphs"'

    return (
        f'<text x="33" y="62" text-anchor="middle" font-family="{FONT}" font-weight="800" '
        f'font-size="{size}" fill="{colour}"{squeeze}>{rank}</text>'
        + suit_symbol(suit, 33, 92, 40, colour)
    )


def _frame(inner: str, title: str, uid: str, corner: str, dark_panel: bool = False) -> str:
    rotated = f'<g transform="rotate(180 {W / 2} {H / 2})">{corner}</g>'
    tab = ""
    if dark_panel:  # light tabs under the indices so they read on a dark panel
        tab = (
            '<path d="M9 22A13 13 0 0 1 22 9H66V110A12 12 0 0 1 54 122H9Z" fill="#fffdf6"/>'
            f'<path d="M9 22A13 13 0 0 1 22 9H66V110A12 12 0 0 1 54 122H9Z" fill="#fffdf6" transform="rotate(180 {W / 2} {H / 2})"/>'
        )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}" '
        f'role="img" aria-labelledby="{uid}-title">'
        f'<title id="{uid}-title">{escape(title)}</title>'
        f'<rect x="1" y="1" width="{W - 2}" height="{H - 2}" rx="18" fill="#fffdf6" stroke="#cfc6b4" stroke-width="2"/>'
        f"{inner}{tab}{corner}{rotated}</svg>"
    )


def _clipped(uid: str, figure: str) -> str:
    """Keep a figure inside the face's panel."""
    cid = f"{uid}-panel"
    return (
        f'<defs><clipPath id="{cid}"><rect x="9" y="9" width="{W - 18}" height="{H - 18}" rx="13"/>'
        f'</clipPath></defs><g clip-path="url(#{cid})">{figure}</g>'
    )


def _name_label(name: str, dark: bool = False) -> str:
    """The creature's name under it, kept clear of the bottom-right index."""
    fill = "#5b4b6e" if not dark else "#d9c4ff"
    room = 120  # from x=58 to x=178
    size = min(15.0, room / (len(name) * 0.62))
    return (
        f'<text x="118" y="326" text-anchor="middle" font-family="{FONT}" font-weight="700" '
        f'font-size="{_n(size)}" fill="{fill}">{escape(name)}</text>'
    )


def _glow_filter(fid: str) -> str:
    return (
        f'<defs><filter id="{fid}" x="-40%" y="-40%" width="180%" height="180%">'
        f'<feMorphology in="SourceAlpha" operator="dilate" radius="3" result="fat"/>'
        f'<feGaussianBlur in="fat" stdDeviation="7" result="blur"/>'
        f'<feFlood flood-color="{SHADOW["glow"]}" flood-opacity="0.95"/>'
        f'<feComposite in2="blur" operator="in" result="glow"/>'
        f'<feMerge><feMergeNode in="glow"/><feMergeNode in="glow"/><feMergeNode in="SourceGraphic"/></feMerge>'
        f"</filter></defs>"
    )


def _placement(painter: _Painter) -> str:
    """Scale a creature to fill the middle of the face and centre it there."""
    left, right, top, bottom = painter.extent()
    box_w, box_top, box_bottom = 216, 52, 304
    scale = min(1.24, box_w / (left + right), (box_bottom - box_top) / (top + bottom))
    x = W / 2 + (left - right) / 2 * scale
    y = (box_top + box_bottom) / 2 + (top - bottom) / 2 * scale
    return f"translate({_n(x)} {_n(y)}) scale({scale:.3f})"


def _uid(card: str) -> str:
    return "cc-" + card.lower().replace("?", "q")


def _face(card: str, four_colour: bool) -> str:
    uid = _uid(card)
    rnd = _art_rng(card)
    title = roster.describe(card)
    if c.is_joker(card):
        mono = card == "JK2"
        colour = "#6a3fc8" if not mono else "#f5c542"
        inner = _panel("S", uid, rnd, night=mono) if mono else _joker_panel(uid, rnd)
        logo = f'<g transform="translate({W / 2} 170)">{amic_logo(uid, 150, mono=mono)}</g>'
        return _frame(inner + logo, title, uid, _corner("", "", colour, joker=True))
    rank, suit = c.rank(card), c.suit(card)
    colour = (FOUR_COLOUR if four_colour else TWO_COLOUR)[suit]
    if rank == "A":
        king = roster.king(suit)
        painter = _Painter(king, uid, shadow=True, rnd=rnd)
        fid = f"{uid}-glow"
        figure = _glow_filter(fid) + _clipped(
            uid, f'<g transform="{_placement(painter)}" filter="url(#{fid})">{painter.draw()}</g>'
        )
        inner = (
            _panel(suit, uid, rnd, shadow=True)
            + figure
            + _name_label(roster.shadow_name(suit), dark=True)
        )
        return _frame(inner, title, uid, _corner(rank, suit, colour), dark_panel=True)
    cr = roster.creature(card)
    assert cr is not None
    painter = _Painter(cr, uid, shadow=False, rnd=rnd)
    figure = _clipped(uid, f'<g transform="{_placement(painter)}">{painter.draw()}</g>')
    inner = _panel(suit, uid, rnd) + figure + _name_label(cr.name)
    return _frame(inner, title, uid, _corner(rank, suit, colour))


def _joker_panel(uid: str, rnd: random.Random) -> str:
    gid = f"{uid}-bg"
    out = [
        f'<defs><radialGradient id="{gid}" cx="0.5" cy="0.45" r="0.75">'
        f'<stop offset="0" stop-color="#fff8e4"/><stop offset="1" stop-color="#f0dcff"/></radialGradient></defs>',
        f'<rect x="9" y="9" width="{W - 18}" height="{H - 18}" rx="13" fill="url(#{gid})"/>',
    ]
    # Confetti in the four suits' colours.
    for i in range(16):
        suit = "SHDC"[i % 4]
        x, y = rnd.uniform(70, 230), rnd.uniform(20, 330)
        out.append(
            suit_symbol(suit, x, y, rnd.uniform(9, 14), FOUR_COLOUR[suit], ' opacity="0.35"')
        )
    return "".join(out)


# ---------------------------------------------------------------------------------------------
# Backs
# ---------------------------------------------------------------------------------------------


def _back(name: str) -> str:
    uid = f"cc-back-{name}"
    rnd = _art_rng("back/" + name)
    inner = {
        "classic": _back_classic,
        "felt": _back_felt,
        "nebula": _back_nebula,
        "gold": _back_gold,
        "critters": _back_critters,
    }[name](uid, rnd)
    title = (
        "Face-down card" if name == DEFAULT_BACK else f"Face-down card ({BACK_NAMES[name]} back)"
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}" '
        f'role="img" aria-labelledby="{uid}-title">'
        f'<title id="{uid}-title">{escape(title)}</title>'
        f'<rect x="1" y="1" width="{W - 2}" height="{H - 2}" rx="18" fill="#fffdf6" stroke="#cfc6b4" stroke-width="2"/>'
        f'<defs><clipPath id="{uid}-inner"><rect x="11" y="11" width="{W - 22}" height="{H - 22}" rx="12"/>'
        f'</clipPath></defs><g clip-path="url(#{uid}-inner)">{inner}</g></svg>'
    )


def _medallion(uid: str, fill: str, edge: str, mono: bool = False) -> str:
    return (
        f'<circle cx="{W / 2}" cy="{H / 2}" r="52" fill="{fill}" stroke="{edge}" stroke-width="4"/>'
        f'<g transform="translate({W / 2} {H / 2 + 4})">{amic_logo(uid, 64, mono=mono, text=False)}</g>'
    )


def _back_classic(uid: str, rnd: random.Random) -> str:
    pid = f"{uid}-lattice"
    return (
        f'<defs><pattern id="{pid}" width="20" height="20" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
        f'<rect width="20" height="20" fill="#23407d"/>'
        f'<path d="M0 10H20M10 0V20" stroke="#3a5ea8" stroke-width="3"/>'
        f'<circle cx="10" cy="10" r="3.2" fill="#e9d9a6"/><circle cx="0" cy="0" r="2" fill="#c9424e"/>'
        f'<circle cx="20" cy="0" r="2" fill="#c9424e"/><circle cx="0" cy="20" r="2" fill="#c9424e"/><circle cx="20" cy="20" r="2" fill="#c9424e"/>'
        f"</pattern></defs>"
        f'<rect x="11" y="11" width="{W - 22}" height="{H - 22}" rx="12" fill="url(#{pid})"/>'
        f'<rect x="19" y="19" width="{W - 38}" height="{H - 38}" rx="8" fill="none" stroke="#fffdf6" stroke-width="3"/>'
        + _medallion(uid, "#fffdf6", "#c9424e")
    )


def _back_felt(uid: str, rnd: random.Random) -> str:
    fid = f"{uid}-noise"
    pid = f"{uid}-diamonds"
    return (
        f'<defs><filter id="{fid}" x="0" y="0" width="100%" height="100%">'
        f'<feTurbulence type="fractalNoise" baseFrequency="0.9" numOctaves="2" seed="7" result="n"/>'
        f'<feColorMatrix in="n" type="matrix" values="0 0 0 0 0  0 0 0 0 0  0 0 0 0 0  0 0 0 0.35 0"/>'
        f'<feComposite in2="SourceGraphic" operator="in"/></filter>'
        f'<pattern id="{pid}" width="36" height="36" patternUnits="userSpaceOnUse">'
        f'<path d="M18 4L32 18L18 32L4 18Z" fill="none" stroke="#2a8a57" stroke-width="1.5"/></pattern></defs>'
        f'<rect x="11" y="11" width="{W - 22}" height="{H - 22}" rx="12" fill="#17633d"/>'
        f'<rect x="11" y="11" width="{W - 22}" height="{H - 22}" rx="12" fill="url(#{pid})"/>'
        f'<rect x="11" y="11" width="{W - 22}" height="{H - 22}" rx="12" fill="#000000" filter="url(#{fid})"/>'
        f'<rect x="21" y="21" width="{W - 42}" height="{H - 42}" rx="8" fill="none" stroke="#e6c35c" stroke-width="2.5"/>'
        f'<rect x="27" y="27" width="{W - 54}" height="{H - 54}" rx="5" fill="none" stroke="#e6c35c" stroke-width="1" opacity="0.7"/>'
        + _medallion(uid, "#0f4a2c", "#e6c35c", mono=True)
    )


def _back_nebula(uid: str, rnd: random.Random) -> str:
    g1, g2, g3 = f"{uid}-sky", f"{uid}-cloud1", f"{uid}-cloud2"
    out = [
        f'<defs><linearGradient id="{g1}" x1="0" y1="0" x2="1" y2="1">'
        f'<stop offset="0" stop-color="#1b1446"/><stop offset="1" stop-color="#0a0a22"/></linearGradient>'
        f'<radialGradient id="{g2}"><stop offset="0" stop-color="#c04cd6" stop-opacity="0.75"/>'
        f'<stop offset="1" stop-color="#c04cd6" stop-opacity="0"/></radialGradient>'
        f'<radialGradient id="{g3}"><stop offset="0" stop-color="#2fb5d9" stop-opacity="0.65"/>'
        f'<stop offset="1" stop-color="#2fb5d9" stop-opacity="0"/></radialGradient></defs>',
        f'<rect x="11" y="11" width="{W - 22}" height="{H - 22}" rx="12" fill="url(#{g1})"/>',
        f'<ellipse cx="80" cy="110" rx="120" ry="90" fill="url(#{g2})"/>',
        f'<ellipse cx="180" cy="250" rx="110" ry="100" fill="url(#{g3})"/>',
        f'<ellipse cx="150" cy="60" rx="70" ry="40" fill="url(#{g3})" opacity="0.6"/>',
    ]
    for _ in range(70):
        x, y = rnd.uniform(16, W - 16), rnd.uniform(16, H - 16)
        out.append(
            f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{rnd.uniform(0.5, 1.8):.1f}" fill="#ffffff" opacity="{rnd.uniform(0.4, 1):.2f}"/>'
        )
    for _ in range(6):
        x, y = rnd.uniform(24, W - 24), rnd.uniform(24, H - 24)
        out.append(f'<g opacity="0.9">{_motif("S", x, y, rnd.uniform(5, 9), "#fff6d8", rnd)}</g>')
    out.append(
        f'<rect x="19" y="19" width="{W - 38}" height="{H - 38}" rx="8" fill="none" stroke="#b9a6ff" stroke-width="1.5" opacity="0.6"/>'
    )
    out.append(
        f'<circle cx="{W / 2}" cy="{H / 2}" r="56" fill="none" stroke="#e2ccff" stroke-width="2" opacity="0.5"/>'
        f'<g transform="translate({W / 2} {H / 2 + 4})">{amic_logo(uid, 70, mono=False, text=False)}</g>'
    )
    return "".join(out)


def _back_gold(uid: str, rnd: random.Random) -> str:
    gold = "#d9b44a"
    out = [f'<rect x="11" y="11" width="{W - 22}" height="{H - 22}" rx="12" fill="#17130c"/>']
    cx, cy = W / 2, H / 2
    rays = []
    for i in range(36):
        ang = i * math.pi * 2 / 36
        x1, y1 = cx + 62 * math.cos(ang), cy + 62 * math.sin(ang)
        x2, y2 = cx + 260 * math.cos(ang), cy + 260 * math.sin(ang)
        rays.append(f"M{_n(x1)} {_n(y1)}L{_n(x2)} {_n(y2)}")
    cid = f"{uid}-clip"
    out.append(
        f'<defs><clipPath id="{cid}"><rect x="27" y="27" width="{W - 54}" height="{H - 54}" rx="6"/></clipPath></defs>'
        f'<path d="{"".join(rays)}" stroke="{gold}" stroke-width="1.2" opacity="0.55" clip-path="url(#{cid})"/>'
    )
    for inset, sw in ((19, 3), (27, 1.2)):
        out.append(
            f'<rect x="{inset}" y="{inset}" width="{W - 2 * inset}" height="{H - 2 * inset}" rx="{max(4, 12 - inset / 3):.0f}" '
            f'fill="none" stroke="{gold}" stroke-width="{sw}"/>'
        )
    for sx, sy in ((1, 1), (-1, 1), (1, -1), (-1, -1)):  # art deco corner fans
        x0 = cx - sx * (cx - 27)
        y0 = cy - sy * (cy - 27)
        for r in (18, 28, 38):
            out.append(
                f'<path d="M{_n(x0 + sx * r)} {_n(y0)}A{r} {r} 0 0 {1 if sx * sy > 0 else 0} {_n(x0)} {_n(y0 + sy * r)}" '
                f'fill="none" stroke="{gold}" stroke-width="1.6"/>'
            )
    out.append(
        f'<path d="M{cx} {cy - 78}L{cx + 60} {cy}L{cx} {cy + 78}L{cx - 60} {cy}Z" fill="#17130c" stroke="{gold}" stroke-width="3"/>'
        f'<path d="M{cx} {cy - 68}L{cx + 51} {cy}L{cx} {cy + 68}L{cx - 51} {cy}Z" fill="none" stroke="{gold}" stroke-width="1"/>'
        f'<g transform="translate({cx} {cy + 4})">{amic_logo(uid, 60, mono=True, text=False)}</g>'
    )
    return "".join(out)


def _back_critters(uid: str, rnd: random.Random) -> str:
    pid = f"{uid}-faces"
    faces = []
    cols = [
        roster.PALETTES["S"]["dusk"],
        roster.PALETTES["H"]["flame"],
        roster.PALETTES["D"]["aqua"],
        roster.PALETTES["C"]["moss"],
    ]
    for i, (x, y) in enumerate(((12, 12), (40, 40))):
        col = cols[i * 2]
        col2 = cols[i * 2 + 1]
        for cx, cy, cc in ((x, y, col), (x + 28 if i == 0 else x - 28, y if i == 0 else y, col2)):
            faces.append(
                f'<circle cx="{cx}" cy="{cy}" r="10" fill="{cc}" stroke="{darken(cc, 0.5)}" stroke-width="1.6"/>'
                f'<circle cx="{cx - 3.5}" cy="{cy - 1.5}" r="1.8" fill="#241a2a"/><circle cx="{cx + 3.5}" cy="{cy - 1.5}" r="1.8" fill="#241a2a"/>'
                f'<path d="M{cx - 3} {cy + 3}Q{cx} {cy + 6} {cx + 3} {cy + 3}" fill="none" stroke="#241a2a" stroke-width="1.4" stroke-linecap="round"/>'
            )
    return (
        f'<defs><pattern id="{pid}" width="56" height="56" patternUnits="userSpaceOnUse" x="-2" y="4">'
        f'<rect width="56" height="56" fill="#fdebd3"/>{"".join(faces)}</pattern></defs>'
        f'<rect x="11" y="11" width="{W - 22}" height="{H - 22}" rx="12" fill="url(#{pid})"/>'
        f'<rect x="19" y="19" width="{W - 38}" height="{H - 38}" rx="8" fill="none" stroke="#fff6e6" stroke-width="12"/>'
        f'<rect x="19" y="19" width="{W - 38}" height="{H - 38}" rx="8" fill="none" stroke="#e4474f" stroke-width="3"/>'
        + _medallion(uid, "#fffdf6", "#e4474f")
    )


# ---------------------------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------------------------


def _art_version() -> str:
    """Changes whenever the drawing code or the roster changes (for cache-busting URLs)."""
    digest = hashlib.sha256()
    for path in (Path(__file__), Path(roster.__file__)):
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
        return _back(back)
    if not c.is_card(card):
        raise ValueError(f"not a card: {card!r}")
    return _face(card, bool(four_colour))


# ---------------------------------------------------------------------------------------------
# Badges
# ---------------------------------------------------------------------------------------------

BADGE_RINGS = {  # light, dark
    "bronze": ("#e0a06a", "#8a5326"),
    "silver": ("#e4e8ef", "#6f7989"),
    "gold": ("#f5c542", "#9a6a12"),
}
_LOCKED_RING = ("#8b8f99", "#4a4d55")


@lru_cache(maxsize=256)
def badge_svg(card: str, ring: str, mark: str, name: str, earned: bool = True) -> str:
    """A round badge: the creature of ``card`` (2 to K of a suit) in a medallion of ``ring``
    (bronze, silver or gold) over a ribbon saying ``mark``. Not earned yet, the creature shows
    as its shadow (the Aces' look) in a grey ring."""
    cr = roster.creature(card)
    if cr is None or ring not in BADGE_RINGS:
        raise ValueError(f"a badge needs a creature card and a ring: {card!r}, {ring!r}")
    uid = f"bd-{card.lower()}-{ring}{'' if earned else '-locked'}"
    light, dark = BADGE_RINGS[ring] if earned else _LOCKED_RING
    suit = c.suit(card)
    ribbon = FOUR_COLOUR[suit] if earned else "#5b5f68"
    painter = _Painter(cr, uid, shadow=not earned, rnd=_art_rng("badge/" + card))
    left, right, top, bottom = painter.extent()
    scale = min(1.0, 118 / (left + right), 112 / (top + bottom))
    x = 100 + (left - right) / 2 * scale
    y = 96 + (top - bottom) / 2 * scale
    bg_top, bg_bottom, motif = ("#3b2a58", "#120b1d", "#6b4fa0") if not earned else _BG[suit]
    rnd = _art_rng("badge-bg/" + card)
    motifs = "".join(
        f'<g opacity="0.6">{_motif(suit if earned else "S", mx + rnd.uniform(-6, 6), my, 6, motif, rnd)}</g>'
        for mx, my in ((52, 70), (150, 62), (160, 130), (44, 128), (100, 36))
    )
    tails = (
        f'<path d="M58 168L40 214L62 204L76 220L88 176Z" fill="{darken(ribbon, 0.25)}"/>'
        f'<path d="M142 168L160 214L138 204L124 220L112 176Z" fill="{darken(ribbon, 0.25)}"/>'
    )
    band = (
        f'<path d="M30 160H170L162 176L170 192H30L38 176Z" fill="{ribbon}" '
        f'stroke="{darken(ribbon, 0.4)}" stroke-width="3" stroke-linejoin="round"/>'
        f'<text x="100" y="183" text-anchor="middle" font-family="{FONT}" font-weight="900" '
        f'font-size="19" fill="#ffffff">{escape(mark)}</text>'
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 222" width="200" height="222" '
        f'role="img" aria-labelledby="{uid}-title"><title id="{uid}-title">{escape(name)}</title>'
        f'<defs><radialGradient id="{uid}-bg" cx="0.5" cy="0.4" r="0.7">'
        f'<stop offset="0" stop-color="{bg_top}"/><stop offset="1" stop-color="{bg_bottom}"/>'
        f'</radialGradient><clipPath id="{uid}-in"><circle cx="100" cy="96" r="72"/></clipPath>'
        f"</defs>{tails}"
        f'<circle cx="100" cy="96" r="88" fill="{light}" stroke="{dark}" stroke-width="6"/>'
        f'<circle cx="100" cy="96" r="76" fill="none" stroke="{dark}" stroke-width="2" '
        f'stroke-dasharray="3 6" opacity="0.6"/>'
        f'<g clip-path="url(#{uid}-in)"><circle cx="100" cy="96" r="72" fill="url(#{uid}-bg)"/>'
        f'{motifs}<g transform="translate({_n(x)} {_n(y)}) scale({scale:.3f})">{painter.draw()}'
        f"</g></g>{band}</svg>"
    )
