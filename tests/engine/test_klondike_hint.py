"""The Klondike engine's hint (the table's Hint button): legal advice told in words, from the
solver, never depending on a card the player cannot see."""

from __future__ import annotations

from gameplay.engine.games.klondike.board import hint_words
from gameplay.engine.games.klondike.engine import ENGINE

from .test_klondike import board
from .test_klondike_solver import shuffle_hidden


def test_words_name_the_move_with_face_up_cards_only():
    state = board(
        columns={
            "t1": (["QS"], ["8S"]),
            "t2": (["KD"], ["9C", "8H", "7C"]),
            "t4": ["6H"],
        },
        waste=["7H"],
        foundations={"fH": "5H"},
    )
    words = hint_words
    assert words(state, {"type": "move", "from": "waste", "card": "7H", "to": "t1"}) == (
        "Move 7♥ from the waste onto 8♠."
    )
    assert words(state, {"type": "move", "from": "t2", "card": "8H", "to": "t3"}) == (
        "Move 8♥ (with the 1 card on it) to the empty column 3."
    )
    assert words(state, {"type": "move", "from": "t4", "card": "6H", "to": "fH"}) == (
        "Move 6♥ to its foundation."
    )
    assert words(state, {"type": "auto", "card": "6H"}) == "Move 6♥ to its foundation."
    assert words(state, {"type": "draw"}) == "Draw from the stock."


def test_hint_is_legal_and_says_where_it_comes_from():
    state = ENGINE.new_game(1, "hint-words")
    hint = ENGINE.hint(state, 0, seconds=30, max_nodes=2000)
    assert hint["action"] in ENGINE.legal_actions(state, 0)
    assert hint["source"] in ("solver", "heuristic")
    if hint["source"] == "solver":
        assert "winning line" in hint["message"]
    else:
        assert "best guess" in hint["message"]


def test_hint_does_not_depend_on_face_down_cards():
    state = ENGINE.new_game(1, "hint-privacy-words")
    for _ in range(4):
        ENGINE.apply(state, 0, ENGINE.bot_action(state, 0))
    twin = shuffle_hidden(state)
    assert twin != state and ENGINE.view(twin, 0) == ENGINE.view(state, 0)
    # A node cap, not the clock, bounds the search, so the hint is a function of its input.
    assert ENGINE.hint(state, 0, seconds=60, max_nodes=1500) == ENGINE.hint(
        twin, 0, seconds=60, max_nodes=1500
    )


def test_finish_and_game_over():
    state = board(
        columns={"t1": ["KS"]},
        foundations={"fS": "QS", "fH": "KH", "fD": "KD", "fC": "KC"},
    )
    hint = ENGINE.hint(state, 0)
    assert hint["action"] == {"type": "finish"}
    assert "Finish" in hint["message"]
    ENGINE.apply(state, 0, {"type": "finish"})
    assert ENGINE.hint(state, 0) is None
