"""Awarding badges: every badge a player's stored history has reached, paid once.

Awarding recomputes from what is stored (kudos.badges' measures over accounts' finished
games, ratings, streaks, Daily Challenge attempts), never from a running count, so it is the
same whenever it runs. Each award is a credit with the key ``badge:<slug>:<user>`` and a
``BadgeEarned`` row in the same transaction: once per player, whoever runs it and however
often.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from . import keys, services, shop
from .badges import CATALOGUE, SOURCES, Badge, History
from .models import BadgeEarned, Entry


def award_due(
    user_id: int, sources: Iterable[str] = SOURCES, kind: str | None = None
) -> list[Badge]:
    """Award every badge the player's stored history has reached and they don't hold yet,
    among those ``sources`` can move (and, with ``kind``, those about that game or any game).
    Returns the badges this call awarded."""
    sources = set(sources)
    held = set(BadgeEarned.objects.filter(user_id=user_id).values_list("badge", flat=True))
    history = History(user_id)
    awarded = []
    for badge in CATALOGUE:
        if badge.slug in held or badge.measure.source not in sources:
            continue
        if kind is not None and badge.kind not in ("", kind):
            continue
        if badge.measure.of(history) >= badge.goal and award(user_id, badge):
            awarded.append(badge)
    return awarded


def award(user_id: int, badge: Badge) -> bool:
    """Pay the badge's reward and record it, once per player. Returns whether this call did."""
    with transaction.atomic():
        entry, created = services.credit(
            user_id=user_id,
            amount=badge.reward,
            kind=Entry.Kind.BADGE,
            key=keys.badge(badge.slug, user_id),
            memo=f"Badge: {shop.english(badge.name)}",
            reference=f"badge:{badge.slug}",
            badge=badge.slug,
        )
        if created:
            BadgeEarned.objects.create(user_id=user_id, badge=badge.slug, earned=entry.created)
    return created
