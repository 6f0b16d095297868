"""Card backs, one entry per back: its name in the shop and how it is drawn."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from django.utils.translation import gettext_noop

from .. import roster
from .colour import darken
from .logo import amic_logo
from .suits import motif
from .svg import H, W, art_rng, card_sheet, num


def _inset(inset: float, rx: float | str, attrs: str = "") -> str:
    """A rectangle ``inset`` in from the card's edge on every side."""
    return (
        f'<rect x="{inset}" y="{inset}" width="{W - 2 * inset}" height="{H - 2 * inset}" '
        f'rx="{rx}"{attrs}/>'
    )


def _medallion(uid: str, fill: str, edge: str, mono: bool = False) -> str:
    """The logo in a round medallion in the middle."""
    return (
        f'<circle cx="{W / 2}" cy="{H / 2}" r="52" fill="{fill}" stroke="{edge}" stroke-width="4"/>'
        f'<g transform="translate({W / 2} {H / 2 + 4})">'
        f"{amic_logo(uid, 64, mono=mono, text=False)}</g>"
    )


def _classic(uid: str, rnd: random.Random) -> str:
    """A blue lattice with gold and red dots."""
    pid = f"{uid}-lattice"
    return (
        f'<defs><pattern id="{pid}" width="20" height="20" patternUnits="userSpaceOnUse" '
        f'patternTransform="rotate(45)"><rect width="20" height="20" fill="#23407d"/>'
        f'<path d="M0 10H20M10 0V20" stroke="#3a5ea8" stroke-width="3"/>'
        f'<circle cx="10" cy="10" r="3.2" fill="#e9d9a6"/>'
        + "".join(
            f'<circle cx="{x}" cy="{y}" r="2" fill="#c9424e"/>'
            for x, y in ((0, 0), (20, 0), (0, 20), (20, 20))
        )
        + "</pattern></defs>"
        + _inset(11, 12, f' fill="url(#{pid})"')
        + _inset(19, 8, ' fill="none" stroke="#fffdf6" stroke-width="3"')
        + _medallion(uid, "#fffdf6", "#c9424e")
    )


def _felt(uid: str, rnd: random.Random) -> str:
    """Green baize with a little grain, diamonds and a double gold rule."""
    fid, pid = f"{uid}-noise", f"{uid}-diamonds"
    return (
        f'<defs><filter id="{fid}" x="0" y="0" width="100%" height="100%">'
        f'<feTurbulence type="fractalNoise" baseFrequency="0.9" numOctaves="2" seed="7" '
        f'result="n"/><feColorMatrix in="n" type="matrix" '
        f'values="0 0 0 0 0  0 0 0 0 0  0 0 0 0 0  0 0 0 0.35 0"/>'
        f'<feComposite in2="SourceGraphic" operator="in"/></filter>'
        f'<pattern id="{pid}" width="36" height="36" patternUnits="userSpaceOnUse">'
        f'<path d="M18 4L32 18L18 32L4 18Z" fill="none" stroke="#2a8a57" stroke-width="1.5"/>'
        f"</pattern></defs>"
        + _inset(11, 12, ' fill="#17633d"')
        + _inset(11, 12, f' fill="url(#{pid})"')
        + _inset(11, 12, f' fill="#000000" filter="url(#{fid})"')
        + _inset(21, 8, ' fill="none" stroke="#e6c35c" stroke-width="2.5"')
        + _inset(27, 5, ' fill="none" stroke="#e6c35c" stroke-width="1" opacity="0.7"')
        + _medallion(uid, "#0f4a2c", "#e6c35c", mono=True)
    )


def _nebula(uid: str, rnd: random.Random) -> str:
    """A night sky: two coloured clouds, stars and a few twinkles."""
    g1, g2, g3 = f"{uid}-sky", f"{uid}-cloud1", f"{uid}-cloud2"
    out = [
        f'<defs><linearGradient id="{g1}" x1="0" y1="0" x2="1" y2="1">'
        f'<stop offset="0" stop-color="#1b1446"/><stop offset="1" stop-color="#0a0a22"/>'
        f"</linearGradient>"
        f'<radialGradient id="{g2}"><stop offset="0" stop-color="#c04cd6" stop-opacity="0.75"/>'
        f'<stop offset="1" stop-color="#c04cd6" stop-opacity="0"/></radialGradient>'
        f'<radialGradient id="{g3}"><stop offset="0" stop-color="#2fb5d9" stop-opacity="0.65"/>'
        f'<stop offset="1" stop-color="#2fb5d9" stop-opacity="0"/></radialGradient></defs>',
        _inset(11, 12, f' fill="url(#{g1})"'),
        f'<ellipse cx="80" cy="110" rx="120" ry="90" fill="url(#{g2})"/>',
        f'<ellipse cx="180" cy="250" rx="110" ry="100" fill="url(#{g3})"/>',
        f'<ellipse cx="150" cy="60" rx="70" ry="40" fill="url(#{g3})" opacity="0.6"/>',
    ]
    for _ in range(70):
        x, y = rnd.uniform(16, W - 16), rnd.uniform(16, H - 16)
        out.append(
            f'<circle cx="{num(x)}" cy="{num(y)}" r="{rnd.uniform(0.5, 1.8):.1f}" fill="#ffffff" '
            f'opacity="{rnd.uniform(0.4, 1):.2f}"/>'
        )
    for _ in range(6):
        x, y = rnd.uniform(24, W - 24), rnd.uniform(24, H - 24)
        out.append(f'<g opacity="0.9">{motif("S", x, y, rnd.uniform(5, 9), "#fff6d8", rnd)}</g>')
    out.append(_inset(19, 8, ' fill="none" stroke="#b9a6ff" stroke-width="1.5" opacity="0.6"'))
    out.append(
        f'<circle cx="{W / 2}" cy="{H / 2}" r="56" fill="none" stroke="#e2ccff" stroke-width="2" '
        f'opacity="0.5"/><g transform="translate({W / 2} {H / 2 + 4})">'
        f"{amic_logo(uid, 70, mono=False, text=False)}</g>"
    )
    return "".join(out)


def _gold(uid: str, rnd: random.Random) -> str:
    """Art deco: gold rays, double frame, corner fans and a diamond around the logo."""
    gold = "#d9b44a"
    cx, cy = W / 2, H / 2
    rays = []
    for i in range(36):
        ang = i * math.pi * 2 / 36
        x1, y1 = cx + 62 * math.cos(ang), cy + 62 * math.sin(ang)
        x2, y2 = cx + 260 * math.cos(ang), cy + 260 * math.sin(ang)
        rays.append(f"M{num(x1)} {num(y1)}L{num(x2)} {num(y2)}")
    cid = f"{uid}-clip"
    out = [
        _inset(11, 12, ' fill="#17130c"'),
        f'<defs><clipPath id="{cid}">{_inset(27, 6)}</clipPath></defs>'
        f'<path d="{"".join(rays)}" stroke="{gold}" stroke-width="1.2" opacity="0.55" '
        f'clip-path="url(#{cid})"/>',
    ]
    for inset, sw in ((19, 3), (27, 1.2)):
        rx = f"{max(4, 12 - inset / 3):.0f}"
        out.append(_inset(inset, rx, f' fill="none" stroke="{gold}" stroke-width="{sw}"'))
    for sx, sy in ((1, 1), (-1, 1), (1, -1), (-1, -1)):
        x0 = cx - sx * (cx - 27)
        y0 = cy - sy * (cy - 27)
        for r in (18, 28, 38):
            sweep = 1 if sx * sy > 0 else 0
            out.append(
                f'<path d="M{num(x0 + sx * r)} {num(y0)}A{r} {r} 0 0 {sweep} {num(x0)} '
                f'{num(y0 + sy * r)}" fill="none" stroke="{gold}" stroke-width="1.6"/>'
            )
    out.append(
        f'<path d="M{cx} {cy - 78}L{cx + 60} {cy}L{cx} {cy + 78}L{cx - 60} {cy}Z" fill="#17130c" '
        f'stroke="{gold}" stroke-width="3"/>'
        f'<path d="M{cx} {cy - 68}L{cx + 51} {cy}L{cx} {cy + 68}L{cx - 51} {cy}Z" fill="none" '
        f'stroke="{gold}" stroke-width="1"/>'
        f'<g transform="translate({cx} {cy + 4})">{amic_logo(uid, 60, mono=True, text=False)}</g>'
    )
    return "".join(out)


def _critters(uid: str, rnd: random.Random) -> str:
    """Little faces of the four families, in a pattern."""
    pid = f"{uid}-faces"
    colours = [
        roster.PALETTES["S"]["dusk"],
        roster.PALETTES["H"]["flame"],
        roster.PALETTES["D"]["aqua"],
        roster.PALETTES["C"]["moss"],
    ]
    spots = ((12, 12, colours[0]), (40, 12, colours[1]), (40, 40, colours[2]), (12, 40, colours[3]))
    faces = "".join(
        f'<circle cx="{x}" cy="{y}" r="10" fill="{colour}" stroke="{darken(colour, 0.5)}" '
        f'stroke-width="1.6"/>'
        f'<circle cx="{x - 3.5}" cy="{y - 1.5}" r="1.8" fill="#241a2a"/>'
        f'<circle cx="{x + 3.5}" cy="{y - 1.5}" r="1.8" fill="#241a2a"/>'
        f'<path d="M{x - 3} {y + 3}Q{x} {y + 6} {x + 3} {y + 3}" fill="none" stroke="#241a2a" '
        f'stroke-width="1.4" stroke-linecap="round"/>'
        for x, y, colour in spots
    )
    return (
        f'<defs><pattern id="{pid}" width="56" height="56" patternUnits="userSpaceOnUse" x="-2" '
        f'y="4"><rect width="56" height="56" fill="#fdebd3"/>{faces}</pattern></defs>'
        + _inset(11, 12, f' fill="url(#{pid})"')
        + _inset(19, 8, ' fill="none" stroke="#fff6e6" stroke-width="12"')
        + _inset(19, 8, ' fill="none" stroke="#e4474f" stroke-width="3"')
        + _medallion(uid, "#fffdf6", "#e4474f")
    )


@dataclass(frozen=True)
class Back:
    name: str  # as the shop and the settings say it
    draw: Callable[[str, random.Random], str]  # (uid, rnd): what is inside the card's border


# The names are translated where a page shows them (cards.names.back_name).
_BACKS = {
    "classic": Back(gettext_noop("Classic"), _classic),
    "felt": Back(gettext_noop("Felt"), _felt),
    "nebula": Back(gettext_noop("Nebula"), _nebula),
    "gold": Back(gettext_noop("Gold"), _gold),
    "critters": Back(gettext_noop("Critters"), _critters),
}
BACKS = tuple(_BACKS)
DEFAULT_BACK = "classic"
BACK_NAMES = {key: back.name for key, back in _BACKS.items()}


def back_svg(key: str) -> str:
    uid = f"cc-back-{key}"
    back = _BACKS[key]
    title = "Face-down card" if key == DEFAULT_BACK else f"Face-down card ({back.name} back)"
    inner = back.draw(uid, art_rng("back/" + key))
    return card_sheet(
        uid,
        title,
        f'<defs><clipPath id="{uid}-inner">{_inset(11, 12)}'
        f'</clipPath></defs><g clip-path="url(#{uid}-inner)">{inner}</g>',
    )
