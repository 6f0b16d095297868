"""Kudos listens: to every ended game (the end-of-game hook), to sign-ins, to the card style
form, and to players' accounts."""

from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_in
from django.db.models.signals import post_save, pre_delete
from django.dispatch import receiver

from cards import prefs as card_prefs
from gameplay.hooks import on_game_end

from . import awards, badges, challenges, referrals, services, shop


@on_game_end("kudos")
def pay_for_game(game):
    services.pay_for_game(game)


@on_game_end("challenge")
def record_challenge(game):
    challenges.record(game)


# Badges read the game's record and the rating it brought.
@on_game_end("badges", after=("stats", "ratings"))
def award_badges(game):
    if game.status != game.Status.OVER:
        return
    sources = {badges.GAME, badges.RATING} if game.ranked else {badges.GAME}
    for user_id in sorted({s.get("user_id") for s in game.seats if s.get("user_id")}):
        awards.award_due(user_id, sources, kind=game.kind)


# The games that count are the finished games "stats" records.
@on_game_end("referrals", after=("stats",))
def qualify_referrals(game):
    referrals.qualify_players(game)


@receiver(user_logged_in, dispatch_uid="kudos-signed-in")
def signed_in(sender, request, user, **kwargs):
    if request is None:
        return
    referrals.signed_in(request, user)
    shop.dress(request.session, user.pk)


@receiver(card_prefs.saved, dispatch_uid="kudos-card-style")
def card_style_saved(sender, request, prefs, **kwargs):
    if request.user.is_authenticated:
        shop.remember(request.user.pk, prefs)


@receiver(post_save, sender=get_user_model(), dispatch_uid="kudos-time-zone")
def note_time_zone(sender, instance, created, update_fields=None, **kwargs):
    if update_fields is None or "time_zone" in update_fields:
        services.saw_time_zone(instance)


@receiver(pre_delete, sender=get_user_model(), dispatch_uid="kudos-forget")
def forget_player(sender, instance, **kwargs):
    services.forget(user_id=instance.pk)
