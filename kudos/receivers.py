"""Kudos listens: to every ended game (the end-of-game hook) and to players' accounts."""

from django.contrib.auth import get_user_model
from django.db.models.signals import post_save, pre_delete
from django.dispatch import receiver

from gameplay.hooks import on_game_end

from . import services


@on_game_end("kudos")
def pay_for_game(game):
    services.pay_for_game(game)


@receiver(post_save, sender=get_user_model(), dispatch_uid="kudos-time-zone")
def note_time_zone(sender, instance, created, update_fields=None, **kwargs):
    if update_fields is None or "time_zone" in update_fields:
        services.saw_time_zone(instance)


@receiver(pre_delete, sender=get_user_model(), dispatch_uid="kudos-forget")
def forget_player(sender, instance, **kwargs):
    services.forget(user_id=instance.pk)
