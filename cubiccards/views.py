from django.shortcuts import render

from gameplay.engine import registry


def home(request):
    # A seated player may browse: the header's "Back to your table" link leads back.
    games = [registry.get(kind) for kind in registry.kinds()]
    return render(request, "home.html", {"games": games})


def fairness(request):
    """How anyone can check that a deal was not changed after the game started."""
    return render(request, "fairness.html")
