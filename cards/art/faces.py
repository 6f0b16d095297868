"""Card faces: the panel behind the figure, the figure (a creature, a King's shadow on an Ace,
the logo on a joker), its name, and the corner indices."""

from __future__ import annotations

import random
from xml.sax.saxutils import escape

from gameplay.engine import cards as c

from .. import roster
from ..roster import SHADOW
from . import creature
from .colour import FOUR_COLOUR, NIGHT_PANEL, PANELS, TWO_COLOUR
from .creature import Painter
from .logo import amic_logo
from .suits import motif, suit_symbol
from .svg import FONT, H, W, art_rng, card_sheet, num

# Where the panel's motifs go (each moved a little at random).
_MOTIF_SPOTS = (
    (70, 40), (205, 60), (215, 150), (60, 250), (195, 255), (40, 165), (150, 35), (120, 305),
    (222, 210),
)  # fmt: skip
# The index's tab, so it reads on a dark panel.
_TAB = "M9 22A13 13 0 0 1 22 9H66V110A12 12 0 0 1 54 122H9Z"


def face_svg(card: str, four_colour: bool) -> str:
    uid = "cc-" + card.lower()
    rnd = art_rng(card)
    title = roster.describe(card)
    if c.is_joker(card):
        return _joker(card, uid, rnd, title)
    rank, suit = c.rank(card), c.suit(card)
    corner = _corner(rank, suit, (FOUR_COLOUR if four_colour else TWO_COLOUR)[suit])
    if rank == "A":
        return _ace(suit, uid, rnd, title, corner)
    cr = roster.creature(card)
    assert cr is not None
    figure = _figure(creature.painter(cr, uid, shadow=False, rnd=rnd), uid)
    inner = _panel(suit, uid, rnd) + figure + _name_label(cr.name)
    return _frame(inner, title, uid, corner)


def _ace(suit: str, uid: str, rnd: random.Random, title: str, corner: str) -> str:
    """An Ace shows its King's shadow, glowing, on a night panel."""
    painter = creature.painter(roster.king(suit), uid, shadow=True, rnd=rnd)
    fid = f"{uid}-glow"
    figure = _glow_filter(fid) + _figure(painter, uid, f' filter="url(#{fid})"')
    label = _name_label(roster.shadow_name(suit), dark=True)
    inner = _panel(suit, uid, rnd, night=True) + figure + label
    return _frame(inner, title, uid, corner, dark_panel=True)


def _joker(card: str, uid: str, rnd: random.Random, title: str) -> str:
    """The logo: in colour on confetti (JK1), in gold on the night panel (JK2)."""
    mono = card == "JK2"
    inner = _panel("S", uid, rnd, night=True) if mono else _confetti_panel(uid, rnd)
    logo = f'<g transform="translate({W / 2} 170)">{amic_logo(uid, 150, mono=mono)}</g>'
    corner = _joker_corner("#f5c542" if mono else "#6a3fc8")
    return _frame(inner + logo, title, uid, corner)


# ---- the panel -------------------------------------------------------------------------------


def _panel_rect(attrs: str = "") -> str:
    return f'<rect x="9" y="9" width="{W - 18}" height="{H - 18}" rx="13"{attrs}/>'


def _panel_background(uid: str, centre: str, edge: str) -> str:
    gid = f"{uid}-bg"
    return (
        f'<defs><radialGradient id="{gid}" cx="0.5" cy="0.45" r="0.75">'
        f'<stop offset="0" stop-color="{centre}"/><stop offset="1" stop-color="{edge}"/>'
        f"</radialGradient></defs>" + _panel_rect(f' fill="url(#{gid})"')
    )


def _panel(suit: str, uid: str, rnd: random.Random, night: bool = False) -> str:
    """The suit family's background with a few small motifs (night: the Aces' and JK2's)."""
    centre, edge, colour = NIGHT_PANEL if night else PANELS[suit]
    out = [_panel_background(uid, centre, edge)]
    motif_suit = "S" if night else suit
    for x, y in _MOTIF_SPOTS:
        x += rnd.uniform(-8, 8)
        y += rnd.uniform(-8, 8)
        out.append(
            f'<g opacity="{rnd.uniform(0.45, 0.85):.2f}">'
            + motif(motif_suit, x, y, rnd.uniform(5, 9), colour, rnd)
            + "</g>"
        )
    if suit == "S" and not night:
        out.append(  # a crescent moon
            '<path d="M201 100A20 20 0 1 1 221 76A15 15 0 1 0 201 100Z" fill="#f3e39a" '
            'opacity="0.9"/>'
        )
    return "".join(out)


def _confetti_panel(uid: str, rnd: random.Random) -> str:
    """JK1's panel: confetti in the four suits' colours."""
    out = [_panel_background(uid, "#fff8e4", "#f0dcff")]
    for i in range(16):
        suit = "SHDC"[i % 4]
        x, y = rnd.uniform(70, 230), rnd.uniform(20, 330)
        out.append(
            suit_symbol(suit, x, y, rnd.uniform(9, 14), FOUR_COLOUR[suit], ' opacity="0.35"')
        )
    return "".join(out)


# ---- the figure ------------------------------------------------------------------------------


def _figure(painter: Painter, uid: str, extra: str = "") -> str:
    """The creature scaled to fill the middle of the face, kept inside the panel."""
    left, right, top, bottom = creature.extent(painter)
    box_w, box_top, box_bottom = 216, 52, 304
    scale = min(1.24, box_w / (left + right), (box_bottom - box_top) / (top + bottom))
    x = W / 2 + (left - right) / 2 * scale
    y = (box_top + box_bottom) / 2 + (top - bottom) / 2 * scale
    placed = f'<g transform="translate({num(x)} {num(y)}) scale({scale:.3f})"{extra}>'
    cid = f"{uid}-panel"
    return (
        f'<defs><clipPath id="{cid}">{_panel_rect()}</clipPath></defs>'
        f'<g clip-path="url(#{cid})">{placed}{creature.draw(painter)}</g></g>'
    )


def _glow_filter(fid: str) -> str:
    return (
        f'<defs><filter id="{fid}" x="-40%" y="-40%" width="180%" height="180%">'
        f'<feMorphology in="SourceAlpha" operator="dilate" radius="3" result="fat"/>'
        f'<feGaussianBlur in="fat" stdDeviation="7" result="blur"/>'
        f'<feFlood flood-color="{SHADOW["glow"]}" flood-opacity="0.95"/>'
        f'<feComposite in2="blur" operator="in" result="glow"/>'
        f'<feMerge><feMergeNode in="glow"/><feMergeNode in="glow"/>'
        f'<feMergeNode in="SourceGraphic"/></feMerge></filter></defs>'
    )


def _name_label(name: str, dark: bool = False) -> str:
    """The creature's name under it, kept clear of the bottom-right index."""
    fill = "#5b4b6e" if not dark else "#d9c4ff"
    room = 120  # from x=58 to x=178
    size = min(15.0, room / (len(name) * 0.62))
    return (
        f'<text x="118" y="326" text-anchor="middle" font-family="{FONT}" font-weight="700" '
        f'font-size="{num(size)}" fill="{fill}">{escape(name)}</text>'
    )


# ---- the corners -----------------------------------------------------------------------------


def _corner(rank: str, suit: str, colour: str) -> str:
    """The corner index: big rank over the suit symbol."""
    size, squeeze = 58, ""
    if rank == "10":  # two digits in the width of one column
        size = 50
        squeeze = ' letter-spacing="-4" textLength="50" lengthAdjust="spacingAndGlyphs"'
    return (
        f'<text x="33" y="62" text-anchor="middle" font-family="{FONT}" font-weight="800" '
        f'font-size="{size}" fill="{colour}"{squeeze}>{rank}</text>'
        + suit_symbol(suit, 33, 92, 40, colour)
    )


def _joker_corner(colour: str) -> str:
    """JOKER spelt down the side, over a star."""
    letters = "".join(
        f'<text x="30" y="{34 + i * 24}" text-anchor="middle" font-family="{FONT}" '
        f'font-weight="900" font-size="25" fill="{colour}">{ch}</text>'
        for i, ch in enumerate("JOKER")
    )
    star = (
        f'<path d="M30 143l5 10 11 1.5-8 7.5 2 11-10-5.5-10 5.5 2-11-8-7.5 11-1.5Z" '
        f'fill="{colour}"/>'
    )
    return letters + star


def _frame(inner: str, title: str, uid: str, corner: str, dark_panel: bool = False) -> str:
    """The whole face: the card, what is on it, and the index in two corners (one turned)."""
    rotate = f'transform="rotate(180 {W / 2} {H / 2})"'
    tabs = ""
    if dark_panel:
        tabs = f'<path d="{_TAB}" fill="#fffdf6"/><path d="{_TAB}" fill="#fffdf6" {rotate}/>'
    return card_sheet(uid, title, f"{inner}{tabs}{corner}<g {rotate}>{corner}</g>")
