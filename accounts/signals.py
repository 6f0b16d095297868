from django.dispatch import receiver

from gameplay.signals import game_finished

from .services import record_game


@receiver(game_finished)
def count_finished_game(sender, game, **kwargs):
    record_game(game)
