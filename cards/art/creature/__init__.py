"""The creatures, painted from their ``Look`` in the roster: the painter holds a creature's
measures, colours and the strokes every part uses; each module here draws one kind of part
(body and pattern, face, limbs, tail, top, a royal's headwear) from a table with one entry per
style, and this module lays them down in order. Lengths "in units of s" grow with the body
(``Painter.s``: the body's larger side over 110)."""

from __future__ import annotations

import random

from ...roster import Creature
from . import body, face, headwear, limbs, tails, tops
from .painter import Painter

__all__ = ["Painter", "draw", "extent", "painter"]


def painter(cr: Creature, uid: str, *, shadow: bool, rnd: random.Random) -> Painter:
    """The painter of `cr` (``shadow``: painted dark with a violet glow)."""
    return Painter(cr, uid, shadow, rnd, body.BODIES[cr.look.body], tops.TOPS[cr.look.top])


def draw(p: Painter) -> str:
    lk = p.look
    arms, feet, top = limbs.ARMS[lk.arms], limbs.FEET[lk.feet], tops.TOPS[lk.top]
    layers = (
        body.ground, tails.tail, arms.behind, top.behind, feet.behind, body.shape,
        feet.front, face.face, arms.front, top.front, headwear.headwear,
    )  # fmt: skip
    return "".join(layer(p) for layer in layers if layer is not None)


def extent(p: Painter) -> tuple[float, float, float, float]:
    """Roughly how far the drawing reaches from (0, 0): (left, right, top, bottom)."""
    lk, w, h, s = p.look, p.w, p.h, p.s
    share, reach = limbs.ARMS[lk.arms].span
    half = share * w + reach * s
    right = half
    tail = tails.TAILS[lk.tail]
    if tail.draw is not None:
        right = max(half, w * 0.38 + tail.reach * s)
    top = -p.head_y + tops.TOPS[lk.top].reach * s
    if headwear.wears_one(p):
        top = max(top, -p.head_y + 30 * s)
    if lk.feet == limbs.FLOATING:
        bottom = h / 2 + 28  # the ground shadow floats the same way at every size
    else:
        bottom = h / 2 + limbs.FEET[lk.feet].reach * s
    return half, right, top, bottom
