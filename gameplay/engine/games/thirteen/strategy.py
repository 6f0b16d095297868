"""The Thirteen computer player (rules.md §8), from a seat's view and legal actions only.

- Go out as soon as it is legal.
- Draw: take the top discard if it is wild, or if it goes straight into a combination and
  lowers the leftover; otherwise draw from the stock.
- Discard: the card whose removal leaves the smallest leftover, never a wild. On a tie it
  throws the card worth the most, and it avoids a card of the rank of, or next in suit to, a
  card another player took from the discard pile (that player is collecting it).
"""

from __future__ import annotations

from typing import Any

from ... import melds
from ...cards import RANKS, label
from ...core import Action
from .hands import leftover

FEED_COST = 3  # leftover points of handing a player a card it is collecting


def bot(view: dict[str, Any], legal: list[Action], rng, strength: str) -> Action:
    """The computer player at ``strength`` (core.STRENGTHS)."""
    return choose(view, legal)


def choose(view: dict[str, Any], legal: list[Action]) -> Action:
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


def describe(action: Action, view: dict[str, Any]) -> str:
    """The advice in words, for the hint."""
    if action["type"] == "draw":
        if action["from"] == "discard":
            top = view["discard_top"]
            if top[:-1] == view["wild"]:
                return f"Take the {label(top)}: it is wild this round."
            return f"Take the {label(top)}: it goes into a combination."
        return "Draw from the stock."
    card = action["card"]
    if action["type"] == "go_out":
        return f"Go out: discard the {label(card)}."
    after = next(item["after"] for item in view["you"]["hand"] if item["card"] == card)
    return f"Discard the {label(card)}: {after} points left over."
