"""Expert Gin: a determinized search (perfect-information Monte Carlo) over Hard's guesses.

The move of Hard's rules (``strategy.hard``) and each other move worth considering (both
draws; the rules' best few discards and the best knock) are played out to the end of the
hand on the same ``DEALS`` sampled deals: an opponent hand from ``Guess`` (weighted by how well it explains the opponent's
latest turns) and the rest of the unseen cards shuffled as the stock. Both seats then play a
fast greedy rule (take a discard that melds and lowers deadwood, throw the card leaving the
least deadwood, knock as the computer always did). Sharing the deals across moves (common
random numbers) keeps their difference sharp; still, a move replaces Hard's only when it
scores more points by ``SURE`` standard errors, since a few dozen deals are noisy and the
guesses uncertain. ``time.process_time`` caps a move at ``CPU_CAP`` seconds, looked at between
play-outs.

Hard (``quick``) runs the same search on ``QUICK_DEALS`` deals from Hard's own rules' move,
within its 50 ms budget.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from ... import melds
from ...core import Action
from .strategy import (
    EARLY_STOCK,
    GUESS_POOL,
    KNOCK_LIMIT,
    LATE_KNOCK,
    Guess,
    best_knock,
    hard,
    knock_score,
    rank_discards,
    remembering,
    takes,
)

# Sampled deals each candidate move is played out on. 144 rather than 48: with three times the
# deals a smaller edge clears SURE, and Expert went from 59% to 67% of games against today's
# computer (docs/computer-players-rummy-shedding.md) at about 180 ms of CPU a move (p50).
DEALS = 144
CANDIDATES = 4  # discards searched: Hard's best few
WIDE = True  # search draws and Hard's best few discards too, not only whether to knock
# Standard errors by which a move must beat Hard's on the deals to replace it: several
# moves are compared at once, and a lower bar lets chance pick one of them.
SURE = 2.5
CPU_CAP = 0.8  # seconds of CPU a move may take, whatever DEALS says
# Hard searches too, within its 50 ms: a few deals, guessed in at most QUICK_GUESS_CAP.
QUICK_DEALS = 24
QUICK_GUESS_CAP = 0.012
QUICK_CAP = 0.032
STOCK_FLOOR = 2


def expert(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    started = time.process_time()
    guess = Guess(view)
    drawing = legal[0]["type"] == "draw"
    if drawing and len(legal) == 1:
        return legal[0]
    opponents = guess.hands(rng, max(GUESS_POOL, 3 * DEALS), DEALS)
    return searched(view, legal, rng, guess, opponents, hard(view, legal, rng), started, CPU_CAP)


def quick(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    """Hard: the same search on a few deals, its first candidate Hard's rules on the same
    guess, the whole move within ``QUICK_CAP``."""
    started = time.process_time()
    guess = Guess(view)
    if len(legal) == 1:
        return legal[0]
    opponents = guess.hands(rng, 3 * QUICK_DEALS, QUICK_DEALS, QUICK_GUESS_CAP)
    ranked = [] if legal[0]["type"] == "draw" else rank_discards(guess, legal, opponents)
    first = remembering(view, legal, guess, opponents, ranked)
    return searched(view, legal, rng, guess, opponents, first, started, QUICK_CAP, ranked)


def searched(
    view: dict[str, Any],
    legal: list[Action],
    rng: random.Random,
    guess: Guess,
    opponents: list[int],
    first: Action,
    started: float,
    cap: float,
    ranked: list[tuple] | None = None,
) -> Action:
    """``first``, or another move worth considering that the ``opponents`` deals clearly
    prefer, played out until ``cap`` seconds of CPU from ``started``. ``ranked``: the
    discards already ranked on ``opponents``, if the caller has them."""
    hand = guess.hand
    # The first move first: another replaces it only when the deals clearly prefer it.
    candidates = [first]
    if legal[0]["type"] == "draw":
        if not WIDE:
            return candidates[0]
        candidates += [a for a in legal if a != candidates[0]]
    else:
        knock = best_knock(legal, hand)
        if knock is not None and knock[0] == 0:
            return {"type": "knock", "card": knock[1]}
        if ranked is None:
            ranked = rank_discards(guess, legal, opponents)
        for _, card in ranked[: CANDIDATES if WIDE else 1]:
            candidates.append({"type": "discard", "card": card})
        if knock is not None:
            candidates.append({"type": "knock", "card": knock[1]})
        candidates = [a for i, a in enumerate(candidates) if a not in candidates[:i]]
    if len(candidates) == 1:
        return candidates[0]
    top = melds.CARD_BIT[view["discard_top"]] if view["discard_top"] else 0
    scores: list[list[int]] = [[] for _ in candidates]
    for opponent in opponents:
        stock = [bit for bit in guess.unseen if not bit & opponent]
        rng.shuffle(stock)
        deal: list[int] = []
        for action in candidates:
            if deal and time.process_time() - started > cap:
                break  # a hand can take long to play out: the cap is looked at between them
            deal.append(outcome(action, hand, opponent, stock, top))
        if len(deal) < len(candidates):
            break  # the deal is dropped: moves are compared on the same deals only
        for column, points in zip(scores, deal, strict=True):
            column.append(points)
        if time.process_time() - started > cap:
            break
    best, best_edge = 0, 0.0
    for i in range(1, len(candidates)):
        edge = clear_edge(scores[i], scores[0])
        if edge > best_edge:
            best, best_edge = i, edge
    return candidates[best]


def clear_edge(mine: list[int], base: list[int]) -> float:
    """How much better ``mine`` scored than ``base`` on the same deals, in points a deal, when
    the difference is at least ``SURE`` standard errors; else 0."""
    n = len(mine)
    if n < 2:
        return 0.0
    diffs = [a - b for a, b in zip(mine, base, strict=True)]
    mean = sum(diffs) / n
    spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    if mean <= 0 or mean < SURE * spread / math.sqrt(n):
        return 0.0
    return mean


def outcome(action: Action, hand: int, opponent: int, stock: list[int], top: int) -> int:
    """My points at the end of the hand (negative: the opponent's) after ``action``."""
    if action["type"] == "draw":
        if action["from"] == "discard":
            return after_draw(hand | top, top, opponent, stock, 0)
        return after_draw(hand | stock[0], 0, opponent, stock, 1)
    card = melds.CARD_BIT[action["card"]]
    if action["type"] == "knock":
        return knock_score(hand & ~card, opponent)
    return playout([hand & ~card, opponent], 1, stock, 0, card)


def after_draw(hand: int, taken: int, opponent: int, stock: list[int], drawn: int) -> int:
    card, knock = choose_discard(hand, taken, len(stock) - drawn)
    if knock:
        return knock_score(hand & ~card, opponent)
    return playout([hand & ~card, opponent], 1, stock, drawn, card)


def choose_discard(hand: int, taken: int, stock_left: int) -> tuple[int, bool]:
    """The greedy rule: the card leaving the least deadwood (the higher on a tie), and
    whether to knock with it (the computer's rule of rules.md §8)."""
    best = None
    for bit in melds.bits(hand & ~taken):
        key = (melds.deadwood_mask(hand & ~bit), -melds.CARD_POINTS[bit.bit_length() - 1])
        if best is None or key < best[0]:
            best = (key, bit)
    (points, _), card = best
    knock = points == 0 or (
        points <= KNOCK_LIMIT and (stock_left > EARLY_STOCK or points <= LATE_KNOCK)
    )
    return card, knock


def playout(hands: list[int], turn: int, stock: list[int], drawn: int, top: int) -> int:
    """Play the hand out from ``turn``'s draw, ``drawn`` cards of ``stock`` gone and ``top``
    on the discard pile; seat 0 is the searching seat. Its points at the end of the hand."""
    while len(stock) - drawn > STOCK_FLOOR:
        hand = hands[turn]
        taken = 0
        if top and takes(hand, top, melds.deadwood_mask(hand)):
            hand |= top
            taken = top
        else:
            hand |= stock[drawn]
            drawn += 1
        card, knock = choose_discard(hand, taken, len(stock) - drawn)
        hand &= ~card
        hands[turn] = hand
        if knock:
            points = knock_score(hand, hands[1 - turn])
            return points if turn == 0 else -points
        top = card
        turn = 1 - turn
    return 0
