"""Bot-vs-bot games through the engine contract only: for statistics and benchmarks.

``simulate(kind, games, seed, players=None)`` plays ``games`` games of ``kind`` with a bot in
every seat (``bot_action`` for each seat in ``to_act``, in seat order) and reports how they
ended. Game ``i`` uses the seed ``f"{seed}/{i}"``, so the same call gives the same games and
the same distribution; only ``seconds`` and the rates vary from run to run.
"""

from __future__ import annotations

import time
from typing import Any

from . import registry

# A bot game that has not ended after this many actions is a bug in the engine or its bot.
MAX_ACTIONS = 100_000


class GameDidNotEnd(RuntimeError):
    """A simulated game went past MAX_ACTIONS."""


def play_bot_game(kind: str, players: int, seed: str, rules: dict | None = None) -> dict:
    """One bot-vs-bot game: its result and how many actions it took."""
    engine = registry.get(kind)
    state = engine.new_game(players, seed, rules)
    actions = 0
    while not engine.is_over(state):
        to_act = engine.to_act(state)
        if not to_act:
            raise GameDidNotEnd(f"{kind} seed {seed!r}: nobody is to act but the game is not over")
        seat = to_act[0]
        engine.apply(state, seat, engine.bot_action(state, seat))
        actions += 1
        if actions > MAX_ACTIONS:
            raise GameDidNotEnd(f"{kind} seed {seed!r}: no end after {MAX_ACTIONS} actions")
    return {"actions": actions, "result": engine.result(state)}


def simulate(kind: str, games: int, seed: str, players: int | None = None) -> dict[str, Any]:
    """Play ``games`` bot-vs-bot games of ``kind`` (default rules) and summarise them.

    ``players`` defaults to the kind's min_players. Returns a JSON-able dict:
    kind, players, games, seed, actions, seconds, games_per_second, actions_per_second,
    wins (games won per seat; a shared win counts for each winner), shared (games with
    more than one winner), draws (games with no winner), first_place (games in which each
    seat was in the top ranking group), mean_scores (per seat) and max_actions (longest game).
    """
    engine = registry.get(kind)
    if players is None:
        players = engine.min_players
    if not isinstance(games, int) or isinstance(games, bool) or games < 0:
        raise ValueError("games must be a whole number, 0 or more")
    wins = [0] * players
    first_place = [0] * players
    score_sums = [0] * players
    shared = draws = actions = longest = 0
    started = time.perf_counter()
    for i in range(games):
        game = play_bot_game(kind, players, f"{seed}/{i}")
        result = game["result"]
        actions += game["actions"]
        longest = max(longest, game["actions"])
        winners = result["winners"]
        for seat in winners:
            wins[seat] += 1
        if not winners:
            draws += 1
        elif len(winners) > 1:
            shared += 1
        for seat in result["ranking"][0] if result["ranking"] else []:
            first_place[seat] += 1
        for seat, score in enumerate(result["scores"]):
            score_sums[seat] += score
    seconds = time.perf_counter() - started
    return {
        "kind": kind,
        "players": players,
        "games": games,
        "seed": seed,
        "actions": actions,
        "seconds": seconds,
        "games_per_second": games / seconds if seconds else 0.0,
        "actions_per_second": actions / seconds if seconds else 0.0,
        "wins": wins,
        "shared": shared,
        "draws": draws,
        "first_place": first_place,
        "mean_scores": [s / games if games else 0.0 for s in score_sums],
        "max_actions": longest,
    }
