"""Writes for programs as players: bot accounts and challenges."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext

from accounts.models import GameRecord, Rating, User
from lobby.models import Member, QueueEntry


class BotError(Exception):
    def __init__(self, message: str):
        self.message = message
        super().__init__(message)


@transaction.atomic
def become_bot(*, user: User) -> User:
    """Turn an account with no games yet into a bot account, for good: its games would
    otherwise have been played by a person under a name that is now a program's."""
    user = User.objects.select_for_update().get(pk=user.pk)
    if user.role == User.BOT:
        raise BotError(gettext("This account is a bot account already."))
    if user.role != User.PERSON:
        raise BotError(gettext("Only a person's account can become a bot account."))
    played = (
        GameRecord.objects.filter(user=user).exists()
        or Rating.objects.filter(user=user).exists()
        or Member.objects.filter(user=user, room__game__isnull=False).exists()
        or QueueEntry.objects.filter(user=user).exists()
    )
    if played:
        raise BotError(
            gettext(
                "Only an account with no games yet can become a bot account: make a new account "
                "for your bot."
            )
        )
    user.role = User.BOT
    user.save(update_fields=["role"])
    return user
