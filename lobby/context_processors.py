from .identity import player_key
from .services import current_room


def your_table(request):
    """The header's "Back to your table" link: the room where this person holds a seat in a
    game in play (nothing on that room's own page)."""
    player = player_key(request, create=False) if hasattr(request, "session") else None
    room = current_room(player) if player else None
    if room is None or request.path == f"/rooms/{room.code}/":
        return {}
    return {"your_table": room}
