from django.shortcuts import render

from gameplay.engine import registry
from social import selectors as friends

from . import lengths


def home(request):
    # A seated player may browse: the header's "Back to your table" link leads back.
    games = [registry.get(kind) for kind in registry.kinds()]
    # Each tile offers its lengths, Quick first, with the minutes bench/durations.py measured.
    tiles = [(game, lengths.offered(game)) for game in games]
    invitations = friends.open_invitations(request.user) if request.user.is_authenticated else []
    return render(
        request, "home.html", {"games": games, "tiles": tiles, "invitations": invitations}
    )


def fairness(request):
    """How anyone can check that a deal was not changed after the game started."""
    return render(request, "fairness.html")
