"""``{% load site %}``: the home page's game tiles, drawn once per process for each language
and card style and kept (they are the same for everyone who reads them so), with each page's
own CSRF token put into their forms; ``{% kept %}`` keeps any other part of a page that way."""

from __future__ import annotations

import functools

from django import template
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import mark_safe

from cubiccards import lengths
from gameplay.engine import registry

register = template.Library()

# Stands for the page's CSRF token in the kept tiles (a token's length and alphabet).
CSRF_SLOT = "csrfslot" * 8


@functools.lru_cache(maxsize=64)
def _drawn(language: str, four: bool, back: str) -> str:
    # Each tile offers its lengths, Quick first, with the minutes bench/durations.py measured
    # (cubiccards/lengths.json, read once per process).
    tiles = [(game, lengths.offered(game)) for game in map(registry.get, registry.kinds())]
    context = {"tiles": tiles, "csrf_token": CSRF_SLOT, "card_four_colour": four, "card_back": back}
    with translation.override(language):
        return render_to_string("partials/game_tiles.html", context)


@register.simple_tag(takes_context=True)
def game_tiles(context: template.Context) -> str:
    """Every game's tile, as the home page lists them."""
    drawn = _drawn(
        translation.get_language(),
        bool(context.get("card_four_colour", False)),
        str(context.get("card_back") or ""),
    )
    return mark_safe(drawn.replace(CSRF_SLOT, str(context.get("csrf_token", ""))))


class KeptNode(template.Node):
    def __init__(self, nodelist: template.NodeList):
        self.nodelist = nodelist
        self.drawn: dict[str, str] = {}

    def render(self, context: template.Context) -> str:
        # The page's language and token, looked up once for all of its kept parts.
        page = getattr(context, "kept_page", None)
        if page is None:
            page = context.kept_page = (
                translation.get_language(),
                str(context.get("csrf_token", "")),
            )
        language, token = page
        if token in ("", "NOTPROVIDED"):  # a page without a request (an error page)
            return self.nodelist.render(context)
        drawn = self.drawn.get(language)
        if drawn is None:
            with context.push(csrf_token=CSRF_SLOT):
                drawn = self.drawn[language] = self.nodelist.render(context)
        return drawn.replace(CSRF_SLOT, token)


@register.tag
def kept(parser, token) -> KeptNode:
    """``{% kept %}…{% endkept %}``: a part of a page that is the same for everyone who reads it
    in one language, drawn once per process for each language and kept, with each page's own
    CSRF token put into its forms. Nothing in it may depend on the reader, the request or the
    time. The page's language is read at its first kept part (a page speaks one language)."""
    nodelist = parser.parse(("endkept",))
    parser.delete_first_token()
    return KeptNode(nodelist)
