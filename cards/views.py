"""The card images, the "Who's on which card" page and the rules pages."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from gameplay.engine import cards as c
from gameplay.engine import registry

from . import art, names, prefs, roster
from .rules import fill, rules
from .templatetags.cards import card

CACHE_CONTROL = "public, max-age=31536000, immutable"
BACK_SLUG = "back"  # /cards/back.svg is the face-down card ("??" cannot sit in a path)
TRUE = ("1", "true", "yes", "on")
PREVIEW = ("9S", "KH", "QD", "JC")  # one card of each suit for the card style preview


@require_GET
def card_image(request: HttpRequest, card: str) -> HttpResponse:
    """One card as SVG: ``/cards/QH.svg``, ``/cards/back.svg?back=nebula``, ``?four=1``."""
    if card == BACK_SLUG:
        card = c.HIDDEN
    four = request.GET.get("four", "").lower() in TRUE
    back = request.GET.get("back") or art.DEFAULT_BACK
    try:
        svg = art.card_svg(card, four_colour=four, back=back)
    except ValueError as exc:
        raise Http404(str(exc)) from exc
    response = HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")
    response["Cache-Control"] = CACHE_CONTROL
    response["X-Content-Type-Options"] = "nosniff"
    return response


def _entry(card: str) -> dict:
    return {
        "card": card,
        "name": names.figure_name(card) if card != c.HIDDEN else "",
        "line": names.figure_line(card),
        "label": names.card_name(card),
    }


@require_GET
def deck(request: HttpRequest) -> HttpResponse:
    """Who's on which card: the whole deck by suit, each creature with its name and line.

    The player's card style applies; ``?four=1`` or ``?four=0`` shows the deck either way
    without changing it."""
    chosen = prefs.read(request.session)
    if "four" in request.GET:
        four = request.GET["four"].lower() in TRUE
    else:
        four = chosen.four_colour
    suits = []
    for suit in roster.ALL_SUITS:
        suits.append(
            {
                "code": suit,
                "name": names.suit_name(suit),
                "family": _(roster.FAMILIES[suit]),
                "line": _(roster.FAMILY_LINES[suit]),
                "cards": [_entry(r + suit) for r in c.RANKS],
            }
        )
    context = {
        "suits": suits[:4],
        "bells": suits[4],
        "jokers": [_entry(j) for j in c.JOKERS],
        "backs": [
            {
                "name": b,
                "title": names.back_name(b),
                "selectable": chosen.may_wear_back(b),
                "chosen": b == chosen.back,
            }
            for b in art.BACKS
        ],
        "preview": [_entry(cd) for cd in PREVIEW],
        "prefs": chosen,
        "four": four,
        "card_four_colour": four,
    }
    return render(request, "cards/deck.html", context)


@require_POST
def save_prefs(request: HttpRequest) -> HttpResponse:
    """Save the card style (``four_colour``, ``back``) in the session, then go back to
    ``next``. A value that can't be chosen changes nothing and says why."""
    try:
        chosen = prefs.parse(request.POST, prefs.read(request.session))
    except prefs.PrefsError as exc:
        messages.error(request, str(exc))
    else:
        prefs.save(request.session, chosen)
        prefs.saved.send(sender=prefs.CardPrefs, request=request, prefs=chosen)
        suits = _("four-colour suits") if chosen.four_colour else _("two-colour suits")
        back = names.back_name(chosen.back)
        messages.success(
            request,
            _("Card style saved: %(suits)s, %(back)s back.") % {"suits": suits, "back": back},
        )
    return redirect(_back_to(request))


def _back_to(request: HttpRequest) -> str:
    """Where to go after a form: ``next`` or the referring page, if it is on this site."""
    for url in (request.POST.get("next"), request.headers.get("Referer")):
        if url and url_has_allowed_host_and_scheme(
            url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        ):
            return url
    return reverse("cards:deck")


def _games() -> list[dict]:
    """Every game for the rules pages, named as its rules file names it (in English, the
    engine's title)."""
    games = []
    for k in registry.kinds():
        found = rules(k)
        engine = registry.get(k)
        games.append(
            {
                "kind": k,
                "engine": engine,
                "title": found.title,
                "players": names.players_text(engine),
                "summary": found.summary,
            }
        )
    return games


@require_GET
def rules_index(request: HttpRequest) -> HttpResponse:
    return render(request, "cards/rules_index.html", {"games": _games()})


@require_GET
def rules_page(request: HttpRequest, kind: str) -> HttpResponse:
    """A game's rules.md: the player's part as the page, the exact rules folded below."""
    if kind not in registry.kinds():
        raise Http404("No such game.")
    found = rules(kind)
    style = prefs.as_context(request.session)

    def draw(cd: str) -> str:
        return card(style, cd, size="sm")

    context = {
        "rules": found,
        "engine": registry.get(kind),
        "players": names.players_text(registry.get(kind)),
        "how_to_play": mark_safe(fill(found.how_to_play, found.examples, draw)),
        "exact": mark_safe(fill(found.exact, found.examples, draw)),
        "games": _games(),
    }
    return render(request, "cards/rules.html", context)
