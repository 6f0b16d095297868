"""accounts hears of every ended game through the end-of-game hook."""

from gameplay.hooks import on_game_end

from . import ratings
from .services import record_game


@on_game_end("stats")
def count_finished_game(game):
    record_game(game)


@on_game_end("ratings")
def rate_ranked_game(game):
    ratings.rate_game(game)
