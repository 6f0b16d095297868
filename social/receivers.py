"""Friends hear of accounts being exported and erased (accounts.privacy)."""

from django.db.models import Q
from django.dispatch import receiver

from accounts import privacy

from .models import Block, FriendRequest, Friendship, Invitation, Online


def _names(rows, field: str) -> list[dict]:
    return [
        {"name": getattr(r, field).username, "since": getattr(r, "since", None) or r.created}
        for r in rows
    ]


@receiver(privacy.data_requested, dispatch_uid="social-export")
def friends_held(sender, user, **kwargs):
    """What the friends' rows hold about a person, for their export: other people by name."""
    return {
        "friends": {
            "friends": _names(
                Friendship.objects.filter(user=user).select_related("friend"), "friend"
            ),
            "blocked": _names(
                Block.objects.filter(blocker=user).select_related("blocked"), "blocked"
            ),
            "requests_sent": [
                {"to": r.recipient.username, "status": r.status, "created": r.created}
                for r in FriendRequest.objects.filter(sender=user).select_related("recipient")
            ],
            "requests_received": [
                {"from": r.sender.username, "status": r.status, "created": r.created}
                for r in FriendRequest.objects.filter(recipient=user).select_related("sender")
            ],
        }
    }


@receiver(privacy.erasing, dispatch_uid="social-erase")
def friends_erase(sender, user, **kwargs):
    """An erased account has no friends, requests, blocks, invitations or open pages left."""
    Friendship.objects.filter(Q(user=user) | Q(friend=user)).delete()
    FriendRequest.objects.filter(Q(sender=user) | Q(recipient=user)).delete()
    Block.objects.filter(Q(blocker=user) | Q(blocked=user)).delete()
    Invitation.objects.filter(Q(sender=user) | Q(recipient=user)).delete()
    Online.objects.filter(user=user).delete()
