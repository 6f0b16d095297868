"""``{% load cards %}``: card images for every table.

``{% card "QH" %}`` renders
``<img class="card" src="/cards/QH.svg?v=..." alt="Queen of Hearts (Flamora)" width="100" height="140">``.
``"??"`` is a face-down card (alt "Face-down card"). Options: ``size="sm"|"md"|"lg"`` or a
width in pixels, ``four=True`` (four-colour suits), ``back="nebula"``, ``css="extra classes"``,
``lazy=True``. When ``four``/``back`` are not given, the context variables
``card_four_colour`` and ``card_back`` (a player's preferences) are used.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from gameplay.engine import cards as c

from .. import art, names

register = template.Library()

LAZY = mark_safe(' loading="lazy" decoding="async"')
SIZES = {"xs": 44, "sm": 64, "md": 100, "lg": 150, "xl": 220}


def _alt(card: str) -> str:
    try:
        return names.alt(card)
    except KeyError:
        return _("Unknown card")


@register.simple_tag
def card_url(card: str, four: bool = False, back: str = art.DEFAULT_BACK) -> str:
    """The URL of one card's image (the back for ``"??"``)."""
    slug = "back" if card == c.HIDDEN or not c.is_card(card) else card
    params = {}
    if four and slug != "back":
        params["four"] = "1"
    if slug == "back" and back != art.DEFAULT_BACK:
        params["back"] = back
    params["v"] = art.ART_VERSION
    return reverse("cards:svg", args=[slug]) + "?" + urlencode(params)


@register.simple_tag(takes_context=True)
def card(
    context: template.Context,
    card: str,
    size: str | int = "md",
    four: bool | None = None,
    back: str | None = None,
    css: str = "",
    lazy: bool = False,
) -> str:
    card = str(card)
    if four is None:
        four = bool(context.get("card_four_colour", False))
    if back is None:
        back = context.get("card_back") or art.DEFAULT_BACK
    if back not in art.BACKS:
        back = art.DEFAULT_BACK
    width = SIZES.get(str(size), None) or int(size)
    height = round(width * 1.4)
    classes = "card" + (f" card-{size}" if str(size) in SIZES else "") + (f" {css}" if css else "")
    return format_html(
        '<img class="{}" src="{}" alt="{}" width="{}" height="{}" draggable="false"{}>',
        classes,
        card_url(card, four=four, back=back),
        _alt(card),
        width,
        height,
        LAZY if lazy else "",
    )


@register.filter
def card_alt(card: str) -> str:
    """``{{ "QH"|card_alt }}`` -> "Queen of Hearts (Flamora)"."""
    return _alt(str(card))


@register.filter
def card_label(card: str) -> str:
    """``{{ "QH"|card_label }}`` -> "Q♥" (a face-down card: "face-down card")."""
    card = str(card)
    return c.label(card) if c.is_card(card) or card == c.HIDDEN else card


@register.filter
def card_name(card: str) -> str:
    """``{{ "QH"|card_name }}`` -> "Queen of Hearts", for labels read aloud."""
    card = str(card)
    return names.card_name(card) if c.is_card(card) else c.label(card)


@register.filter
def card_rank(card: str) -> str:
    """``{{ "10H"|card_rank }}`` -> "10"; ``{{ "KH"|card_rank }}`` -> "K" ("R" in French)."""
    card = str(card)
    return names.rank_letter(c.rank(card)) if c.is_card(card) and not c.is_joker(card) else ""


@register.filter
def suit_symbol(letter: str) -> str:
    """``{{ "H"|suit_symbol }}`` -> "♥"."""
    return c.SUIT_SYMBOLS.get(str(letter), "")


@register.filter
def suit_name(letter: str) -> str:
    """``{{ "H"|suit_name }}`` -> "Hearts"."""
    return names.suit_name(str(letter))


@register.filter
def card_suit(card: str) -> str:
    """``{{ "10H"|card_suit }}`` -> "H" ("" for a joker)."""
    card = str(card)
    return c.suit(card) if c.is_card(card) and not c.is_joker(card) else ""


@register.simple_tag(takes_context=True)
def suit_icon(context: template.Context, suit: str, css: str = "") -> str:
    """``{% suit_icon "B" %}``: the suit's symbol as the cards draw it (inline SVG, in the
    player's suit colours), labelled with the suit's name."""
    suit = str(suit)
    if suit not in art.SUIT_PATHS:
        return ""
    colours = art.FOUR_COLOUR if context.get("card_four_colour") else art.TWO_COLOUR
    return format_html(
        '<svg class="suit-icon{}" viewBox="0 0 100 100" role="img" aria-label="{}">'
        '<path d="{}" fill="{}"/></svg>',
        f" {css}" if css else "",
        c.SUIT_NAMES[suit],
        art.SUIT_PATHS[suit],
        colours[suit],
    )
