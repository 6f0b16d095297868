"""Expert Blackjack: Hard's count and bets, with each play decided by the exact expectation
of stand, hit and double for the cards left in the shoe as counted (``cards_left`` in the
view), not by a chart.

The dealer's finishing chances are computed from that composition (the hole card is one of
the cards left; under an Ace or a 10 the dealer has already peeked, so the hole card is not the
one that would have made a blackjack), drawing without replacement. The player's own draws
also come out of the composition one by one (hit, then play on at best); the dealer's chances
are those of the composition at the decision (for a double, after its one card). ``time.process_time`` caps a decision at
``CPU_CAP`` seconds; past it, Hard's play stands.
"""

from __future__ import annotations

import time
from typing import Any

from .counting import hard_play, upcard

CPU_CAP = 0.8
FINALS = 6  # dealer finishes: 17, 18, 19, 20, 21, bust


class Budget(Exception):
    pass


def dealer_finishes(cards_left: tuple[int, ...], up: int, deadline: float) -> list[float]:
    """Chances of the dealer finishing on 17, 18, 19, 20, 21 or bust, drawing from
    ``cards_left`` (index 0 = Aces .. 9 = 10-value cards), standing on every 17."""
    memo: dict[tuple, list[float]] = {}

    def finish(hard: int, ace: bool, comp: tuple[int, ...], first: bool) -> list[float]:
        total = hard + 10 if ace and hard + 10 <= 21 else hard
        out = [0.0] * FINALS
        if total > 21:
            out[5] = 1.0
            return out
        if total >= 17 and not first:
            out[total - 17] = 1.0
            return out
        key = (hard, ace, comp, first)
        if key in memo:
            return memo[key]
        if time.process_time() > deadline:
            raise Budget
        weights = list(comp)
        if first and up == 1:
            weights[9] = 0  # peeked: no ten under the Ace
        elif first and up == 10:
            weights[0] = 0
        n = sum(weights)
        if not n:  # nothing left to count from (the tray would be shuffled in): call it 17
            out[total - 17 if total >= 17 else 0] = 1.0
            return out
        for v in range(1, 11):
            count = weights[v - 1]
            if not count:
                continue
            rest = comp[: v - 1] + (comp[v - 1] - 1,) + comp[v:]
            sub = finish(hard + v, ace or v == 1, rest, False)
            p = count / n
            for i in range(FINALS):
                out[i] += p * sub[i]
        memo[key] = out
        return out

    return finish(up, up == 1, tuple(cards_left), True)


def stand_value(total: int, finishes: list[float]) -> float:
    if total > 21:
        return -1.0
    ev = finishes[5]
    for i in range(5):
        ev += finishes[i] * (1 if total > 17 + i else 0 if total == 17 + i else -1)
    return ev


def values(
    hard: int, ace: bool, cards_left: tuple[int, ...], up: int, deadline: float
) -> dict[str, float]:
    """Expected result per unit bet of standing, hitting (then playing on at best) and
    doubling, for a hand of this hard sum (Aces as 1) and whether it holds an Ace."""
    finishes = dealer_finishes(cards_left, up, deadline)
    memo: dict[tuple, float] = {}

    def total_of(h: int, a: bool) -> int:
        return h + 10 if a and h + 10 <= 21 else h

    def best(h: int, a: bool, comp: tuple[int, ...]) -> float:
        stand = stand_value(total_of(h, a), finishes)
        if total_of(h, a) >= 21:
            return stand
        return max(stand, hit(h, a, comp))

    def hit(h: int, a: bool, comp: tuple[int, ...]) -> float:
        key = (h, a, comp)
        if key in memo:
            return memo[key]
        if time.process_time() > deadline:
            raise Budget
        n = sum(comp)
        ev = 0.0
        for v in range(1, 11):
            count = comp[v - 1]
            if not count:
                continue
            rest = comp[: v - 1] + (count - 1,) + comp[v:]
            nh = h + v
            ev += count / n * (-1.0 if nh > 21 else best(nh, a or v == 1, rest))
        memo[key] = ev
        return ev

    comp = tuple(cards_left)
    n = sum(comp)
    double = 0.0
    for v in range(1, 11):
        if comp[v - 1]:
            # The double's one card leaves the shoe before the dealer draws: exact here.
            rest = comp[: v - 1] + (comp[v - 1] - 1,) + comp[v:]
            after = dealer_finishes(rest, up, deadline)
            double += comp[v - 1] / n * 2 * stand_value(total_of(hard + v, ace or v == 1), after)
    return {
        "stand": stand_value(total_of(hard, ace), finishes),
        "hit": hit(hard, ace, comp),
        "double": double,
    }


def expert_play(view: dict[str, Any], can_double: bool) -> str:
    started = time.process_time()
    me = view["seats"][view["seat"]]
    left = tuple(view["cards_left"])
    if sum(left) < 10:  # the tray is about to be shuffled in: the count says little
        return hard_play(view, can_double)
    hard = sum(_value(c) for c in me["cards"])
    ace = any(c[:-1] == "A" for c in me["cards"])
    try:
        evs = values(hard, ace, left, upcard(view), started + CPU_CAP)
    except Budget:
        return hard_play(view, can_double)
    choices = ["hit", "stand"] + (["double"] if can_double else [])
    return max(choices, key=lambda a: evs[a])


def _value(card: str) -> int:
    rank = card[:-1]
    return 1 if rank == "A" else 10 if rank in ("J", "Q", "K") else int(rank)
