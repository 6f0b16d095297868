"""Arenas hear of every ended game (the end-of-game hook): an arena game is scored once the
ratings have moved (the player's new rating is what pairs them next)."""

from gameplay.hooks import on_game_end

from . import services


@on_game_end("arenas", after=("ratings",))
def score_arena_game(game):
    services.score_game(game)
