from django.conf import settings
from django.http import Http404
from django.shortcuts import render
from django.utils import translation
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET
from django.views.i18n import JavaScriptCatalog

from gameplay.engine import registry
from kudos import header
from social import selectors as friends


def home(request):
    # A seated player may browse: the header's "Back to your table" link leads back.
    games = [registry.get(kind) for kind in registry.kinds()]
    invitations = []
    # Most players have none: kept as "none" until the next one is sent to them.
    if request.user.is_authenticated and header.kept(request).get("invited", lambda: True):
        invitations = friends.open_invitations(request.user)
        header.kept(request).put("invited", bool(invitations))
    return render(request, "home.html", {"games": games, "invitations": invitations})


def fairness(request):
    """How anyone can check that a deal was not changed after the game started."""
    return render(request, "fairness.html")


_catalog = JavaScriptCatalog.as_view()


@require_GET
@cache_control(public=True, max_age=86400)
def javascript_catalog(request, lang):
    """The scripts' sentences (gettext, ngettext, interpolate) in the language the URL names:
    base.html names the page's, so a copy cached in one language is never used for another."""
    if lang not in dict(settings.LANGUAGES):
        raise Http404(translation.gettext("There is no such language here."))
    with translation.override(lang):
        return _catalog(request)
