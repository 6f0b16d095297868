"""The painter of one creature: its measures and colours, the strokes every part uses, and the
order the parts are laid down in."""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from ... import roster
from ...roster import SHADOW, Creature
from ..colour import darken
from ..suits import suit_symbol
from ..svg import num

Part = Callable[["Painter"], str]


class Painter:
    """Draws one creature around (0, 0); ``shadow`` paints it dark with a violet glow."""

    def __init__(self, cr: Creature, uid: str, shadow: bool, rnd: random.Random, shape, top):
        """`shape` and `top`: the body's and the top's table entries for the creature's look
        (creature.painter finds them)."""
        self.cr, self.look, self.uid, self.shadow, self.rnd = cr, cr.look, uid, shadow, rnd
        if shadow:
            self.body, self.accent, self.eye = SHADOW["body"], SHADOW["accent"], SHADOW["eye"]
            self.line = SHADOW["glow"]
        else:
            palette = roster.PALETTES[cr.suit]
            self.body = palette[self.look.colour]
            self.accent = self.eye = palette[self.look.accent]
            self.line = darken(self.body, 0.55)
        self.shape = shape
        bw, bh = shape.size
        self.w = bw * self.look.width
        self.h = bh * self.look.height
        self.s = max(self.w, self.h) / 110  # parts are drawn for a body about 110 across
        self.head_y = -self.h * shape.head + shape.head_dip  # where features sit on the head
        self.hem_y = self.h * shape.hem  # where the back feet join the body
        if shape.face is not None:
            self.face_y = self.h * shape.face
        else:
            self.face_y = self.h * (top.face if top.face is not None else -0.08)
        self.eye_r = min(self.w, self.h) * 0.11
        self.sw = 3.6  # outline width
        self.flames = 0  # numbers the flames' gradients, so their ids stay unique

    # ---- what the parts share ----------------------------------------------------------------

    def lit(self, colour: str, in_shadow: str) -> str:
        """``colour``, or ``in_shadow`` when the creature is drawn as a shadow."""
        return in_shadow if self.shadow else colour

    def fill(self, colour: str) -> str:
        return (
            f'fill="{colour}" stroke="{self.line}" stroke-width="{self.sw}" stroke-linejoin="round"'
        )

    def part(self, d: str, colour: str, extra: str = "") -> str:
        return f'<path d="{d}" {self.fill(colour)}{extra}/>'

    def tube(self, d: str, outline: float, width: float, colour: str) -> str:
        """A round-ended stroke along ``d`` with an outline: limbs, stems, branches."""
        return (
            f'<path d="{d}" fill="none" stroke="{self.line}" stroke-width="{num(outline)}" '
            f'stroke-linecap="round"/>'
            f'<path d="{d}" fill="none" stroke="{colour}" stroke-width="{num(width)}" '
            f'stroke-linecap="round"/>'
        )

    def mirrored(self, frag: str) -> str:
        return frag + f'<g transform="scale(-1 1)">{frag}</g>'

    def limb_colour(self) -> str:
        return self.lit(darken(self.body, 0.12), "#2e2244")

    def edge_x(self, y: float) -> float:
        """Roughly where the body's side is at height y."""
        a, b = self.w / 2, self.h / 2
        if self.shape.straight_sides:
            return a
        t = max(-0.99, min(0.99, y / b))
        return a * math.sqrt(1 - t * t)

    def flame(self, x: float, y: float, fw: float, fh: float, rotate: float = 0) -> str:
        """A flame ``fw`` by ``fh`` standing on (x, y) (a tail or a top)."""
        self.flames += 1
        gid = f"{self.uid}-flame{self.flames}"
        if self.shadow:
            c1, c2, edge = "#7b4fd0", "#2e1f4a", SHADOW["glow"]
        else:
            c1, c2, edge = "#ffe36e", "#f2542d", "#b5321c"
        d = (
            f"M0 {num(fh / 2)}C{num(-fw * 0.6)} {num(fh / 2)} {num(-fw * 0.62)} {num(fh * 0.05)} "
            f"{num(-fw * 0.3)} {num(-fh * 0.12)}C{num(-fw * 0.22)} {num(-fh * 0.02)} "
            f"{num(-fw * 0.12)} {num(fh * 0.02)} {num(-fw * 0.08)} {num(-fh * 0.06)}"
            f"C{num(-fw * 0.18)} {num(-fh * 0.3)} 0 {num(-fh * 0.42)} {num(fw * 0.05)} "
            f"{num(-fh / 2)}C{num(fw * 0.1)} {num(-fh * 0.3)} {num(fw * 0.55)} {num(-fh * 0.2)} "
            f"{num(fw * 0.5)} {num(fh * 0.14)}C{num(fw * 0.5)} {num(fh * 0.38)} {num(fw * 0.3)} "
            f"{num(fh / 2)} 0 {num(fh / 2)}Z"
        )
        inner = (
            f"M0 {num(fh * 0.46)}C{num(-fw * 0.3)} {num(fh * 0.46)} {num(-fw * 0.3)} "
            f"{num(fh * 0.15)} {num(fw * 0.02)} {num(-fh * 0.08)}C{num(fw * 0.3)} {num(fh * 0.18)} "
            f"{num(fw * 0.26)} {num(fh * 0.46)} 0 {num(fh * 0.46)}Z"
        )
        return (
            f'<g transform="translate({num(x)} {num(y)}) rotate({num(rotate)})">'
            f'<defs><linearGradient id="{gid}" x1="0" y1="1" x2="0" y2="0">'
            f'<stop offset="0" stop-color="{c2}"/><stop offset="1" stop-color="{c1}"/>'
            f"</linearGradient></defs>"
            f'<path d="{d}" fill="url(#{gid})" stroke="{edge}" stroke-width="3" '
            f'stroke-linejoin="round"/><path d="{inner}" fill="{c1}" opacity="0.85"/></g>'
        )

    def small_bell(self, x: float, y: float, size: float) -> str:
        """A bell ``size`` wide centred on (x, y) (a tail's end or a hat)."""
        gold = self.lit(roster.PALETTES["B"]["gold"], "#4a3868")
        edge = self.lit(darken(roster.PALETTES["B"]["bronze"], 0.35), SHADOW["glow"])
        return suit_symbol(
            "B", x, y, size, gold, f' stroke="{edge}" stroke-width="{num(300 / size)}"'
        )
