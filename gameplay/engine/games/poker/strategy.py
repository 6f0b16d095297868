"""The Poker computer player at four strengths, from a seat's view and legal actions only.

Medium (rules.md §8, with pot odds) is the computer as it always was: it draws with
``best_hold`` and bets by a win chance taken from its own hand alone.

Easy plays like a beginner: it keeps pairs and better and draws to them (else its jokers and
a high card), raises once with three of a kind or better, calls small bets with a pair, folds
junk to a bet it can't see a reason to pay, and never folds when checking is free.

Hard adds memory of the hand and of the table: how many cards each opponent drew, what each
did in each betting round of this hand, and what they showed at earlier showdowns after
raising (``showdowns`` in the view: how often each seat raised after the draw and was then
shown holding a pair or less). ``Reads`` draws the opponents' hands from the cards this seat
has not seen, consistent with their draw counts, weighted by how well each explains their
bets; Hard bets by its win chance against those hands and the pot odds.
Expert (search.py) searches the same guessed hands action by action.
"""

from __future__ import annotations

import random
import time
from typing import Any

from ...cards import deck
from ...core import Action
from . import evaluator, holds

BLUFF_CHANCE = 0.05

# ---- Medium: today's computer --------------------------------------------------------------


def choose(view: dict[str, Any], legal: list[Action], rng_: random.Random) -> Action:
    """Draw with ``best_hold``; bet by hand strength (rules.md §8) and pot odds.

    Win chance against the k others still in is estimated as percentile^(2k) after the draw
    (each opponent who draws is taken to be about as good as the better of two random hands)
    and as E[percentile³]^(2k/3) before it (from ``best_hold``'s expected strength). A call
    is worth it when that chance is at least to_call / (pot + to_call).
    """
    by_type = {a["type"]: a for a in legal}
    you = view["you"]
    hand = view["hands"][view["seat"]]
    value = evaluator.evaluate_cards(hand)
    category, keys = evaluator.decode(value)
    if "draw" in by_type:
        if category <= evaluator.ONE_PAIR and rng_.random() < BLUFF_CHANCE:
            return {"type": "draw", "hold": list(hand)}  # stand pat: a bluff
        hold, _ = holds.best_hold(hand)
        return {"type": "draw", "hold": hold}

    others = sum(view["in_hand"]) - 1
    to_call = you["to_call"]
    pot = view["pot"]
    raises = view["raises"]
    can_raise = "raise" in by_type
    if view["phase"] == "bet1":
        _, expected = holds.best_hold(hand)
        chance = expected ** (2 * others / 3)
    else:
        chance = holds.percentile(value) ** (2 * others)
    odds_ok = to_call == 0 or chance >= to_call / (pot + to_call)

    def passive() -> Action:
        if "check" in by_type:
            return by_type["check"]
        return by_type["call"] if odds_ok else by_type["fold"]

    def keep_in() -> Action:
        return by_type.get("check") or by_type["call"]

    if view["phase"] == "bet1":
        if category >= evaluator.TWO_PAIR:
            return by_type["raise"] if can_raise else keep_in()
        if category == evaluator.ONE_PAIR:
            if keys[0] >= 11 and raises == 0 and can_raise:
                return by_type["raise"]
            return keep_in()
        return passive()

    bluffing = view["drawn"][view["seat"]] == 0 and category <= evaluator.ONE_PAIR
    if bluffing:
        if can_raise and raises == 0:
            return by_type["raise"]
        return passive()
    if category >= evaluator.THREE_OF_A_KIND:
        return by_type["raise"] if can_raise else keep_in()
    if category == evaluator.TWO_PAIR or (category == evaluator.ONE_PAIR and keys[0] >= 11):
        return keep_in()
    return passive()


# ---- Easy: a beginner ------------------------------------------------------------------------


def easy_hold(hand: list[str]) -> list[str]:
    """A beginner's hold: a straight or better stands pat; otherwise the cards that pair up
    (with the jokers), or else the jokers and a Jack or better."""
    category, keys = evaluator.decode(evaluator.evaluate_cards(hand))
    if category >= evaluator.STRAIGHT:
        return list(hand)
    jokers = [c for c in hand if c.startswith("JK")]
    naturals = [c for c in hand if not c.startswith("JK")]
    ranks = [evaluator.RANK_VALUES[c[:-1]] for c in naturals]
    paired = [c for c, r in zip(naturals, ranks, strict=True) if ranks.count(r) >= 2]
    if paired:
        return [c for c in hand if c in paired or c in jokers]
    top = max(naturals, key=lambda c: evaluator.RANK_VALUES[c[:-1]], default=None)
    if jokers:
        return [c for c in hand if c in jokers or c == top]
    return [top] if top and evaluator.RANK_VALUES[top[:-1]] >= 11 else []


def easy(view: dict[str, Any], legal: list[Action], rng_: random.Random) -> Action:
    by_type = {a["type"]: a for a in legal}
    hand = view["hands"][view["seat"]]
    if "draw" in by_type:
        return {"type": "draw", "hold": easy_hold(hand)}
    category, _ = evaluator.decode(evaluator.evaluate_cards(hand))
    to_call = view["you"]["to_call"]
    small = view["raise_size"]  # one raise of this round
    stay = by_type.get("check") or by_type["call"]
    if category >= evaluator.THREE_OF_A_KIND and "raise" in by_type and view["raises"] == 0:
        return by_type["raise"]
    if category >= evaluator.TWO_PAIR or "check" in by_type:
        return stay
    if category == evaluator.ONE_PAIR:
        return stay if to_call <= small else by_type["fold"]
    # Junk: see a small bet before the draw (the draw may help), fold it after.
    if view["phase"] == "bet1" and to_call <= small:
        return stay
    return by_type["fold"]


# ---- Hard: the guessed hands -----------------------------------------------------------------

SAMPLES = 120  # guessed deals Hard bets on
HARD_CAP = 0.04  # seconds of CPU Hard's guesses may take
POOL = 12000  # random hands sorted by how many cards the Suggest-holds rule draws to them
PAT_BLUFF = 0.2  # a stand-pat hand is taken to be a bluff this often
RAISE_BLUFF = 0.08  # the floor of a raise's likelihood: some raises are bluffs
FULL_DECK = deck(jokers=2)

_pool: dict[int, list[tuple[str, ...]]] = {}


def _draw_pool() -> dict[int, list[tuple[str, ...]]]:
    """Random five-card hands by the number of cards the Suggest-holds rule (the usual
    player's draw) replaces: an opponent who drew three is dealt one of the hands that draw
    three. Built once, from a fixed seed, so every decision is reproducible."""
    if not _pool:
        rng_ = random.Random("poker-draw-pool")
        for _ in range(POOL):
            hand = rng_.sample(FULL_DECK, 5)
            drawn = 5 - len(holds.rule_hold(hand))
            _pool.setdefault(drawn, []).append(tuple(hand))
    return _pool


def warm_up() -> None:
    """Build the tables Hard and Expert read (the Suggest-holds strengths and the hands by
    draw count, about 0.2 s of CPU together) before the first move needs them."""
    holds.percentile(evaluator.evaluate_cards(FULL_DECK[:5]))
    _draw_pool()


def acts(view: dict[str, Any], seat: int) -> tuple[list[str], list[str]]:
    """What ``seat`` did in this hand's first and second betting rounds ("raise", "call",
    "check", "fold"), from the hand's history (a draw entry separates the rounds)."""
    history = view["history"]
    draws = [i for i, h in enumerate(history) if h["did"] == "draw"]
    first, second = [], []
    for i, h in enumerate(history):
        if h.get("seat") != seat or h["did"] == "draw":
            continue
        (first if not draws or i < draws[0] else second).append(h["did"])
    return first, second


class Reads:
    """Guessed deals for a seat: each opponent still in gets a hand drawn from the cards the
    seat has not seen, consistent with how many cards it drew (or, before the draw, will
    draw by the usual rule), weighted by how well that hand explains its bets."""

    def __init__(self, view: dict[str, Any]):
        self.view = view
        self.seat = view["seat"]
        self.hand = list(view["hands"][self.seat])
        known = set(self.hand) | set(view["you"].get("discarded") or [])
        self.unseen = [c for c in FULL_DECK if c not in known]
        self.unseen_set = set(self.unseen)
        self.opponents = [
            s for s in range(view["players"]) if s != self.seat and view["in_hand"][s]
        ]
        self.bluffs = {s: self._bluff_rate(s) for s in self.opponents}
        self.acts = {s: acts(view, s) for s in self.opponents}

    def _bluff_rate(self, seat: int) -> float:
        """How often this seat's raise after the draw is a bluff, from its earlier showdowns
        (shown a pair or less after raising), starting from RAISE_BLUFF."""
        record = (self.view.get("showdowns") or [None] * self.view["players"])[seat]
        if not record:
            return RAISE_BLUFF
        return (record["bluffed"] + 1) / (record["raised"] + 1 / RAISE_BLUFF)

    def deal(self, rng_: random.Random) -> tuple[dict[int, list[str]], list[str], float]:
        """One guessed deal: {opponent: its hand now}, the cards left (the deck's rest, in
        random order) and the deal's weight."""
        pool = _draw_pool()
        unseen = self.unseen_set
        rest = list(self.unseen)
        rng_.shuffle(rest)
        taken: set[str] = set()
        hands: dict[int, list[str]] = {}
        weight = 1.0
        drawn = self.view["drawn"]
        for s in self.opponents:
            before = None
            if drawn[s] is not None and not (drawn[s] == 0 and rng_.random() < PAT_BLUFF):
                bucket = pool.get(drawn[s], ())
                for _ in range(12 if bucket else 0):
                    candidate = bucket[rng_.randrange(len(bucket))]
                    if all(c in unseen and c not in taken for c in candidate):
                        before = list(candidate)
                        break
            if before is None:
                before = [c for c in rest if c not in taken][:5]
            taken.update(before)
            after = before  # before its draw, a hand is judged on what it holds now
            if drawn[s]:
                kept = holds.rule_hold(before)[: 5 - drawn[s]]
                fresh = [c for c in rest if c not in taken][: 5 - len(kept)]
                taken.update(fresh)
                after = kept + fresh
            hands[s] = after
            weight *= self._likelihood(s, before, after)
        return hands, [c for c in rest if c not in taken], weight

    def _likelihood(self, seat: int, before: list[str], after: list[str]) -> float:
        """How well these hands explain the seat's bets: raises come from strong hands (some
        are bluffs), calls from middling ones."""
        first, second = self.acts[seat]
        w = 1.0
        if first:
            q = holds.percentile(evaluator.evaluate_cards(before))
            for did in first:
                if did == "raise":
                    w *= RAISE_BLUFF + q**2
                elif did == "call":
                    w *= 0.3 + q
        if second:
            q = holds.percentile(evaluator.evaluate_cards(after))
            bluff = self.bluffs[seat]
            for did in second:
                if did == "raise":
                    w *= bluff + q**4
                elif did == "call":
                    w *= 0.2 + q**2
        return w


def win_share(mine: list[str], others: list[list[str]]) -> float:
    """1 for the best hand alone, 1/k for a tie of k, 0 for a loss."""
    value = evaluator.evaluate_cards(mine)
    best = max(evaluator.evaluate_cards(h) for h in others)
    if value > best:
        return 1.0
    if value < best:
        return 0.0
    return 1 / (1 + sum(evaluator.evaluate_cards(h) == value for h in others))


def showdown_hands(
    view: dict[str, Any], hands: dict[int, list[str]], rest: list[str], mine: list[str], hold
) -> tuple[list[str], dict[int, list[str]]]:
    """The hands at the showdown of one guessed deal: before this seat's draw it draws to
    ``hold`` from the top of ``rest``, and each opponent still to draw then draws by the
    usual rule from what follows."""
    if hold is None:
        return mine, hands
    mine = list(hold) + rest[: 5 - len(hold)]
    top = 5 - len(hold)
    final = {}
    for s, h in hands.items():
        if view["drawn"][s] is None:
            kept = holds.rule_hold(h)
            h = kept + rest[top : top + 5 - len(kept)]
            top += 5 - len(kept)
        final[s] = h
    return mine, final


def drawing_to(view: dict[str, Any]) -> list[str] | None:
    """The hold this seat draws to, while its draw is still to come (else None)."""
    if view["drawn"][view["seat"]] is not None:
        return None
    return holds.best_hold(view["hands"][view["seat"]])[0]


def equity(view: dict[str, Any], rng_: random.Random, samples: int, cap: float) -> float:
    """This seat's weighted win share over guessed deals."""
    started = time.process_time()
    reads = Reads(view)
    hold = drawing_to(view)
    won = total = 0.0
    for _ in range(samples):
        hands, rest, weight = reads.deal(rng_)
        mine, final = showdown_hands(view, hands, rest, reads.hand, hold)
        won += weight * win_share(mine, list(final.values()))
        total += weight
        if time.process_time() - started > cap:
            break
    return won / total if total else 0.5


RAISE_AT = 0.62  # win share heads-up from which Hard raises for value (more opponents: less)


def hard(view: dict[str, Any], legal: list[Action], rng_: random.Random) -> Action:
    by_type = {a["type"]: a for a in legal}
    hand = view["hands"][view["seat"]]
    if "draw" in by_type:
        hold, _ = holds.best_hold(hand)
        return {"type": "draw", "hold": hold}
    return by_rule(view, by_type, equity(view, rng_, SAMPLES, HARD_CAP))


def by_rule(view: dict[str, Any], by_type: dict[str, Action], chance: float) -> Action:
    """Bet by the win share ``chance``: raise from RAISE_AT heads-up (less with more
    opponents, more after each raise), call when it meets the pot odds, else check or fold."""
    to_call = view["you"]["to_call"]
    others = sum(view["in_hand"]) - 1
    raise_at = RAISE_AT ** (1 + 0.5 * (others - 1))
    if "raise" in by_type and chance >= raise_at + 0.08 * view["raises"]:
        return by_type["raise"]
    if "check" in by_type:
        return by_type["check"]
    return by_type["call"] if chance >= to_call / (view["pot"] + to_call) else by_type["fold"]
