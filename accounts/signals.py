"""accounts hears of every ended game through the end-of-game hook, of every sign-in, and of
every change to an account's row."""

from django.contrib.auth.signals import user_logged_in
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from gameplay import play
from gameplay.hooks import on_game_end

from . import backends, ratings, sightings
from .models import User
from .services import record_game


def _uncounted(game) -> bool:
    return not play.counted(game)


# Only a game someone's play counts in is recorded; only a rated one moves ratings.
@on_game_end("stats", idle=_uncounted)
def count_finished_game(game):
    record_game(game)


# Alone: a game's rating holds its kind's lock until its transaction commits.
@on_game_end("ratings", idle=lambda game: not ratings.rateable(game), alone=True)
def rate_ranked_game(game):
    ratings.rate_game(game)


@receiver(user_logged_in, dispatch_uid="accounts-sighted")
def signed_in_from(sender, request, user, **kwargs):
    """Signing up signs in too: both note where from."""
    if request is not None:
        sightings.saw(request, user)


@receiver([post_save, post_delete], sender=User, dispatch_uid="accounts-row-changed")
def row_changed(sender, instance, **kwargs):
    """A signed-in player's row is read from the cache (accounts.backends): drop the copy."""
    backends.forget(instance.pk)
