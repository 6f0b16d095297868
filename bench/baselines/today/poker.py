"""Today's Poker computer player, frozen as it was before the four strengths (commit 45a8780,
gameplay/engine/games/poker/engine.py ``bot_choice``): the ladder's ``--today`` row. It reads
a seat's view and legal actions only.
"""

from __future__ import annotations

import random
from typing import Any

from gameplay.engine.games.poker import evaluator, holds

Action = dict[str, Any]

BLUFF_CHANCE = 0.05


def choose(view: dict[str, Any], legal: list[Action], rng_: random.Random) -> Action:
    """Draw with ``best_hold``; bet by hand strength (rules.md §8) and pot odds.

    Win chance against the k others still in is estimated as percentile^(2k) after the draw
    (each opponent who draws is taken to be about as good as the better of two random hands)
    and as E[percentile³]^(2k/3) before it (from ``best_hold``'s expected strength). A call
    is worth it when that chance is at least to_call / (pot + to_call).
    """
    by_type = {a["type"]: a for a in legal}
    you = view["you"]
    hand = view["hands"][view["seat"]]
    value = evaluator.evaluate_cards(hand)
    category, keys = evaluator.decode(value)
    if "draw" in by_type:
        if category <= evaluator.ONE_PAIR and rng_.random() < BLUFF_CHANCE:
            return {"type": "draw", "hold": list(hand)}  # stand pat: a bluff
        hold, _ = holds.best_hold(hand)
        return {"type": "draw", "hold": hold}

    others = sum(view["in_hand"]) - 1
    to_call = you["to_call"]
    pot = view["pot"]
    raises = view["raises"]
    can_raise = "raise" in by_type
    if view["phase"] == "bet1":
        _, expected = holds.best_hold(hand)
        chance = expected ** (2 * others / 3)
    else:
        chance = holds.percentile(value) ** (2 * others)
    odds_ok = to_call == 0 or chance >= to_call / (pot + to_call)

    def passive() -> Action:
        if "check" in by_type:
            return by_type["check"]
        return by_type["call"] if odds_ok else by_type["fold"]

    def keep_in() -> Action:
        return by_type.get("check") or by_type["call"]

    if view["phase"] == "bet1":
        if category >= evaluator.TWO_PAIR:
            return by_type["raise"] if can_raise else keep_in()
        if category == evaluator.ONE_PAIR:
            if keys[0] >= 11 and raises == 0 and can_raise:
                return by_type["raise"]
            return keep_in()
        return passive()

    bluffing = view["drawn"][view["seat"]] == 0 and category <= evaluator.ONE_PAIR
    if bluffing:
        if can_raise and raises == 0:
            return by_type["raise"]
        return passive()
    if category >= evaluator.THREE_OF_A_KIND:
        return by_type["raise"] if can_raise else keep_in()
    if category == evaluator.TWO_PAIR or (category == evaluator.ONE_PAIR and keys[0] >= 11):
        return keep_in()
    return passive()
