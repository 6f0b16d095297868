from django.http import HttpRequest

from . import prefs


def card_prefs(request: HttpRequest) -> dict:
    """``card_four_colour`` and ``card_back`` for every page: the ``{% card %}`` tag reads them."""
    return prefs.as_context(getattr(request, "session", None))
