"""Today's Gin computer player, frozen as it was before the four strengths (commit 67e93db,
gameplay/engine/games/gin/strategy.py): the ladder's ``--today`` row. It reads a seat's view
and legal actions only.

- Draw: take the top discard when it goes straight into a meld and lowers the deadwood;
  otherwise draw from the stock.
- Discard: the card that leaves the least deadwood, counting also what the next draw can do:
  each card still unseen (not in hand, not in the discard pile, not known to be in the
  opponent's hand) is weighed by the points it would meld. A card the opponent could use
  (the rank of, or next in suit to, a card it took from the discard pile) costs extra.
- Knock: gin at 0 always; while the stock is long, knock as soon as it is legal; later only
  with little deadwood, since the opponent has had time to meld and could undercut.
"""

from __future__ import annotations

from typing import Any

from gameplay.engine import melds

Action = dict[str, Any]

OUTS_WEIGHT = 0.6  # deadwood points one expected melded point is worth
FEED_COST = 2.0  # deadwood points of handing the opponent a card it is collecting
EARLY_STOCK = 10  # knock whenever legal while the stock holds more than this
LATE_KNOCK = 5  # later, knock only with this much deadwood or less


def choose(view: dict[str, Any], legal: list[Action], rng=None) -> Action:
    you = view["you"]
    hand = melds.hand_mask(item["card"] for item in you["hand"])
    if legal[0]["type"] == "draw":
        return _draw(view, legal, hand, you["deadwood"])
    return _discard(view, legal, hand)


def _draw(view: dict[str, Any], legal: list[Action], hand: int, now: int) -> Action:
    top = view["discard_top"]
    if top is not None and {"type": "draw", "from": "discard"} in legal:
        with_top = hand | melds.CARD_BIT[top]
        # The best discard once it is taken (never the card itself: no throwing back).
        best_rest = min((with_top & ~other for other in melds.bits(hand)), key=melds.deadwood_mask)
        after = melds.deadwood_mask(best_rest)
        melded = top not in melds.arrange_mask(best_rest).deadwood
        if melded and after < now:
            return {"type": "draw", "from": "discard"}
    return {"type": "draw", "from": "stock"}


def _discard(view: dict[str, Any], legal: list[Action], hand: int) -> Action:
    opponent = 1 - view["seat"]
    collecting = melds.hand_mask(view["seats"][opponent]["took"])
    pile = view["discard_pile"] + ([view["discard_top"]] if view["discard_top"] else [])
    unseen = [
        bit
        for bit in melds.CARD_BIT.values()
        if not bit & (hand | collecting | melds.hand_mask(pile))
    ]
    knocks = {a["card"] for a in legal if a["type"] == "knock"}
    scored = []
    for action in legal:
        if action["type"] != "discard":
            continue
        card = action["card"]
        rest = hand & ~melds.CARD_BIT[card]
        points = melds.deadwood_mask(rest)
        scored.append((_worth(rest, points, unseen) + _feeds(card, collecting), points, card))
    scored.sort(key=lambda entry: (entry[0], -melds.card_points(entry[2]), entry[2]))
    _, points, card = scored[0]
    if knocks:
        knock_points, knock_card = min(
            (melds.deadwood_mask(hand & ~melds.CARD_BIT[c]), c) for c in sorted(knocks)
        )
        if knock_points == 0 or (view["stock_count"] > EARLY_STOCK or knock_points <= LATE_KNOCK):
            return {"type": "knock", "card": knock_card}
    return {"type": "discard", "card": card}


def _worth(rest: int, points: int, unseen: list[int]) -> float:
    """Deadwood, less the points the next draw is expected to meld."""
    if not unseen:
        return points
    melded = 0
    for bit in unseen:
        gain = points + melds.CARD_POINTS[bit.bit_length() - 1] - melds.deadwood_mask(rest | bit)
        melded += gain
    return points - OUTS_WEIGHT * melded / len(unseen)


def _feeds(card: str, collecting: int) -> float:
    """Extra cost of a discard the opponent is collecting: same rank, or next in suit."""
    if not collecting:
        return 0.0
    return FEED_COST if melds.neighbours(melds.BIT[card]) & collecting else 0.0
