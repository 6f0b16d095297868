"""The Thirteen computer player at four strengths, from a seat's view and legal actions only.

Medium (rules.md §8) is the computer as it always was:

- Go out as soon as it is legal.
- Draw: take the top discard if it is wild, or if it goes straight into a combination and
  lowers the leftover; otherwise draw from the stock.
- Discard: the card whose removal leaves the smallest leftover, never a wild. On a tie it
  throws the card worth the most, and it avoids a card of the rank of, or next in suit to, a
  card another player took from the discard pile (that player is collecting it).

Easy plays like a beginner: it goes out when it can, takes the top discard only when it is
wild or completes a combination at once, and throws the card worth the most among those left
over (now and then another of them), never a wild card or a card of a combination while it
has a card left over.

Hard adds memory of the round: the whole discard pile, the cards each seat took from it and
the seats' latest turns are on the table, so it knows which cards can still come from the
stock. It weighs each discard by the leftover it leaves and what the next stock card is
expected to do for it (``outs``: over the cards not yet seen, the least leftover after
drawing one and discarding the worst), and draws from the discard pile only when that beats
the stock's expectation. Expert (search.py) plays the next lap of the table out on sampled
hands.
"""

from __future__ import annotations

import random
from typing import Any

from ... import melds
from ...cards import RANKS, label
from ...core import Action
from ...text import say
from .hands import leftover

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


# ---- Easy: a beginner ------------------------------------------------------------------------

EASY_SLIP = 0.3  # how often Easy throws another of its leftover cards than the costliest


def easy(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    wild = RANKS.index(view["wild"]) + 1
    you = view["you"]
    hand = melds.hand_mask(item["card"] for item in you["hand"])
    if legal[0]["type"] == "draw":
        top = view["discard_top"]
        if top is not None and {"type": "draw", "from": "discard"} in legal:
            if melds.BIT[top] % 13 == wild - 1:
                return {"type": "draw", "from": "discard"}
            before = len(melds.arrange_mask(hand, wild).deadwood)
            after = melds.arrange_mask(hand | melds.CARD_BIT[top], wild)
            if top not in after.deadwood and len(after.deadwood) < before:
                return {"type": "draw", "from": "discard"}
        return {"type": "draw", "from": "stock"}
    going_out = [a for a in legal if a["type"] == "go_out"]
    if going_out:
        return going_out[0]
    throwable = {a["card"] for a in legal}
    left = [c for c in melds.arrange_mask(hand, wild).deadwood if c in throwable]
    left = [c for c in left if melds.BIT[c] % 13 != wild - 1] or left
    if not left:
        return choose(view, legal)
    left.sort(key=lambda c: -melds.card_points(c, wild))
    if len(left) > 1 and rng.random() < EASY_SLIP:
        return {"type": "discard", "card": rng.choice(left[1:])}
    return {"type": "discard", "card": left[0]}


# ---- Hard: memory of the round ---------------------------------------------------------------

OUTS_WEIGHT = 0.5  # leftover points one expected point of improvement is worth


def unseen(view: dict[str, Any]) -> int:
    """The cards this seat can't place: not in its hand, not on the discard pile, not taken
    by another seat (a mask). The stock and the others' face-down cards are among them."""
    seen = melds.hand_mask(item["card"] for item in view["you"]["hand"])
    seen |= melds.hand_mask(view["discard_pile"])
    if view["discard_top"]:
        seen |= melds.CARD_BIT[view["discard_top"]]
    for seat in view["seats"]:
        seen |= melds.hand_mask(seat["took"])
    return ((1 << 52) - 1) & ~seen


def best_after_draw(mask: int, wild: int) -> int:
    """The least leftover of an 8-card hand once one card is discarded."""
    return min(leftover(mask & ~b, wild) for b in melds.bits(mask))


def _reach(i: int) -> int:
    """The cards that can share a combination with card ``i`` (a bit index) unless two wilds
    join them: its rank in the other suits, and the two cards either side of it in its suit."""
    rank, suit = i % 13, i // 13
    near = melds.RANK_BITS[rank]
    for step in (-2, -1, 1, 2):
        if 0 <= rank + step < 13:
            near |= 1 << (13 * suit + rank + step)
    return near & ~(1 << i)


REACH = [_reach(i) for i in range(52)]


def stock_expectation(mask: int, pool: list[int], wild: int) -> float:
    """The expected least leftover after drawing one of ``pool`` (each as likely) to the
    7-card ``mask`` and discarding the worst card.

    Drawing a card and throwing it back leaves ``leftover(mask)``; throwing a card ``c`` of
    the hand instead leaves the leftover of the hand without ``c`` and with the new card.
    A new card that is not wild and has no card of the hand without ``c`` within reach
    (``REACH``), beside at most one wild, can join no combination: it is left over, its
    points on top of that hand's own leftover, with no search. Most cards of the stock are
    that far from some of the hand, so most of the work is the eight hands without one card.
    """
    keep = leftover(mask, wild)
    rests = [mask & ~c for c in melds.bits(mask)]
    if not pool or not rests:
        return float(keep)
    wilds = melds.RANK_BITS[wild - 1]
    alone = [leftover(rest, wild) for rest in rests]
    lone_wild = [(rest & wilds).bit_count() <= 1 for rest in rests]
    least_alone = min(alone)
    total = 0
    for card in pool:
        i = card.bit_length() - 1
        reach, points = REACH[i], melds.CARD_POINTS[i]
        if card & wilds:
            reach, points = -1, 0  # a wild card can join anything
        elif not reach & mask and (mask & wilds).bit_count() <= 1:
            total += min(keep, least_alone + points)
            continue
        best = keep
        for k, rest in enumerate(rests):
            if lone_wild[k] and not reach & rest:
                left = alone[k] + points
            else:
                left = leftover(rest | card, wild)
            if left < best:
                best = left
                if not best:
                    break  # nothing left over: nothing does better
        total += best
    return total / len(pool)


def hard(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    wild = RANKS.index(view["wild"]) + 1
    you = view["you"]
    hand = melds.hand_mask(item["card"] for item in you["hand"])
    pool = melds.bits(unseen(view))
    if legal[0]["type"] == "draw":
        top = view["discard_top"]
        if top is not None and {"type": "draw", "from": "discard"} in legal:
            bit = melds.CARD_BIT[top]
            if melds.BIT[top] % 13 == wild - 1:
                return {"type": "draw", "from": "discard"}
            with_top = min(leftover((hand | bit) & ~b, wild) for b in melds.bits(hand))
            # The stock's expectation is at most the hand's leftover now (the drawn card can
            # go back): a top card that does no better than that never beats it.
            if with_top < leftover(hand, wild) and with_top < stock_expectation(hand, pool, wild):
                return {"type": "draw", "from": "discard"}
        return {"type": "draw", "from": "stock"}
    going_out = [a for a in legal if a["type"] == "go_out"]
    if going_out:
        return going_out[0]
    return {"type": "discard", "card": ranked_discards(view, legal, hand, pool, wild, 1)[0][1]}


def ranked_discards(
    view: dict[str, Any],
    legal: list[Action],
    hand: int,
    pool: list[int],
    wild: int,
    keep: int | None = None,
) -> list[tuple[float, str]]:
    """Each legal discard with its cost (leftover now, less what the next stock card is
    expected to do for the rest, plus the cost of feeding a collector), cheapest first.

    With ``keep``, only the cheapest ``keep``. The stock can do no more for the rest than
    leave nothing over, so a discard costs at least its leftover now less OUTS_WEIGHT of all
    of it: a discard whose least cost is above the keep-th cost already weighed is not
    weighed against the stock at all (it could not be among the cheapest)."""
    collecting = 0
    for s, seat in enumerate(view["seats"]):
        if s != view["seat"]:
            collecting |= melds.hand_mask(seat["took"])
    options = []
    for order, action in enumerate(legal):
        card = action["card"]
        bit = melds.BIT[card]
        rest = hand & ~melds.CARD_BIT[card]
        now = leftover(rest, wild)
        extra = _feeds(bit, collecting) + (melds.WILD_POINTS if bit % 13 == wild - 1 else 0)
        options.append((now - OUTS_WEIGHT * now + extra, order, card, bit, rest, now))
    options.sort()
    ranked: list[tuple[float, int, str]] = []
    costs: list[float] = []
    for least, order, card, bit, rest, now in options:
        if keep and len(costs) >= keep and least > sorted(costs)[keep - 1]:
            break  # and so is every option after it, in this order
        gain = now - stock_expectation(rest, pool, wild)
        cost = now - OUTS_WEIGHT * gain + _feeds(bit, collecting)
        if bit % 13 == wild - 1:
            cost += melds.WILD_POINTS
        ranked.append((cost, order, card))
        costs.append(cost)
    # Ties: the card worth more first, then the order of ``legal``.
    ranked.sort(key=lambda x: (x[0], -melds.CARD_POINTS[melds.BIT[x[2]]], x[1]))
    return [(cost, card) for cost, _, card in ranked[: keep or len(ranked)]]


def describe(action: Action, view: dict[str, Any]) -> str:
    """The advice in words, for the hint."""
    if action["type"] == "draw":
        if action["from"] == "discard":
            top = view["discard_top"]
            if top[:-1] == view["wild"]:
                return say("Take the {card}: it is wild this round.", card=label(top))
            return say("Take the {card}: it goes into a combination.", card=label(top))
        return say("Draw from the stock.")
    card = action["card"]
    if action["type"] == "go_out":
        return say("Go out: discard the {card}.", card=label(card))
    after = next(item["after"] for item in view["you"]["hand"] if item["card"] == card)
    return say("Discard the {card}: {after} points left over.", card=label(card), after=after)
