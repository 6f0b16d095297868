from accounts.backends import read_beside

from .identity import player_key
from .services import seated_key, table_code


def your_table(request):
    """The header's "Back to your table" link: the room where this person holds a seat in a
    game in play (nothing on that room's own page)."""
    player = player_key(request, create=False) if hasattr(request, "session") else None
    # A signed-in player's kept table was read with the account row.
    code = table_code(player, read_beside(request.user, [seated_key(player)])) if player else None
    if code is None or request.path == f"/rooms/{code}/":
        return {}
    return {"your_table": {"code": code}}
