"""The lobby hears of accounts being erased (accounts.privacy)."""

from django.dispatch import receiver
from django.utils import timezone

from accounts import privacy

from .models import Member, Presence, QueueEntry


@receiver(privacy.erasing, dispatch_uid="lobby-erase")
def lobby_erase(sender, user, **kwargs):
    """The person's name leaves the rooms they were in; they leave any queue."""
    Member.objects.filter(user=user).update(name=privacy.PLACEHOLDER)
    Presence.objects.filter(member__user=user).delete()
    QueueEntry.objects.filter(user=user, status=QueueEntry.Status.WAITING).update(
        status=QueueEntry.Status.LEFT, closed=timezone.now()
    )
