"""Friends, friend requests, blocks, invitations to a table, and who has a page open."""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone

USER = settings.AUTH_USER_MODEL


class FriendRequest(models.Model):
    """One person asking another to be friends. Answered requests are kept: they are what the
    daily limit counts, so withdrawing one does not give it back."""

    class Status(models.TextChoices):
        PENDING = "pending", "pending"
        ACCEPTED = "accepted", "accepted"
        DECLINED = "declined", "declined"
        CANCELLED = "cancelled", "cancelled"  # withdrawn by its sender, or ended by a block

    sender = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+")
    recipient = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created = models.DateTimeField(default=timezone.now)
    answered = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["sender", "recipient"],
                condition=Q(status="pending"),
                name="one_open_request_per_pair",
            ),
            models.CheckConstraint(condition=~Q(sender=F("recipient")), name="no_self_request"),
        ]
        indexes = [models.Index(fields=["sender", "created"], name="requests_sent_by_day")]

    def __str__(self) -> str:
        return f"{self.sender_id} asks {self.recipient_id} ({self.status})"


class Friendship(models.Model):
    """One direction of a friendship: the two rows are made and removed together, so a
    person's friends are one indexed lookup."""

    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+")
    friend = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+")
    since = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "friend"], name="one_friendship_per_pair")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} and {self.friend_id}"


class Block(models.Model):
    """`blocker` wants nothing from `blocked`: no requests, no invitations."""

    blocker = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+")
    blocked = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["blocker", "blocked"], name="one_block")]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"


class Invitation(models.Model):
    """A friend asked to a table. It carries the room, so a table that is not listed is
    revealed to the invitee by the invitation alone."""

    class Status(models.TextChoices):
        PENDING = "pending", "pending"
        ACCEPTED = "accepted", "accepted"
        DISMISSED = "dismissed", "dismissed"
        WITHDRAWN = "withdrawn", "withdrawn"  # the two stopped being friends, or one blocked

    sender = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+")
    recipient = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+")
    room = models.ForeignKey("lobby.Room", on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created = models.DateTimeField(default=timezone.now)
    answered = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["recipient", "room"],
                condition=Q(status="pending"),
                name="one_open_invitation_per_table",
            )
        ]
        indexes = [models.Index(fields=["recipient", "status"], name="invitations_for")]

    def __str__(self) -> str:
        return f"{self.sender_id} invites {self.recipient_id} to {self.room_id} ({self.status})"


class Online(models.Model):
    """One open header socket of a signed-in person (every page has one), kept alive by its
    process's heartbeat like a table's Presence: a person is online while a row is fresh."""

    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+")
    channel = models.CharField(max_length=200, unique=True)
    seen = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.user_id} on {self.channel}"
