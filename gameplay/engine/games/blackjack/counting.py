"""Hard Blackjack: basic strategy (strategy.py) with a count of the cards seen in the shoe.

Every card dealt since the last shuffle was shown face up, so the table knows what is left
in the shoe; the view carries it as ``cards_left`` (per card value, A first, the hole card
counted as left while it is face down). From it, the Hi-Lo running count (2–6 count +1, 7–9
count 0, 10s and Aces −1, over the cards gone) and the true count (the running count per deck
left) drive:

- the bet: the table minimum at a true count below 2, then 10, 25 and 50 from true counts 2,
  3 and 4, never more than a quarter of the chips (so a run of losses can't take them all);
- the play: the main count indices (the "Illustrious 18" that apply without splits,
  insurance or surrender) where they differ from basic strategy.
"""

from __future__ import annotations

from typing import Any

from . import strategy

HI_LO = {1: -1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 0, 8: 0, 9: 0, 10: -1}
BET_BY_COUNT = ((4, 50), (3, 25), (2, 10))  # (true count at least, bet), highest first
BANKROLL_SHARE = 4  # a bet is at most the chips over this

# (hard total, dealer upcard value, action, true count at which it applies, True: at or
# above it, False: at or below it). Upcard 1 is an Ace.
INDICES = (
    (16, 10, "stand", 0, True),
    (15, 10, "stand", 4, True),
    (10, 10, "double", 4, True),
    (12, 3, "stand", 2, True),
    (12, 2, "stand", 3, True),
    (11, 1, "double", 1, True),
    (9, 2, "double", 1, True),
    (10, 1, "double", 4, True),
    (9, 7, "double", 3, True),
    (16, 9, "stand", 5, True),
    (13, 2, "hit", -1, False),
    (12, 4, "hit", -1, False),
    (12, 5, "hit", -2, False),
    (12, 6, "hit", -1, False),
    (13, 3, "hit", -2, False),
)


def true_count(cards_left: list[int]) -> float:
    """Hi-Lo running count of the cards gone, per deck still in the shoe."""
    left = sum(cards_left)
    if not left:
        return 0.0
    running = -sum(HI_LO[v] * n for v, n in enumerate(cards_left, start=1))
    return running / (left / 52)


def bet_for(count: float, chips: int, bets: list[int]) -> int:
    wanted = next((bet for at, bet in BET_BY_COUNT if count >= at), bets[0])
    affordable = [b for b in bets if b <= max(chips // BANKROLL_SHARE, bets[0])]
    return max((b for b in affordable if b <= wanted), default=bets[0])


def play(total: int, soft: bool, up: int, can_double: bool, count: float) -> str:
    """Basic strategy, or the count's index play where the count has reached it."""
    basic = strategy.decide(total, soft, up, can_double)
    if soft or total >= 21:
        return basic
    for hard_total, upcard, action, at, above in INDICES:
        if hard_total != total or upcard != up:
            continue
        if action == "double" and not can_double:
            continue
        if (count >= at) if above else (count <= at):
            return action
        if action == "double" and basic == "double":
            return strategy.decide(total, soft, up, False)  # the count says: don't double
    return basic


def upcard(view: dict[str, Any]) -> int:
    """The dealer's upcard as a value: 1 for an Ace, 10 for a 10, J, Q or K."""
    rank = view["dealer"]["cards"][0][:-1]
    return 1 if rank == "A" else 10 if rank in ("J", "Q", "K") else int(rank)


def hard_play(view: dict[str, Any], can_double: bool) -> str:
    me = view["seats"][view["seat"]]
    count = true_count(view["cards_left"])
    return play(me["total"], me["soft"], upcard(view), can_double, count)
