"""Kudos listens: to every ended game (the end-of-game hook), to sign-ins, to the card style
form, and to players' accounts."""

from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_in
from django.db.models.signals import pre_delete
from django.dispatch import receiver

from accounts import privacy
from cards import prefs as card_prefs
from gameplay import play
from gameplay.hooks import on_game_end

from . import awards, badges, challenges, referrals, services, shop
from .models import (
    Account,
    Attempt,
    BadgeEarned,
    Entry,
    Look,
    Owned,
    PlayCredit,
    Referral,
    Streak,
    StreakDay,
    WeekPlace,
)


def _uncounted(game) -> bool:
    """Play that counts for no one pays nothing, records nothing (stats), so earns no badge
    and brings no referral closer."""
    return not play.counted(game)


@on_game_end("kudos", idle=_uncounted)
def pay_for_game(game):
    moved: set[int] = set()
    services.pay_for_game(game, moved)
    # The streak day this game made, paid or shared with an account seen on the same address.
    for user_id in sorted(moved):
        awards.award_due(user_id, {badges.STREAK})


@on_game_end("challenge", idle=lambda game: game.sealed_until is None)
def record_challenge(game):
    challenges.record(game)


# Badges read the game's record and the rating it brought.
@on_game_end(
    "badges", after=("stats", "ratings"), idle=lambda game: _uncounted(game) and not game.ranked
)
def award_badges(game):
    if game.status != game.Status.OVER:
        return
    sources = {badges.GAME, badges.RATING} if game.ranked else {badges.GAME}
    for user_id in sorted({s.get("user_id") for s in game.seats if s.get("user_id")}):
        awards.award_due(user_id, sources, kind=game.kind)


# The games that count are the finished games "stats" records.
@on_game_end("referrals", after=("stats",), idle=_uncounted)
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


@receiver(pre_delete, sender=get_user_model(), dispatch_uid="kudos-forget")
def forget_player(sender, instance, **kwargs):
    services.forget(user_id=instance.pk)


@receiver(privacy.data_requested, dispatch_uid="kudos-export")
def kudos_held(sender, user, **kwargs):
    """What Kudos holds about a person, for their export."""
    account = Account.objects.filter(user=user).first()
    streak = Streak.objects.filter(account__user=user).first()
    return {
        "kudos": {
            "balance": account.balance if account else 0,
            "ledger": privacy.rows(Entry.objects.filter(user=user).order_by("id"), "user"),
            "streak": privacy.rows([streak], "account") if streak else [],
            "streak_days": privacy.rows(StreakDay.objects.filter(user=user).order_by("day")),
            "badges": privacy.rows(BadgeEarned.objects.filter(user=user).order_by("earned")),
            "weekly_places": privacy.rows(WeekPlace.objects.filter(user=user), "user"),
            "challenge_attempts": privacy.rows(Attempt.objects.filter(user=user), "user"),
            "play_credited": privacy.rows(
                PlayCredit.objects.filter(user=user).order_by("id"), "user"
            ),
            "owned": privacy.rows(Owned.objects.filter(user=user), "user"),
            "look": privacy.rows(Look.objects.filter(user=user), "user"),
        },
        "referrals": {
            "invited_by": [
                {"inviter": r.inviter.username, **_referral_state(r)}
                for r in Referral.objects.filter(invitee=user).select_related("inviter")
            ],
            "invited": [
                {"invitee": r.invitee.username, **_referral_state(r)}
                for r in Referral.objects.filter(inviter=user).select_related("invitee")
            ],
        },
    }


def _referral_state(referral: Referral) -> dict:
    # Not the evidence: it tells when the other person was where (staff read it in the admin).
    return {
        "joined": referral.joined,
        "qualified": referral.qualified,
        "held_for_review": referral.held,
        "declined": referral.declined,
    }


@receiver(privacy.erasing, dispatch_uid="kudos-erase")
def kudos_erase(sender, user, old_name, **kwargs):
    """The ledger stays whole and unchanged (append-only, enforced by the database: every
    entry, so balances add up); the person's name leaves the frozen weekly boards."""
    services.hold(user.pk)  # wait for any payment in flight
    WeekPlace.objects.filter(user=user).update(name="")
    Look.objects.filter(user=user).delete()
