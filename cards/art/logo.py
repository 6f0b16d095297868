"""The A.M.I.C. logo: a friendly isometric cube with one suit on each face."""

from __future__ import annotations

import math
from dataclasses import dataclass

from .colour import FOUR_COLOUR, INK
from .suits import suit_symbol
from .svg import FONT, num


@dataclass(frozen=True)
class _Colours:
    top: str
    left: str
    right: str
    edge: str
    pips: dict[str, str]
    eye: str  # the white of the eyes, and the smile
    pupils: bool
    ribbon: str
    ribbon_edge: str
    lettering: str


_GOLD = "#f5c542"
_FULL = _Colours(
    top="#fff4d6", left="#e4474f", right="#3b6fd1", edge=INK, pips=FOUR_COLOUR, eye="#ffffff",
    pupils=True, ribbon=_GOLD, ribbon_edge="#9a6a12", lettering=INK,
)  # fmt: skip
# In gold on dark, for the dark joker and the darker backs.
_MONO = _Colours(
    top=_GOLD, left="#2b2140", right="#3b2f57", edge=_GOLD, pips=dict.fromkeys("SHDC", _GOLD),
    eye=_GOLD, pupils=False, ribbon="#2b2140", ribbon_edge=_GOLD, lettering=_GOLD,
)  # fmt: skip


@dataclass(frozen=True)
class _Cube:
    """The measures of the cube, centred on (0, 0)."""

    s: float  # the scale: the logo is drawn 150 wide
    a: float  # half the cube's width
    q: float  # how far the top face's side corners sit below its back corner
    v: float  # the height of the front edge
    cy: float  # the front corner of the top face

    @classmethod
    def of(cls, size: float) -> _Cube:
        s = size / 150
        a = 62 * s
        return cls(s, a, a * math.tan(math.radians(30)), a * 1.05, -10 * s)

    @property
    def bottom(self) -> float:
        return self.cy + self.v


def amic_logo(uid: str, size: float = 150, mono: bool = False, text: bool = True) -> str:
    """The A.M.I.C. logo centred on (0, 0) and about ``size`` wide; ``mono`` in gold on dark,
    ``text`` with its ribbon."""
    colours = _MONO if mono else _FULL
    cube = _Cube.of(size)
    out = ['<g class="amic-logo">', _cube(cube, colours), _top_suits(cube, colours)]
    out.append(_face(cube, colours))
    if text:
        out.append(_ribbon(cube, colours))
    out.append("</g>")
    return "".join(out)


def _cube(cube: _Cube, colours: _Colours) -> str:
    s, a, q, v, cy = cube.s, cube.a, cube.q, cube.v, cube.cy
    back, left, right, front = (0, cy - 2 * q), (-a, cy - q), (a, cy - q), (0, cy)
    low_left, low_right, low_front = (-a, cy - q + v), (a, cy - q + v), (0, cy + v)

    def face(pts: list[tuple[float, float]], fill: str) -> str:
        d = "M" + "L".join(f"{num(x)} {num(y)}" for x, y in pts) + "Z"
        return (
            f'<path d="{d}" fill="{fill}" stroke="{colours.edge}" stroke-width="{num(4 * s)}" '
            f'stroke-linejoin="round"/>'
        )

    return (
        f'<ellipse cx="0" cy="{num(cube.bottom + 10 * s)}" rx="{num(a * 1.05)}" '
        f'ry="{num(10 * s)}" fill="#000000" opacity="0.15"/>'
        + face([back, right, front, left], colours.top)
        + face([left, front, low_front, low_left], colours.left)
        + face([front, right, low_right, low_front], colours.right)
    )


def _top_suits(cube: _Cube, colours: _Colours) -> str:
    """The four suits on the top face, squashed into the cube's perspective."""
    s = cube.s
    pips = "".join(
        suit_symbol(suit, dx * 17 * s, dy * 17 * s, 24 * s, colours.pips[suit])
        for suit, (dx, dy) in zip("SHDC", ((-1, -1), (1, -1), (1, 1), (-1, 1)), strict=True)
    )
    return (
        f'<g transform="translate(0 {num(cube.cy - cube.q)}) scale(1 0.577) rotate(45)">{pips}</g>'
    )


def _face(cube: _Cube, colours: _Colours) -> str:
    """One eye on each front face, and a smile across the edge between them."""
    s, a, v, cy = cube.s, cube.a, cube.v, cube.cy
    ey = cy + v * 0.32
    out = []
    for x in (-a * 0.48, a * 0.48):
        out.append(
            f'<ellipse cx="{num(x)}" cy="{num(ey)}" rx="{num(8 * s)}" ry="{num(11 * s)}" '
            f'fill="{colours.eye}" stroke="{colours.edge}" stroke-width="{num(2.5 * s)}"/>'
        )
        if colours.pupils:
            out.append(
                f'<circle cx="{num(x + 1.5 * s)}" cy="{num(ey + 2 * s)}" r="{num(5 * s)}" '
                f'fill="{INK}"/>'
                f'<circle cx="{num(x - 1 * s)}" cy="{num(ey - 1 * s)}" r="{num(2 * s)}" '
                f'fill="#ffffff"/>'
            )
    out.append(
        f'<path d="M{num(-a * 0.42)} {num(cy + v * 0.6)}Q0 {num(cy + v * 0.95)} {num(a * 0.42)} '
        f'{num(cy + v * 0.6)}" fill="none" stroke="{colours.eye}" stroke-width="{num(5 * s)}" '
        f'stroke-linecap="round"/>'
    )
    return "".join(out)


def _ribbon(cube: _Cube, colours: _Colours) -> str:
    """The ribbon under the cube with the name on it."""
    s = cube.s
    ty = cube.bottom + 40 * s
    bw = 78 * s
    return (
        f'<path d="M{num(-bw)} {num(ty - 22 * s)}H{num(bw)}L{num(bw - 8 * s)} {num(ty - 4 * s)}'
        f"L{num(bw)} {num(ty + 14 * s)}H{num(-bw)}L{num(-bw + 8 * s)} {num(ty - 4 * s)}Z"
        f'" fill="{colours.ribbon}" stroke="{colours.ribbon_edge}" stroke-width="{num(3 * s)}" '
        f'stroke-linejoin="round"/>'
        f'<text x="0" y="{num(ty + 6 * s)}" text-anchor="middle" font-family="{FONT}" '
        f'font-weight="900" font-size="{num(26 * s)}" letter-spacing="{num(2 * s)}" '
        f'fill="{colours.lettering}">A.M.I.C.</text>'
    )
