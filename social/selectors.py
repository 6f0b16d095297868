"""What the friends pages read: they never write."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import timezone

from lobby.models import Presence, Watcher

from .models import Block, FriendRequest, Friendship, Invitation, Online
from .services import INVITATION_TTL, fresh_since

User = get_user_model()


def online_ids(user_ids) -> set[int]:
    """Which of these people have a page of the site open now."""
    return set(
        Online.objects.filter(user_id__in=list(user_ids), seen__gte=fresh_since())
        .values_list("user_id", flat=True)
        .distinct()
    )


def _tables(user_ids) -> dict[int, dict]:
    """Where each of these people is, at a table anyone may see (listed or ranked): seated or
    waiting there with a live socket, or watching it. A table reached by its code alone is
    never named."""
    fresh = fresh_since()
    places: dict[int, dict] = {}
    shared = Q(room__public=True) | Q(room__ranked=True)
    watching = (
        Watcher.objects.filter(user_id__in=user_ids, seen__gte=fresh, room__is_open=True)
        .filter(shared)
        .select_related("room")
        .order_by("seen")
    )
    for w in watching:
        places[w.user_id] = {"code": w.room.code, "watching": True}
    at_tables = (
        Presence.objects.filter(
            member__user_id__in=user_ids, seen__gte=fresh, member__room__is_open=True
        )
        .filter(Q(member__room__public=True) | Q(member__room__ranked=True))
        .select_related("member__room__game")
        .order_by("seen")
    )
    for p in at_tables:  # a seat wins over watching
        room = p.member.room
        # A table waiting for players is joined at its room; one in play is watched.
        waiting = room.game is None or room.game.is_over
        places[p.member.user_id] = {"code": room.code, "watching": False, "join": waiting}
    for place in places.values():
        where = "" if place.get("join") else "watch/"
        place["url"] = f"/rooms/{place['code']}/{where}"
    return places


def friends(user) -> list[dict]:
    """`user`'s friends by name: each with whether they are online and, if at a table
    anyone may see, which one."""
    rows = list(
        Friendship.objects.filter(user=user).select_related("friend").order_by("friend__username")
    )
    ids = [r.friend_id for r in rows]
    online = online_ids(ids)
    places = _tables([i for i in ids if i in online])
    return [
        {
            "user": r.friend,
            "since": r.since,
            "online": r.friend_id in online,
            "table": places.get(r.friend_id),
        }
        for r in rows
    ]


def online_friends(user) -> list:
    """`user`'s friends with a page open now, by name: whom the room offers to invite."""
    ids = Friendship.objects.filter(user=user).values_list("friend_id", flat=True)
    here = online_ids(ids)
    return list(User.objects.filter(pk__in=here).order_by("username"))


def requests_in(user):
    return (
        FriendRequest.objects.filter(recipient=user, status="pending")
        .select_related("sender")
        .order_by("created")
    )


def requests_out(user):
    return (
        FriendRequest.objects.filter(sender=user, status="pending")
        .select_related("recipient")
        .order_by("created")
    )


def blocked(user):
    return Block.objects.filter(blocker=user).select_related("blocked").order_by("created")


def standing(viewer, other) -> dict:
    """What `viewer` and `other` are to each other, for the buttons on `other`'s profile."""
    pair = Q(sender=viewer, recipient=other) | Q(sender=other, recipient=viewer)
    pending = FriendRequest.objects.filter(pair, status="pending").first()
    return {
        "friends": Friendship.objects.filter(user=viewer, friend=other).exists(),
        "asked": pending if pending and pending.sender_id == viewer.pk else None,
        "asked_by": pending if pending and pending.sender_id == other.pk else None,
        "blocked": Block.objects.filter(blocker=viewer, blocked=other).exists(),
    }


def open_invitations(user) -> list[Invitation]:
    """Invitations `user` may still take up, newest first: to an open table, recent. Each
    says whether its table is waiting for players (`waiting`: Join) or playing (Watch)."""
    found = list(
        Invitation.objects.filter(
            recipient=user,
            status="pending",
            created__gte=timezone.now() - INVITATION_TTL,
            room__is_open=True,
        )
        .select_related("sender", "room", "room__game")
        .order_by("-created")
    )
    for invitation in found:
        game = invitation.room.game
        invitation.waiting = game is None or game.is_over
    return found


def invited_ids(room) -> set[int]:
    """Who has an open invitation to this room."""
    return set(
        Invitation.objects.filter(room=room, status="pending").values_list(
            "recipient_id", flat=True
        )
    )
