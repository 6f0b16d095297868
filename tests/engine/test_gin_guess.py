"""Hard's and Expert's guess at the Gin opponent's hidden cards (strategy.Guess): read from the
seat's view only, made of cards the seat can't see, and leaning on what the opponent did."""

from __future__ import annotations

import random

from gameplay.engine import melds
from gameplay.engine.games.gin import strategy
from gameplay.engine.games.gin.engine import ENGINE as GIN

from .test_strengths_rummy_shedding import hidden_shuffled


def positions(count: int):
    """(state, seat) where the seat is about to discard, late enough that its opponent has
    taken, passed on and thrown cards (medium players)."""
    for i in range(count):
        state = GIN.new_game(2, f"guess-{i}")
        while state["hand_no"] == 1 and not state["over"]:
            seat = GIN.to_act(state)[0]
            if state["step"] == "discard" and len(state["moves"][1 - seat]) >= 4:
                yield state, seat
                break
            GIN.apply(state, seat, GIN.bot_action(state, seat))


def test_the_guess_is_the_same_whatever_is_hidden_and_uses_only_unseen_cards():
    rng = random.Random(3)
    for state, seat in positions(8):
        view = GIN.view(state, seat)
        other = hidden_shuffled(GIN, state, seat, rng)
        assert GIN.view(other, seat) == view
        guess = strategy.Guess(view)
        hands = guess.hands(random.Random(1), 60, 30, cap=60.0)
        assert hands == strategy.Guess(GIN.view(other, seat)).hands(
            random.Random(1), 60, 30, cap=60.0
        )
        seen = guess.hand | guess.dead
        for hand in hands:
            assert hand & guess.known == guess.known  # it holds what it took
            assert not hand & seen
            assert hand.bit_count() == len(state["hands"][1 - seat])


def test_cards_next_to_what_the_opponent_shunned_are_guessed_less_often():
    """A card the opponent passed on or threw says it had no use for the cards that meld with
    it: those are guessed in its hand far less often than the other unseen cards (under 0.3
    times as often; without leaning on what was shunned, 0.40 times)."""
    near_shunned = other = near_count = other_count = 0
    for state, seat in positions(12):
        guess = strategy.Guess(GIN.view(state, seat))
        shunned = 0
        for _, passed, threw in guess.moves:
            shunned |= passed | threw
        hands = guess.hands(random.Random(2), 200, 200, cap=60.0)
        for bit in guess.unseen:
            share = sum(1 for h in hands if h & bit) / len(hands)
            if melds.neighbours(bit.bit_length() - 1) & ~bit & shunned:
                near_shunned += share
                near_count += 1
            else:
                other += share
                other_count += 1
    assert near_shunned / near_count < 0.3 * (other / other_count)
