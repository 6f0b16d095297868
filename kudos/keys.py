"""Every ledger entry's idempotency key, built here and only here: a key names the one event
that pays (this game's play for this player, this day of this streak), so paying it twice is
one entry. Keys are stored: never change one's shape, add a new function instead."""

from __future__ import annotations

from datetime import date


def play(game_id: int, user_id: int) -> str:
    return f"play:{game_id}:{user_id}"


def first_win(user_id: int, kind: str, day: date) -> str:
    return f"first-win:{user_id}:{kind}:{day.isoformat()}"


def bonus_event(event_id: int, game_id: int, user_id: int) -> str:
    return f"event:{event_id}:{game_id}:{user_id}"


def streak_day(user_id: int, day: date) -> str:
    return f"streak:{user_id}:{day.isoformat()}"


def badge(slug: str, user_id: int) -> str:
    return f"badge:{slug}:{user_id}"


def challenge(challenge_id: int, user_id: int) -> str:
    return f"challenge:{challenge_id}:{user_id}"


def challenge_top(challenge_id: int, user_id: int) -> str:
    return f"challenge-top:{challenge_id}:{user_id}"


def referral(invitee_id: int, side: str) -> str:
    """`side`: "joined" (the invitee's welcome) or "invited" (the inviter's reward)."""
    return f"referral:{invitee_id}:{side}"


def weekly(week: str, user_id: int) -> str:
    return f"weekly:{week}:{user_id}"


def shop(item: str, user_id: int) -> str:
    return f"shop:{item}:{user_id}"


def freeze(user_id: int, order: str) -> str:
    return f"shop:freeze:{user_id}:{order}"


def spot(nonce: str) -> str:
    return f"spot:{nonce}"


def correction(ticket: str) -> str:
    return f"correction:{ticket}"


def arena(arena_id: int, user_id: int) -> str:
    """An arena's prize for one player."""
    return f"arena:{arena_id}:{user_id}"


def arena_place(arena_id: int, place: int) -> str:
    """Not a key: the reference an arena prize carries (its place among the prize-winners),
    which the podium badge reads."""
    return f"arena:{arena_id}:place:{place}"
