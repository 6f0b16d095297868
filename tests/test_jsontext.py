"""The site's JSON text (infra/jsontext.py) reads back as json's does, for every game's
states, views and legal actions met in play, and for the sentences a view carries."""

from __future__ import annotations

import json

import pytest

from gameplay.engine import registry
from infra import jsontext


def positions(kind: str, moves: int = 200):
    """(engine, state, players) at each position of a game between computer players."""
    engine = registry.get(kind)
    players = max(engine.min_players, min(2, engine.max_players))
    state = engine.new_game(players, f"jsontext-{kind}")
    for _ in range(moves):
        yield engine, state, players
        if engine.is_over(state):
            return
        seat = engine.to_act(state)[0]
        engine.apply(state, seat, engine.bot_action(state, seat))


@pytest.mark.parametrize("kind", registry.kinds())
def test_every_state_and_view_reads_back_as_json_reads_it(kind):
    seen = 0
    for engine, state, players in positions(kind):
        views = [engine.view(state, seat) for seat in [*range(players), None]]
        legal = [engine.legal_actions(state, seat) for seat in engine.to_act(state)]
        for value in [state, *views, *legal]:
            text = jsontext.dumps(value)
            assert jsontext.loads(text) == json.loads(json.dumps(value))
            assert json.loads(text) == json.loads(json.dumps(value))  # any reader's json
            seen += 1
    assert seen > 10


def test_keys_and_text_as_json_writes_them():
    value = {1: "é", "deck": ("AS", "10H"), "said": None, "odds": 0.25, "all_in": True}
    assert json.loads(jsontext.dumps(value)) == json.loads(json.dumps(value))
    assert isinstance(jsontext.dumps(value), str)
