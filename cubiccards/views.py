from django.shortcuts import redirect, render

from gameplay.engine import registry
from lobby.identity import player_key
from lobby.services import current_room


def home(request):
    # Closing the page and coming back takes a player back to the table they sit at.
    if "lobby" not in request.GET:
        player = player_key(request, create=False)
        room = current_room(player) if player else None
        if room is not None:
            return redirect("room", code=room.code)
    games = [registry.get(kind) for kind in registry.kinds()]
    return render(request, "home.html", {"games": games})


def fairness(request):
    """How anyone can check that a deal was not changed after the game started."""
    return render(request, "fairness.html")
