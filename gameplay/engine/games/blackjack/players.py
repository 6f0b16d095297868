"""The Blackjack computer player at each strength, from a seat's view and legal actions.

Every strength cashes out at 300 chips or after 100 rounds (rules.md §8).

- Easy: a beginner. Bets 10 with 50+ chips, else 5; stands on 15 or more and hits below,
  doubles only a hard 10 or 11 against a dealer's 2 to 9.
- Medium: today's computer. The same bets; the basic strategy computed in strategy.py.
- Hard: counts the cards seen in the shoe (counting.py): bets by the true count and plays
  the main count indices.
- Expert: Hard's bets; every play from the exact expectations for the cards left (shoe.py).
"""

from __future__ import annotations

import random
from typing import Any

from ...core import Action
from . import strategy
from .counting import bet_for, hard_play, true_count, upcard
from .shoe import expert_play

MIN_BET = 5
CASH_OUT_CHIPS = 300
ROUNDS = 100


def bot(view: dict[str, Any], legal: list[Action], rng: random.Random, strength: str) -> Action:
    """The computer player at ``strength`` (core.STRENGTHS)."""
    types = {a["type"] for a in legal}
    me = view["seats"][view["seat"]]
    if "cash_out" in types:
        if me["chips"] >= CASH_OUT_CHIPS or view["round"] > ROUNDS:
            return {"type": "cash_out"}
        if strength in ("hard", "expert"):
            bets = [a["amount"] for a in legal if a["type"] == "bet"]
            amount = bet_for(true_count(view["cards_left"]), me["chips"], bets)
        else:
            amount = 10 if me["chips"] >= 50 else MIN_BET
        wanted = {"type": "bet", "amount": amount}
        return wanted if wanted in legal else legal[0]
    can_double = "double" in types
    if strength == "easy":
        choice = easy_play(me["total"], me["soft"], upcard(view), can_double)
    elif strength == "hard":
        choice = hard_play(view, can_double)
    elif strength == "expert":
        choice = expert_play(view, can_double)
    else:
        choice = strategy.decide(me["total"], me["soft"], upcard(view), can_double)
    return {"type": choice} if choice in types else legal[0]


def easy_play(total: int, soft: bool, up: int, can_double: bool) -> str:
    if can_double and not soft and total in (10, 11) and 2 <= up <= 9:
        return "double"
    return "stand" if total >= 15 else "hit"
