"""Expert Thirteen: Hard's discards searched one lap of the table ahead on sampled hands.

The cards this seat can't place (``strategy.unseen``: not in its hand, not on the discard
pile, not taken by another seat) are dealt out ``DEALS`` times: each other seat gets as many
as it holds face down (beside the cards it was seen taking), the rest is the stock in a
random order. For Hard's best few discards, on the same deals, every other seat then plays
its turn by the usual rule (take the top discard when it is wild or lowers the leftover, else
the stock; go out when it can; else throw the card that leaves the least), and this seat
plays its next draw. A discard scores the points this seat would be left with when the lap
ends (its leftover if another seat went out, 0 if it goes out itself); the lowest mean wins
when it beats Hard's choice by ``MARGIN`` points. ``time.process_time`` caps a move at
``CPU_CAP`` seconds.
"""

from __future__ import annotations

import random
import time
from typing import Any

from ... import melds
from ...cards import RANKS
from ...core import Action
from .hands import leftover
from .strategy import best_after_draw, hard, ranked_discards, unseen

DEALS = 40  # sampled deals each candidate discard is played on
CANDIDATES = 4  # Hard's best few discards
MARGIN = 0.5  # points a discard must save over Hard's on the deals to replace it
CPU_CAP = 0.8  # seconds of CPU a move may take, whatever DEALS says


def expert(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    started = time.process_time()
    if legal[0]["type"] == "draw" or any(a["type"] == "go_out" for a in legal):
        return hard(view, legal, rng)
    wild = RANKS.index(view["wild"]) + 1
    hand = melds.hand_mask(item["card"] for item in view["you"]["hand"])
    pool = melds.bits(unseen(view))
    ranked = ranked_discards(view, legal, hand, pool, wild, CANDIDATES)
    if len(ranked) == 1:
        return {"type": "discard", "card": ranked[0][1]}
    me, players = view["seat"], view["players"]
    order = [(me + i) % players for i in range(1, players)]
    known = {s: melds.hand_mask(view["seats"][s]["took"]) for s in order}
    down = {s: len(view["seats"][s]["down"]) for s in order}
    totals = [0.0] * len(ranked)
    dealt = 0
    for _ in range(DEALS):
        cards = list(pool)
        rng.shuffle(cards)
        hands = {}
        for s in order:
            hands[s] = known[s]
            for b in cards[: down[s]]:
                hands[s] |= b
            cards = cards[down[s] :]
        for i, (_, card) in enumerate(ranked):
            rest = hand & ~melds.CARD_BIT[card]
            totals[i] += lap(dict(hands), list(cards), rest, melds.CARD_BIT[card], order, wild)
        dealt += 1
        if time.process_time() - started > CPU_CAP:
            break
    means = [t / dealt for t in totals]
    pick = min(range(len(ranked)), key=lambda i: means[i])
    if means[pick] + MARGIN > means[0]:
        pick = 0
    return {"type": "discard", "card": ranked[pick][1]}


def lap(
    hands: dict[int, int], stock: list[int], mine: int, top: int, order: list[int], wild: int
) -> float:
    """The points this seat is left with after the other seats' turns and its own next draw,
    everyone playing by the usual rule."""
    for s in order:
        hand = hands[s]
        if top and (top.bit_length() - 1) % 13 == wild - 1 or _helps(hand, top, wild):
            taken, hand = top, hand | top
        elif stock:
            taken, hand = 0, hand | stock.pop()
        else:
            return leftover(mine, wild)  # the stock ran out: the lap ends here
        best = None
        for b in melds.bits(hand):
            if b == taken:
                continue
            left = leftover(hand & ~b, wild)
            if best is None or left < best[0]:
                best = (left, b)
        if best[0] == 0:
            return leftover(mine, wild)  # that seat goes out: this seat counts its cards
        hands[s] = hand & ~best[1]
        top = best[1]
    if _helps(mine, top, wild):
        return best_after_draw(mine | top, wild)
    if not stock:
        return leftover(mine, wild)
    return best_after_draw(mine | stock.pop(), wild)


def _helps(hand: int, top: int, wild: int) -> bool:
    if not top:
        return False
    return min(leftover((hand | top) & ~b, wild) for b in melds.bits(hand)) < leftover(hand, wild)
