"""Kudos badges: a creature in a round medallion over a ribbon."""

from __future__ import annotations

from functools import lru_cache
from xml.sax.saxutils import escape

from gameplay.engine import cards as c

from .. import roster
from . import creature
from .colour import FOUR_COLOUR, NIGHT_PANEL, PANELS, darken
from .creature import Painter
from .suits import motif
from .svg import FONT, art_rng, num

BADGE_RINGS = {  # light, dark
    "bronze": ("#e0a06a", "#8a5326"),
    "silver": ("#e4e8ef", "#6f7989"),
    "gold": ("#f5c542", "#9a6a12"),
}
_LOCKED_RING = ("#8b8f99", "#4a4d55")
_MOTIF_SPOTS = ((52, 70), (150, 62), (160, 130), (44, 128), (100, 36))


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
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 222" width="200" height="222" '
        f'role="img" aria-labelledby="{uid}-title"><title id="{uid}-title">{escape(name)}</title>'
        + _background(uid, suit, earned)
        + _tails(ribbon)
        + f'<circle cx="100" cy="96" r="88" fill="{light}" stroke="{dark}" stroke-width="6"/>'
        f'<circle cx="100" cy="96" r="76" fill="none" stroke="{dark}" stroke-width="2" '
        f'stroke-dasharray="3 6" opacity="0.6"/>'
        + _medallion(
            uid, creature.painter(cr, uid, shadow=not earned, rnd=art_rng("badge/" + card))
        )
        + _band(ribbon, mark)
        + "</svg>"
    )


def _background(uid: str, suit: str, earned: bool) -> str:
    """The medallion's gradient and its clip (the suit's panel colours, or night if locked)."""
    centre, edge, _ = PANELS[suit] if earned else NIGHT_PANEL
    return (
        f'<defs><radialGradient id="{uid}-bg" cx="0.5" cy="0.4" r="0.7">'
        f'<stop offset="0" stop-color="{centre}"/><stop offset="1" stop-color="{edge}"/>'
        f'</radialGradient><clipPath id="{uid}-in"><circle cx="100" cy="96" r="72"/></clipPath>'
        f"</defs>"
    )


def _medallion(uid: str, painter: Painter) -> str:
    """The inside of the ring: the background with motifs, and the creature fitted in."""
    card, earned = painter.cr.card, not painter.shadow
    suit = painter.cr.suit
    left, right, top, bottom = creature.extent(painter)
    scale = min(1.0, 118 / (left + right), 112 / (top + bottom))
    x = 100 + (left - right) / 2 * scale
    y = 96 + (top - bottom) / 2 * scale
    colour = (PANELS[suit] if earned else NIGHT_PANEL)[2]
    rnd = art_rng("badge-bg/" + card)
    motifs = "".join(
        f'<g opacity="0.6">'
        f"{motif(suit if earned else 'S', mx + rnd.uniform(-6, 6), my, 6, colour, rnd)}</g>"
        for mx, my in _MOTIF_SPOTS
    )
    return (
        f'<g clip-path="url(#{uid}-in)"><circle cx="100" cy="96" r="72" fill="url(#{uid}-bg)"/>'
        f'{motifs}<g transform="translate({num(x)} {num(y)}) scale({scale:.3f})">'
        f"{creature.draw(painter)}</g></g>"
    )


def _tails(ribbon: str) -> str:
    """The ribbon's two ends, hanging behind the ring."""
    shade = darken(ribbon, 0.25)
    return (
        f'<path d="M58 168L40 214L62 204L76 220L88 176Z" fill="{shade}"/>'
        f'<path d="M142 168L160 214L138 204L124 220L112 176Z" fill="{shade}"/>'
    )


def _band(ribbon: str, mark: str) -> str:
    """The ribbon across the bottom of the ring, with the badge's word on it."""
    return (
        f'<path d="M30 160H170L162 176L170 192H30L38 176Z" fill="{ribbon}" '
        f'stroke="{darken(ribbon, 0.4)}" stroke-width="3" stroke-linejoin="round"/>'
        f'<text x="100" y="183" text-anchor="middle" font-family="{FONT}" font-weight="900" '
        f'font-size="19" fill="#ffffff">{escape(mark)}</text>'
    )
