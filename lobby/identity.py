"""Who is this visitor? A signed-in user, or a guest known by a token in their session."""

from django.utils.crypto import salted_hmac

from accounts.guests import player_name

GUEST_TOKEN = "guest_token"


def account_key(user_id) -> str:
    """A signed-in person's key."""
    return f"user:{user_id}"


def player_key(request, create: bool = True) -> str | None:
    """A stable key for this person: "user:<id>", or "guest:<token>" (made on first use,
    unless create=False)."""
    if request.user.is_authenticated:
        return account_key(request.user.pk)
    token = request.session.get(GUEST_TOKEN)
    if not token and not create:
        return None
    if not token:
        # Derived from the session, not drawn at random: parallel first requests of one
        # session (20 joins at once) must all be the same person, whichever saves last.
        if request.session.session_key is None:
            request.session.save()
        token = salted_hmac(GUEST_TOKEN, request.session.session_key).hexdigest()[:22]
        request.session[GUEST_TOKEN] = token
    return f"guest:{token}"


def scope_player_key(scope) -> str | None:
    """The same key for a WebSocket connection; None if it has neither account nor session."""
    user = scope.get("user")
    if user is not None and user.is_authenticated:
        return account_key(user.pk)
    session = scope.get("session")
    token = session.get(GUEST_TOKEN) if session is not None else None
    return f"guest:{token}" if token else None


__all__ = ["player_key", "player_name", "scope_player_key"]
