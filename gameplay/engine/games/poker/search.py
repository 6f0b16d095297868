"""Expert Poker: a determinized search over Hard's guessed hands.

``DEALS`` guessed deals (``strategy.Reads``: the opponents' hands drawn from the unseen cards,
consistent with their draw counts, weighted by their bets and by their earlier showdowns) are
shared by every candidate action (common random numbers keep the differences sharp).

- The draw: ``best_hold`` and the next best holds by expected strength are each drawn to on
  every deal; the hold that wins the most (weighted) showdowns is kept.
- A betting round: Hard's rule (raise from a win share, call by the pot odds) on the
  search's deals, whose win share also counts the draw still to come; and a raise's
  expected chips from now on, each guessed opponent answering it by the usual player's rule
  (call when its own hand's chance meets the pot odds, else fold), so a raise can take the
  pot at once (fold equity) or be paid by weaker hands. Where Hard's rule would check or
  call, the raise replaces it when it is worth clearly more (``RAISE_MARGIN``): re-raises
  are not searched, and an earlier version that took every raise the search preferred lost
  to Hard (41.7 ± 12.6% of 60 games).
- A snow: heads-up, once the other seat has drawn three cards or more (its hand is then mostly
  weak), a junk hand stands pat and bets after the draw, folding to a raise. A pat hand reads
  as made (Hard takes it for a bluff one time in five), so a weak hand that would call junk
  gives the pot up. A seat that calls it down shows the bluff (``showdowns``): caught twice in
  a game, this seat snows no more.

``time.process_time`` caps a move at ``CPU_CAP`` seconds of CPU.
"""

from __future__ import annotations

import random
import time
from typing import Any

from ...core import Action
from . import evaluator, holds
from .strategy import Reads, by_rule, hard, showdown_hands, win_share

DEALS = 300  # guessed deals a decision is searched on
HOLDS = 3  # holds searched at the draw: the best few by expected strength
CPU_CAP = 0.8  # seconds of CPU a move may take, whatever DEALS says
SNOW_DREW = 3  # a snow only after the other seat drew at least this many cards
SNOW_JUNK = 0.6  # ... with a hand under this percentile (high card or a low pair)
SNOW_CAUGHT = 2  # ... and fewer bluffs than this shown down this game
RAISE_MARGIN = 0.5  # a raise off Hard's rule must gain this share of its cost (re-raises
# are not searched, so a close raise is no raise)


def expert(view: dict[str, Any], legal: list[Action], rng_: random.Random) -> Action:
    started = time.process_time()
    by_type = {a["type"]: a for a in legal}
    reads = Reads(view)
    hand = reads.hand
    if snow(reads):
        if "draw" in by_type:
            return {"type": "draw", "hold": list(hand)}
        if view["drawn"][view["seat"]] == 0:  # snowed: bet it, and give up to a raise
            if "raise" in by_type and not view["raises"]:
                return by_type["raise"]
            return by_type.get("check") or by_type["fold"]
    if "draw" in by_type:
        ranked = sorted(holds.hold_values(hand), key=lambda mv: -mv[1])[:HOLDS]
        candidates = [[c for i, c in enumerate(hand) if mask >> i & 1] for mask, _ in ranked]
        best, _ = holds.best_hold(hand)
        candidates = [best] + [h for h in candidates if h != best]
        if len(candidates) == 1:
            return {"type": "draw", "hold": best}
        scores = [0.0] * len(candidates)
        for _ in range(DEALS):
            hands, rest, weight = reads.deal(rng_)
            for i, hold in enumerate(candidates):
                mine, final = showdown_hands(view, hands, rest, hand, hold)
                scores[i] += weight * win_share(mine, list(final.values()))
            if time.process_time() - started > CPU_CAP:
                break
        pick = max(range(len(candidates)), key=lambda i: (scores[i], -i))
        return {"type": "draw", "hold": candidates[pick]}

    if len(legal) == 1:
        return legal[0]
    hold = None if view["drawn"][view["seat"]] is not None else holds.best_hold(hand)[0]
    pot, to_call = view["pot"], view["you"]["to_call"]
    raise_cost = view["you"]["raise_cost"]
    level = view["you"]["raise_to"]
    check_or_call = 0.0
    raised = 0.0
    total = 0.0
    for _ in range(DEALS):
        hands, rest, weight = reads.deal(rng_)
        mine, final = showdown_hands(view, hands, rest, hand, hold)
        share = win_share(mine, list(final.values()))
        check_or_call += weight * (share * (pot + to_call) - to_call)
        if "raise" in by_type:
            raised += weight * raise_value(view, hands, final, mine, pot, raise_cost, level)
        total += weight
        if time.process_time() - started > CPU_CAP:
            break
    if not total:
        return hard(view, legal, rng_)
    # Hard's rule on the search's (larger, shared) sample of deals ...
    share = (check_or_call / total + to_call) / (pot + to_call)
    action = by_rule(view, by_type, share)
    # ... unless the search finds a raise worth clearly more than checking or calling.
    if "raise" in by_type and action["type"] != "raise":
        stay = check_or_call / total
        if raised / total > max(stay, 0.0) + RAISE_MARGIN * raise_cost:
            return by_type["raise"]
    return action


def snow(reads: Reads) -> bool:
    """Is this a hand to snow with (stand pat on, then bet)? Heads-up, after the other seat
    drew ``SNOW_DREW`` cards or more, a hand under ``SNOW_JUNK``, not caught too often yet."""
    view = reads.view
    if len(reads.opponents) != 1 or (view["drawn"][reads.opponents[0]] or 0) < SNOW_DREW:
        return False
    if view["showdowns"][reads.seat]["bluffed"] >= SNOW_CAUGHT:
        return False
    return holds.percentile(evaluator.evaluate_cards(reads.hand)) < SNOW_JUNK


def raise_value(
    view: dict[str, Any],
    now: dict[int, list[str]],
    final: dict[int, list[str]],
    mine: list[str],
    pot: int,
    cost: int,
    level: int,
) -> float:
    """Chips from now on of raising to ``level`` on one guessed deal, the opponents answering
    by the usual rule (call when their own hand's chance meets the pot odds)."""
    paid = view["paid"]
    others = len(now)
    callers = []
    grown = pot + cost
    for s, h in now.items():
        owed = level - paid[s]
        q = holds.percentile(evaluator.evaluate_cards(h))
        chance = q ** (2 * others) if view["phase"] == "bet2" else q ** (2 * others / 3)
        if chance >= owed / (grown + owed):
            callers.append(s)
            grown += owed
    if not callers:
        return float(pot)
    return win_share(mine, [final[s] for s in callers]) * grown - cost
