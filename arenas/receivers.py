"""Arenas hear of every ended game (the end-of-game hook): an arena game is scored once the
ratings have moved (the player's new rating is what pairs them next)."""

from gameplay.hooks import on_game_end

from . import services


# An arena seats only ranked tables (lobby.ranked.seat_table): any other game is none of its.
@on_game_end("arenas", after=("ratings",), idle=lambda game: not game.ranked)
def score_arena_game(game):
    services.score_game(game)
