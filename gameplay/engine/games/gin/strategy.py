"""The Gin computer player at four strengths, from a seat's view and legal actions only.

Medium (rules.md §8) is the computer as it always was:

- Draw: take the top discard when it goes straight into a meld and lowers the deadwood;
  otherwise draw from the stock.
- Discard: the card that leaves the least deadwood, counting also what the next draw can do:
  each card still unseen (not in hand, not in the discard pile, not known to be in the
  opponent's hand) is weighed by the points it would meld. A card the opponent could use
  (the rank of, or next in suit to, a card it took from the discard pile) costs extra.
- Knock: gin at 0 always; while the stock is long, knock as soon as it is legal; later only
  with little deadwood, since the opponent has had time to meld and could undercut.

Easy plays like a beginner: it takes a discard only to complete a meld, throws away its
highest deadwood card (now and then another of its deadwood cards) and knocks as soon as it
may. It never breaks a meld it has made while it holds deadwood.

Hard adds memory of the hand so far: what the opponent took, threw away and passed on
(``seats[s]`` ``took``, ``threw`` and ``passed`` in the view). From them it guesses the
opponent's hidden cards (``Guess``): hands drawn from the unseen cards, leaning towards cards
that meld with what it took and away from cards next to what it passed on or threw, then
weighted towards the low deadwood a player reaches after that many turns and away from hands
that would have kept a card thrown or taken a card passed on. It then avoids feeding the
opponent, and knocks only when the guessed hands say the knock wins on the whole
(``remembering``). It then checks that move by a short search (search.py ``quick``).

Expert (search.py) searches those guessed hands longer: for each move worth considering it
plays the hand out on sampled deals and keeps the move that scores best.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from ... import melds
from ...cards import label
from ...core import Action
from ...text import say

OUTS_WEIGHT = 0.6  # deadwood points one expected melded point is worth
FEED_COST = 2.0  # deadwood points of handing the opponent a card it is collecting
EARLY_STOCK = 10  # knock whenever legal while the stock holds more than this
LATE_KNOCK = 5  # later, knock only with this much deadwood or less
KNOCK_LIMIT = 10
GIN_BONUS = 25
UNDERCUT_BONUS = 25
FULL = (1 << 52) - 1

EASY_SLIP = 0.3  # how often a beginner throws some other deadwood card than its highest

GUESS_POOL = 120  # hands drawn from the unseen cards for each guess (Hard)
GUESS_KEEP = 40  # hands kept, by weight
GUESS_CAP = 0.03  # seconds of CPU the guessing may take (Hard's move stays within 50 ms)
HARD_FEED = 3.0  # deadwood points of a discard the opponent surely melds
RECENT = 6  # the opponent's latest turns that weigh a guess
UNLIKELY = 0.1  # a guess's weight for a take or pass it would not have made
THROW_SHARPNESS = 0.3  # weight lost per point of deadwood a throw kept over the least it could
BETA_STEP = 0.02  # how fast guessed hands lean to low deadwood, per turn the opponent took
BETA_MAX = 0.05
TOOK_LEAN = 3.0  # how much likelier a card is for each card it melds with that was taken
SHUN = 0.5  # and for each card next to it that the opponent passed on or threw
KNOCK_MARGIN = 4.0  # points a knock must be expected to win by, besides what waiting may bring
HARD_OUTS = OUTS_WEIGHT
HARD_EARLY = EARLY_STOCK
HARD_LATE = LATE_KNOCK


# ---- Medium: the computer as it always was ------------------------------------------------


def choose(view: dict[str, Any], legal: list[Action]) -> Action:
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


def takes(hand: int, top: int, now: int) -> bool:
    """Whether the card ``top`` goes straight into a meld of ``hand`` and lowers its deadwood
    ``now`` (after the best discard, which may not be ``top`` itself)."""
    with_top = hand | top
    best_rest = min((with_top & ~other for other in melds.bits(hand)), key=melds.deadwood_mask)
    after = melds.deadwood_mask(best_rest)
    if after >= now:
        return False
    # Melded: the deadwood would be higher without it than with it, less its points.
    return after < melds.deadwood_mask(best_rest & ~top) + melds.CARD_POINTS[top.bit_length() - 1]


def _discard(view: dict[str, Any], legal: list[Action], hand: int) -> Action:
    opponent = 1 - view["seat"]
    collecting = melds.hand_mask(view["seats"][opponent]["took"])
    unseen = melds.bits(FULL & ~(hand | collecting | dead_mask(view)))
    knocks = {a["card"] for a in legal if a["type"] == "knock"}
    scored = []
    for action in legal:
        if action["type"] != "discard":
            continue
        card = action["card"]
        rest = hand & ~melds.CARD_BIT[card]
        points = melds.deadwood_mask(rest)
        scored.append((worth(rest, points, unseen) + _feeds(card, collecting), points, card))
    scored.sort(key=lambda entry: (entry[0], -melds.card_points(entry[2]), entry[2]))
    _, points, card = scored[0]
    if knocks:
        knock_points, knock_card = min(
            (melds.deadwood_mask(hand & ~melds.CARD_BIT[c]), c) for c in sorted(knocks)
        )
        if knock_points == 0 or (view["stock_count"] > EARLY_STOCK or knock_points <= LATE_KNOCK):
            return {"type": "knock", "card": knock_card}
    return {"type": "discard", "card": card}


def dead_mask(view: dict[str, Any]) -> int:
    """The discard pile: cards out of play for the rest of the hand (but the top)."""
    pile = view["discard_pile"] + ([view["discard_top"]] if view["discard_top"] else [])
    return melds.hand_mask(pile)


def worth(rest: int, points: int, unseen: list[int], weight: float = OUTS_WEIGHT) -> float:
    """Deadwood, less the points the next draw is expected to meld."""
    if not unseen:
        return points
    melded = 0
    for bit in unseen:
        gain = points + melds.CARD_POINTS[bit.bit_length() - 1] - melds.deadwood_mask(rest | bit)
        melded += gain
    return points - weight * melded / len(unseen)


def _feeds(card: str, collecting: int) -> float:
    """Extra cost of a discard the opponent is collecting: same rank, or next in suit."""
    if not collecting:
        return 0.0
    return FEED_COST if melds.neighbours(melds.BIT[card]) & collecting else 0.0


# ---- Easy: a beginner -----------------------------------------------------------------------


def easy(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    you = view["you"]
    hand = melds.hand_mask(item["card"] for item in you["hand"])
    if legal[0]["type"] == "draw":
        top = view["discard_top"]
        if top is not None and {"type": "draw", "from": "discard"} in legal:
            # A beginner sees a meld being made, not what the card costs elsewhere.
            if fits(melds.BIT[top], hand):
                return {"type": "draw", "from": "discard"}
        return {"type": "draw", "from": "stock"}
    knocks = [a for a in legal if a["type"] == "knock"]
    if knocks:
        return min(knocks, key=lambda a: melds.deadwood_mask(hand & ~melds.CARD_BIT[a["card"]]))
    throwable = {a["card"] for a in legal}
    deadwood = [c for c in melds.arrange_mask(hand).deadwood if c in throwable]
    if not deadwood:  # every card melded: give up the least useful one
        return min(
            (a for a in legal), key=lambda a: melds.deadwood_mask(hand & ~melds.CARD_BIT[a["card"]])
        )
    deadwood.sort(key=lambda c: (-melds.card_points(c), melds.BIT[c]))
    card = deadwood[0]
    if len(deadwood) > 1 and rng.random() < EASY_SLIP:
        card = rng.choice(deadwood[1:])
    return {"type": "discard", "card": card}


def fits(index: int, hand: int) -> bool:
    """Whether the card at bit ``index`` makes a meld with two cards of ``hand``."""
    rank, suit = index % 13, index // 13
    if (hand & melds.RANK_BITS[rank] & ~(1 << index)).bit_count() >= 2:
        return True
    row = hand >> (13 * suit) & melds.SUIT_SLICE
    below = rank >= 1 and row >> (rank - 1) & 1
    above = rank <= 11 and row >> (rank + 1) & 1
    return bool(
        (below and (above or (rank >= 2 and row >> (rank - 2) & 1)))
        or (above and rank <= 10 and row >> (rank + 2) & 1)
    )


# ---- Hard: memory of the hand, and a guess at the opponent's cards -------------------------


class Guess:
    """What the seat knows of the hand, and weighted guesses at the opponent's hidden cards.

    ``hands`` are opponent hands (masks): the cards it is known to hold plus cards drawn
    from the unseen ones by their ``lean``, kept by ``weight``: how likely that hand makes
    the opponent's latest turns (``moves`` in the view). Walking back from the guessed hand, each turn
    undoes itself: the hand before its discard is the hand after it plus the card thrown,
    and before its draw, less the card drawn (the one taken from the pile, or for a stock
    draw one picked at random). A player throws a card that leaves little deadwood, takes a
    top discard that goes into a meld and passes on one that doesn't; a hand that would
    have done otherwise is that much less likely. Hands also lean to the low deadwood
    players reach after that many turns (exp(-beta * deadwood))."""

    def __init__(self, view: dict[str, Any]):
        me = view["seat"]
        self.opponent = 1 - me
        seat = view["seats"][self.opponent]
        self.hand = melds.hand_mask(item["card"] for item in view["you"]["hand"])
        self.known = melds.hand_mask(seat["took"])
        self.dead = dead_mask(view)
        self.unseen = melds.bits(FULL & ~(self.hand | self.known | self.dead))
        self.hidden = seat["cards"] - len(seat["took"])
        bit = melds.CARD_BIT
        self.moves = [
            (bit[took] if took else 0, bit[passed] if passed else 0, bit[threw])
            for took, passed, threw in seat.get("moves", [])
            if threw
        ]
        self.taken = 0  # every card the opponent took from the pile this hand
        for took, _, _ in self.moves:
            self.taken |= took
        self.beta = BETA_STEP * len(self.moves)
        shunned = 0  # cards the opponent passed on or threw away: it had no use for them
        for _, passed, threw in self.moves:
            shunned |= passed | threw
        # How likely each unseen card is to be in the opponent's hand, before weighing turns:
        # more so next to a card it took (it took it to meld), less next to one it shunned.
        self.lean = []
        for bit in self.unseen:
            near = melds.neighbours(bit.bit_length() - 1) & ~bit
            self.lean.append(
                TOOK_LEAN ** (near & self.known).bit_count() * SHUN ** (near & shunned).bit_count()
            )

    def weight(self, opponent: int, rng: random.Random) -> float:
        deadwood = melds.deadwood_mask
        w = math.exp(-min(self.beta, BETA_MAX) * deadwood(opponent))
        after = opponent
        for took, passed, threw in reversed(self.moves[-RECENT:]):
            held = after | threw
            if after & threw:
                return 0.0  # it can't hold a card it threw (unless taken back: rare)
            least = min(deadwood(held & ~b) for b in melds.bits(held))
            w *= math.exp(-THROW_SHARPNESS * (deadwood(after) - least))
            if took:
                before = held & ~took
                if not takes(before, took, deadwood(before)):
                    w *= UNLIKELY
            else:
                choices = melds.bits(held & ~self.taken)
                before = held & ~rng.choice(choices) if choices else held
                if passed and takes(before, passed, deadwood(before)):
                    w *= UNLIKELY
            after = before
        return w

    def hands(self, rng: random.Random, pool: int, keep: int, cap: float = GUESS_CAP) -> list[int]:
        """``keep`` hands drawn by weight from ``pool`` guesses (fewer if weighing them takes
        more than ``cap`` seconds of CPU)."""
        started = time.process_time()
        count = min(self.hidden, len(self.unseen))
        drawn = []
        for _ in range(pool):
            # Drawn by lean without replacement: the ``count`` smallest of -log(u) / lean.
            keys = sorted(
                (-math.log(1.0 - rng.random()) / lean, i) for i, lean in enumerate(self.lean)
            )
            opponent = self.known
            for _, i in keys[:count]:
                opponent |= self.unseen[i]
            drawn.append(opponent)
        weights = []
        for opponent in drawn:
            weights.append(self.weight(opponent, rng))
            if time.process_time() - started > cap:
                break
        drawn = drawn[: len(weights)]
        if not any(weights):
            weights = None
        return rng.choices(drawn, weights=weights, k=keep)


def hard(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    """Hard's rules on a guess of their own: Expert's first candidate."""
    guess = Guess(view)
    drawing = legal[0]["type"] == "draw"
    if drawing:
        return remembering(view, legal, guess, [], [])
    opponents = guess.hands(rng, GUESS_POOL, GUESS_KEEP)
    return remembering(view, legal, guess, opponents, rank_discards(guess, legal, opponents))


def remembering(
    view: dict[str, Any],
    legal: list[Action],
    guess: Guess,
    opponents: list[int],
    ranked: list[tuple],
) -> Action:
    """The discard (or knock) that the guessed ``opponents`` say is best, by rule; ``ranked``
    is ``rank_discards`` on them (empty when drawing)."""
    hand = guess.hand
    if legal[0]["type"] == "draw":
        return _draw(view, legal, hand, view["you"]["deadwood"])
    knock = best_knock(legal, hand)
    if knock is not None:
        points, card = knock
        if points == 0 or view["stock_count"] > HARD_EARLY or points <= HARD_LATE:
            return {"type": "knock", "card": card}
        if knock_value(hand & ~melds.CARD_BIT[card], opponents) > KNOCK_MARGIN:
            return {"type": "knock", "card": card}
    return {"type": "discard", "card": ranked[0][1]}


def rank_discards(guess: Guess, legal: list[Action], opponents: list[int]) -> list[tuple]:
    """(cost, card) of each discard, best first: deadwood less expected outs, plus the
    chance the opponent melds the card times what that is worth to it."""
    out = []
    for action in legal:
        if action["type"] != "discard":
            continue
        card = action["card"]
        index = melds.BIT[card]
        rest = guess.hand & ~(1 << index)
        points = melds.deadwood_mask(rest)
        feeds = sum(1 for h in opponents if fits(index, h)) / max(len(opponents), 1)
        cost = worth(rest, points, guess.unseen, HARD_OUTS) + HARD_FEED * feeds
        out.append((cost, card))
    out.sort(key=lambda entry: (entry[0], -melds.card_points(entry[1]), entry[1]))
    return out


def best_knock(legal: list[Action], hand: int) -> tuple[int, str] | None:
    knocks = sorted(a["card"] for a in legal if a["type"] == "knock")
    if not knocks:
        return None
    return min((melds.deadwood_mask(hand & ~melds.CARD_BIT[c]), c) for c in knocks)


def knock_value(kept: int, opponents: list[int]) -> float:
    """The points a knock with the hand ``kept`` is expected to win against guessed hands."""
    return sum(knock_score(kept, h) for h in opponents) / max(len(opponents), 1)


def knock_score(knocker: int, defender: int) -> int:
    """The knocker's points for the hand (negative: the defender's), rules.md §6."""
    arrangement = melds.best_arrangements_mask(knocker)[0]
    if arrangement.points == 0:
        return GIN_BONUS + melds.deadwood_mask(defender)
    left = melds.lay_off_mask(defender, arrangement.melds).points
    if left <= arrangement.points:
        return -(arrangement.points - left + UNDERCUT_BONUS)
    return left - arrangement.points


def describe(action: Action, view: dict[str, Any]) -> str:
    """The advice in words, for the hint."""
    if action["type"] == "draw":
        if action["from"] == "discard":
            return say("Take the {card}: it goes into a meld.", card=label(view["discard_top"]))
        return say("Draw from the stock.")
    card = action["card"]
    after = next(item["after"] for item in view["you"]["hand"] if item["card"] == card)
    if action["type"] == "knock":
        if after == 0:
            return say("Go gin: discard the {card}.", card=label(card))
        return say("Knock, discarding the {card}: {after} deadwood.", card=label(card), after=after)
    return say("Discard the {card}: {after} deadwood left.", card=label(card), after=after)
