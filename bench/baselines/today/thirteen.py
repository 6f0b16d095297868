"""Today's Thirteen computer player, frozen as it was before the four strengths (commit
45a8780, gameplay/engine/games/thirteen/strategy.py): the ladder's ``--today`` row. It reads
a seat's view and legal actions only (rules.md §8).
"""

from __future__ import annotations

from typing import Any

from gameplay.engine import melds
from gameplay.engine.cards import RANKS
from gameplay.engine.games.thirteen.hands import leftover

Action = dict[str, Any]

FEED_COST = 3  # leftover points of handing a player a card it is collecting


def choose(view: dict[str, Any], legal: list[Action], rng=None) -> Action:
    wild = RANKS.index(view["wild"]) + 1
    you = view["you"]
    hand = melds.hand_mask(item["card"] for item in you["hand"])
    if legal[0]["type"] == "draw":
        top = view["discard_top"]
        if top is not None and {"type": "draw", "from": "discard"} in legal:
            bit = melds.CARD_BIT[top]
            if melds.BIT[top] % 13 == wild - 1:
                return {"type": "draw", "from": "discard"}
            with_top = hand | bit
            rest = min((with_top & ~b for b in melds.bits(hand)), key=lambda m: leftover(m, wild))
            if leftover(rest, wild) < you["leftover"] and top not in _left_over(rest, wild):
                return {"type": "draw", "from": "discard"}
        return {"type": "draw", "from": "stock"}
    going_out = [a for a in legal if a["type"] == "go_out"]
    if going_out:
        return going_out[0]
    collecting = 0
    for s, seat in enumerate(view["seats"]):
        if s != view["seat"]:
            collecting |= melds.hand_mask(seat["took"])
    options = []
    for action in legal:
        card = action["card"]
        bit = melds.BIT[card]
        is_wild = bit % 13 == wild - 1
        rest = leftover(hand & ~melds.CARD_BIT[card], wild)
        options.append((is_wild, rest + _feeds(bit, collecting), -melds.CARD_POINTS[bit], card))
    return {"type": "discard", "card": min(options)[3]}


def _left_over(mask: int, wild: int) -> tuple[str, ...]:
    return melds.arrange_mask(mask, wild).deadwood


def _feeds(bit: int, collecting: int) -> int:
    if not collecting:
        return 0
    return FEED_COST if melds.neighbours(bit) & collecting else 0
