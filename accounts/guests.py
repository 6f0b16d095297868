"""Visitors can play without an account: a guest name kept in their session."""

import secrets

GUEST_KEY = "guest_name"


def player_name(request) -> str:
    """The name shown at tables: the username, or a guest name made once per session."""
    if request.user.is_authenticated:
        return request.user.username
    name = request.session.get(GUEST_KEY)
    if not name:
        name = f"Guest-{secrets.randbelow(9000) + 1000}"
        request.session[GUEST_KEY] = name
    return name
