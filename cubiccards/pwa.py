"""An installable site: the web app manifest, its icon (a card of the creature deck on the felt),
the service worker and the page it shows when there is no connection.

The worker caches static files only (the style sheets, the scripts, the icon) and the offline
page, which holds nobody's state; every page, socket and card image goes to the network as
before, so no one's table, name or Kudos is ever kept on the device."""

from __future__ import annotations

import hashlib
import json
import re
from functools import cache

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from cards import art

ICON_CARD = "AH"  # Shadow Emberon, the ace of hearts
FELT = "#0d4a30"
# What the worker fetches when it is installed: the look of every page and the offline page.
PRECACHE = ("css/site.css", "css/cards.css", "js/table.js", "js/pwa.js")
OFFLINE = "/offline/"


@cache
def icon_svg() -> str:
    """A 512×512 square: the card upright on the felt, as the site's tables show it."""
    card = art.card_svg(ICON_CARD)
    card = card.replace('width="250" height="350"', 'x="99" y="36" width="314" height="440"', 1)
    card = re.sub(r' role="img" aria-labelledby="[^"]+"', "", card, count=1)
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" width="512" height="512">'
        f'<rect width="512" height="512" rx="96" fill="{FELT}"/>{card}</svg>'
    )


@require_GET
def icon(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(icon_svg(), content_type="image/svg+xml; charset=utf-8")
    response["Cache-Control"] = "public, max-age=86400"
    return response


@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    body = {
        "name": "Cubic Cards",
        "short_name": "Cubic Cards",
        "description": gettext(
            "Ten card games with the A.M.I.C. creature deck, alone or with friends."
        ),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "background_color": FELT,
        "theme_color": FELT,
        "icons": [
            {"src": "/icon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"},
        ],
    }
    return HttpResponse(json.dumps(body), content_type="application/manifest+json")


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """At the site's root, so it may answer for every page (a worker's scope is its folder)."""
    files = [static(name) for name in PRECACHE] + ["/icon.svg", OFFLINE]
    # A new build (new static names in production) is a new cache; the old one is dropped.
    version = hashlib.sha256("\n".join(files).encode()).hexdigest()[:12]
    response = render(
        request,
        "pwa/sw.js",
        {
            "version": version,
            "files": json.dumps(files),
            "static_url": json.dumps(static("")),
            "offline": json.dumps(OFFLINE),
        },
        content_type="text/javascript; charset=utf-8",
    )
    response["Cache-Control"] = "no-cache"  # the browser checks for a new worker each visit
    return response


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    return render(request, "pwa/offline.html")
