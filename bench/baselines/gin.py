"""Gin's baseline: always draw from the stock; knock as soon as it is legal (with the card
that leaves the least deadwood); otherwise discard the highest card of its deadwood."""

from gameplay.engine import melds

METRIC = "games to 100 won"


def baseline(view, legal, rng):
    if legal[0]["type"] == "draw":
        return {"type": "draw", "from": "stock"}
    hand = melds.hand_mask(item["card"] for item in view["you"]["hand"])
    knocks = [a for a in legal if a["type"] == "knock"]
    if knocks:
        return min(knocks, key=lambda a: melds.deadwood_mask(hand & ~melds.CARD_BIT[a["card"]]))
    discards = [a["card"] for a in legal if a["type"] == "discard"]
    deadwood = [c for c in melds.arrange_mask(hand).deadwood if c in discards] or discards
    card = max(deadwood, key=lambda c: (melds.card_points(c), melds.BIT[c]))
    return {"type": "discard", "card": card}


def success(engine, state, seats) -> float:
    return 1.0 if engine.result(state)["winners"] == [seats[0]] else 0.0
