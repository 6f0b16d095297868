"""Gin's search (Hard's short one and Expert's): it leaves its rules' move only when the deals
say so, and a deal its CPU cap cuts short is not counted."""

from __future__ import annotations

import random

import pytest

from gameplay.engine.games.gin import search
from gameplay.engine.games.gin.engine import ENGINE as GIN

pytestmark = pytest.mark.usefixtures("uncapped")


@pytest.fixture
def uncapped(monkeypatch):
    """Every deal played whatever the machine's speed, so the choices are the same each run."""
    monkeypatch.setattr(search, "QUICK_CAP", 60.0)
    monkeypatch.setattr(search, "QUICK_GUESS_CAP", 60.0)


@pytest.fixture
def searches(monkeypatch):
    """Each search's first candidate (the rules' move), the move it chose and the legal moves."""
    seen: list[tuple] = []
    real = search.searched

    def spy(view, legal, rng, guess, opponents, first, *rest):
        chosen = real(view, legal, rng, guess, opponents, first, *rest)
        seen.append((first, chosen, legal))
        return chosen

    monkeypatch.setattr(search, "searched", spy)
    return seen


def hard_positions(seed: str, moves: int):
    """Hard's choice at every other position of a game between Medium players."""
    state = GIN.new_game(2, seed)
    for step in range(moves):
        if GIN.is_over(state):
            return
        seat = GIN.to_act(state)[0]
        if step % 2 == 0:
            GIN.bot_action(state, seat, "hard")
        GIN.apply(state, seat, GIN.bot_action(state, seat))


def test_hard_leaves_its_rules_move_when_the_deals_clearly_prefer_another(searches):
    hard_positions("departs", 40)
    departures = [(first, chosen, legal) for first, chosen, legal in searches if chosen != first]
    assert len(searches) == 20
    # The search is not the rules' move again: here once in 20 (a draw from the discard pile
    # where the rules drew from the stock), and never an illegal move.
    assert 1 <= len(departures) < len(searches) // 2
    assert all(chosen in legal for _, chosen, legal in departures)


class Clock:
    """CPU time that passes only while a hand is played out: a millisecond each."""

    def __init__(self):
        self.now = 0.0

    def process_time(self) -> float:
        return self.now


def test_a_deal_the_cap_cuts_short_is_dropped(monkeypatch):
    """The cap is looked at between play-outs, and every move is compared on the same deals:
    when the cap falls in the middle of a deal, what was played of it is not counted."""
    state = GIN.new_game(2, "cap")
    seat = GIN.to_act(state)[0]
    view, legal = GIN.view(state, seat), GIN.legal_actions(state, seat)
    assert [a["type"] for a in legal] == ["draw", "draw"]
    guess = search.Guess(view)
    opponents = guess.hands(random.Random(2), 12, 6)
    first, other = legal
    clock, played = Clock(), []

    def outcome(action, hand, opponent, stock, top):
        clock.now += 0.001
        played.append(action)
        if action == other:
            return 1
        return 100 if len(played) == 9 else 0  # the rules' move, far ahead on the cut deal

    monkeypatch.setattr(search, "time", clock)
    monkeypatch.setattr(search, "outcome", outcome)
    chosen = search.searched(view, legal, random.Random(1), guess, opponents, first, 0.0, 0.0085)
    # Two moves a deal at a millisecond each: four whole deals, then the cap after the first
    # move of the fifth (a whole fifth deal would overrun the cap), and that deal dropped.
    assert played == [first, other] * 4 + [first]
    assert chosen == other  # a point ahead on each of the four deals counted
