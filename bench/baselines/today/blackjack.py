"""Today's Blackjack computer player, frozen as it was before the four strengths (commit
45a8780, gameplay/engine/games/blackjack/engine.py ``Blackjack.bot``): the ladder's
``--today`` row. It reads a seat's view and legal actions only.

Bets per rules.md §8 (10 with 50+ chips, else 5; cash out at 300 chips or after 100 rounds);
plays the basic strategy computed in strategy.py for these exact rules.
"""

from __future__ import annotations

import random
from typing import Any

from gameplay.engine.games.blackjack import strategy
from gameplay.engine.games.blackjack.engine import card_value, hand_total

Action = dict[str, Any]
MIN_BET = 5
BOT_CASH_OUT_CHIPS = 300
BOT_ROUNDS = 100


def choose(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    types = {a["type"] for a in legal}
    me = view["seats"][view["seat"]]
    if "cash_out" in types:
        if me["chips"] >= BOT_CASH_OUT_CHIPS or view["round"] > BOT_ROUNDS:
            return {"type": "cash_out"}
        amount = 10 if me["chips"] >= 50 else MIN_BET
        wanted = {"type": "bet", "amount": amount}
        return wanted if wanted in legal else legal[0]
    upcard = view["dealer"]["cards"][0]
    total, soft = hand_total(me["cards"])
    choice = strategy.decide(total, soft, card_value(upcard), "double" in types)
    return {"type": choice} if choice in types else legal[0]
