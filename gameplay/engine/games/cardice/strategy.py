"""The Cardice computer player, from a seat's view and legal actions only.

Medium (rules.md §8) is the computer as it always was:

Bidding estimates the tricks the hand will take under the rolled trump: each card's chance
that no higher card of its suit sits in another hand (the stockpile hides the rest), cut by
the chance that a side suit is trumped before the card is cashed; long trumps, short side
suits to trump in, and the joker count on top. The second round revises after hearing the
table. Play aims at the contract exactly: win cheaply while short, duck once made or on a
nil, cash the joker when the tricks left run out.

Easy bids like a beginner, one trick for each Ace and King and for the joker (at least one),
and plays its highest card while it still needs tricks and its lowest once it has them. Hard
and Expert (search.py) play the rest of the hand out on sampled deals.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from ...cards import suit
from .tricks import DECK, JOKER, POWER, SUITS, power, trick_winner

DECK_SIZE = len(DECK)
SUIT_SIZE = 13
NIL_ESTIMATE = 0.6  # bid nil only below this estimate, with a hand of low cards (nil_ok)
# The highest card a nil hand may hold, by seats dealt in: the more cards in a trick, the
# more cover for a high one.
NIL_HIGH = {2: 11, 3: 12, 4: 13, 5: 14, 6: 14}
CROWDED = 0.8  # round 2 lowers a bid when the table's bids pass this share of the tricks


# ---- bidding -------------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def short_chance(held: int, rounds: int, opponents: int, hand_size: int) -> float:
    """The chance that some opponent holds fewer than ``rounds`` cards of a suit of which we
    hold ``held``: it can trump in by the time we cash our ``rounds``-th card of it."""
    unseen = DECK_SIZE - hand_size
    q = hand_size / unseen  # the chance a given unseen card is in one given opponent's hand
    out = SUIT_SIZE - held
    one = sum(math.comb(out, k) * q**k * (1 - q) ** (out - k) for k in range(min(rounds, out + 1)))
    return 1 - (1 - one) ** opponents


def estimate(hand: list[str], trump: str | None, players: int, hand_size: int) -> float:
    """Expected tricks for ``hand`` with ``players`` hands of ``hand_size`` dealt (§8)."""
    opponents = players - 1
    unseen = DECK_SIZE - hand_size
    p = opponents * hand_size / unseen  # a given unseen card is in some other hand
    total = 1.0 if JOKER in hand else 0.0
    by_suit = {s: sorted((power(c) for c in hand if suit(c) == s), reverse=True) for s in SUITS}
    for s, mine in by_suit.items():
        for i, pw in enumerate(mine):
            higher = (14 - pw) - i  # higher cards of the suit that are not ours
            top = (1 - p) ** higher
            if higher and len(mine) - i > higher:
                top += (1 - top) * 0.25  # guarded: it may outlast the higher cards
            if trump and s != trump:
                top *= 1 - short_chance(len(mine), i + 1, opponents, hand_size) * 0.8
            total += top
    if trump:
        trumps = by_suit[trump]
        # Trumps beyond what an opponent is likely to hold win once theirs are gone, and low
        # trumps can take tricks in the side suits we run out of.
        share = (SUIT_SIZE - len(trumps)) * hand_size / unseen
        low = sum(1 for i, pw in enumerate(trumps) if (1 - p) ** ((14 - pw) - i) < 0.5)
        long_trumps = max(0.0, len(trumps) - (share + 1.5))
        short_suits = sum(max(0, 2 - len(by_suit[s])) for s in SUITS if s != trump)
        total += min(low, long_trumps * 0.7 + short_suits * 0.35)
    return total


def nil_ok(hand: list[str], trump: str | None, est: float, players: int) -> bool:
    """A hand to bid nil with: no joker (it always takes a trick), no high cards, few and low
    trumps."""
    if JOKER in hand or est >= NIL_ESTIMATE:
        return False
    for card in hand:
        if power(card) >= NIL_HIGH[players] or (suit(card) == trump and power(card) >= 9):
            return False
    return sum(1 for c in hand if suit(c) == trump) <= 2


def choose_bid(view: dict[str, Any], legal: list[dict]) -> dict:
    hand = [h["card"] for h in view["you"]["hand"]]
    size = view["hand_size"]
    trump = view["trump"]
    est = estimate(hand, trump, len(view["seats"]), size)
    me = view["seat"]
    partners = [s for s in view["you"]["team"] if s != me]
    if view["bid_round"] == 1:
        n = 0 if nil_ok(hand, trump, est, len(view["seats"])) else max(1, math.floor(est))
    else:
        n = view["first_bids"][me]
        first = [b for b in view["first_bids"] if b is not None]
        if partners:
            # The partner's final bid when it is already in, else its round-1 bid.
            theirs = [
                view["bids"][s] if view["bids"][s] is not None else view["first_bids"][s]
                for s in partners
            ]
            team = n + sum(theirs)
            share = size * len(view["you"]["team"]) / len(view["seats"])
            if n == 0 and team > 0:
                n = max(0, math.floor(est))  # a lone nil earns nothing in a team contract
            elif team > share and n > 1:
                n -= 1
        elif sum(first) > CROWDED * size and n > 1 and est < n + 0.5:
            n -= 1  # more tricks bid than there are: lean lower
    n = min(max(n, 0), size)
    return next(a for a in legal if a["n"] == n)


# ---- play ----------------------------------------------------------------------------------


class Table:
    """What the seat knows about the hand in play, read once from its view."""

    def __init__(self, view: dict[str, Any]):
        self.me = view["seat"]
        self.trump = view["trump"]
        self.seats = view["seats"]
        self.hand = [h["card"] for h in view["you"]["hand"]]
        self.team = view["you"]["team"]
        side = next(c for c in view["contracts"] if self.me in c["seats"])
        self.bid = side["bid"]
        self.need = self.bid - side["won"]
        self.left = view["hand_size"] - len(view["tricks"])
        self.plays = view["trick"]["plays"]
        played = [p["card"] for t in view["tricks"] for p in t["plays"]]
        played += [p["card"] for p in self.plays]
        self.seen = set(played) | set(self.hand)
        self.void = {s: set() for s in self.seats}  # suits a seat has shown out of
        for t in view["tricks"]:
            self._voids(t["plays"])
        self._voids(self.plays)
        self.later = self._later()

    def _voids(self, plays: list[dict]) -> None:
        if not plays or plays[0]["card"] == JOKER:
            return
        led = suit(plays[0]["card"])
        for p in plays[1:]:
            if p["card"] != JOKER and suit(p["card"]) != led:
                self.void[p["seat"]].add(led)

    def _later(self) -> list[int]:
        """Seats still to play to this trick after us."""
        n = len(self.seats)
        i = self.seats.index(self.me)
        return [self.seats[(i + k) % n] for k in range(1, n - len(self.plays))]

    def higher_out(self, card: str) -> int:
        """Cards of the suit above ``card`` that we have not seen (in hands or the stockpile)."""
        s = suit(card)
        return sum(1 for r in POWER if POWER[r] > power(card) and r + s not in self.seen)

    def opponents_later(self) -> list[int]:
        return [s for s in self.later if s not in self.team]

    def wins_now(self, card: str) -> bool:
        """Would ``card`` be winning the trick once played?"""
        plays = [*self.plays, {"seat": self.me, "card": card}]
        return trick_winner(plays, self.trump) == self.me

    def trumps_out(self) -> bool:
        return bool(self.trump) and any(r + self.trump not in self.seen for r in POWER)

    def may_be_trumped(self, card: str, seats: list[int]) -> bool:
        """A side-suit card that one of ``seats`` has shown out of, with trumps still out."""
        s = suit(card)
        return s != self.trump and self.trumps_out() and any(s in self.void[r] for r in seats)

    def safe(self, card: str) -> bool:
        """Winning now, and no opponent still to play is likely to beat it. (The joker is
        one trick wherever it is: it is left out of these guesses.)"""
        if card == JOKER:
            return True
        if not self.wins_now(card):
            return False
        rivals = self.opponents_later()
        if not rivals:
            return True
        return not self.higher_out(card) and not self.may_be_trumped(card, rivals)

    def safe_lead(self, card: str) -> bool:
        """A lead no opponent can beat: the top card of its suit, not known to be trumped."""
        rivals = [s for s in self.seats if s not in self.team]
        return not self.higher_out(card) and not self.may_be_trumped(card, rivals)

    def safe_for(self, seat: int) -> bool:
        """Is ``seat``'s card, winning now, safe from the opponents still to play?"""
        card = next(p["card"] for p in self.plays if p["seat"] == seat)
        if card == JOKER:
            return True
        return not self.higher_out(card) and not self.may_be_trumped(card, self.opponents_later())


def cheapest(cards: list[str], trump: str | None) -> str:
    """The card that costs least to give up: low side cards before trumps, the joker last."""
    return min(cards, key=lambda c: (c == JOKER, suit(c) == trump, power(c)))


def dearest(cards: list[str], trump: str | None) -> str:
    """The highest card to throw away: side cards before trumps, never the joker by choice."""
    return max(cards, key=lambda c: (c != JOKER, suit(c) != trump, power(c)))


def choose_play(view: dict[str, Any], legal: list[dict]) -> dict:
    cards = [a["card"] for a in legal]
    if len(cards) == 1:
        return legal[0]
    t = Table(view)
    taking = t.bid > 0 and t.need > 0
    card = (take if taking else duck)(t, cards)
    return {"type": "play", "card": card}


def take(t: Table, cards: list[str]) -> str:
    """Short of the contract: win tricks, cheaply."""
    cash_joker = JOKER in cards and t.left <= t.need + 1
    if not t.plays:
        if cash_joker:
            return JOKER
        sure = [c for c in cards if c != JOKER and t.safe_lead(c)]
        if sure:
            return max(sure, key=lambda c: (suit(c) == t.trump, power(c)))
        side = [c for c in cards if c != JOKER and suit(c) != t.trump] or [
            c for c in cards if c != JOKER
        ]
        length = {s: sum(1 for c in t.hand if suit(c) == s) for s in SUITS}
        return min(side, key=lambda c: (-length[suit(c)], power(c)))
    winner = trick_winner(t.plays, t.trump)
    if winner in t.team and (not t.opponents_later() or t.safe_for(winner)):
        return cheapest(cards, t.trump)
    winning = [c for c in cards if c != JOKER and t.wins_now(c)]
    safe = [c for c in winning if t.safe(c)]
    if safe:
        return cheapest(safe, t.trump)
    if cash_joker:
        return JOKER
    if winning:
        return max(winning, key=power)  # not safe: the best chance to hold
    return cheapest([c for c in cards if c != JOKER] or cards, t.trump)


def duck(t: Table, cards: list[str]) -> str:
    """The contract is made, or a nil: take no more tricks, and shed high cards."""
    options = [c for c in cards if c != JOKER] or cards
    if not t.plays:
        # Lead the card most likely to be beaten.
        return min(options, key=lambda c: (suit(c) == t.trump, -t.higher_out(c), power(c)))
    losing = [c for c in options if not t.wins_now(c)]
    if losing:
        return dearest(losing, t.trump)
    if not t.later:
        return dearest(options, t.trump)
    return cheapest(options, t.trump)


def choose(view: dict[str, Any], legal: list[dict]) -> dict:
    kind = legal[0]["type"]
    if kind == "bid":
        return choose_bid(view, legal)
    if kind == "play":
        return choose_play(view, legal)
    return dict(legal[0])


# ---- Easy: a beginner ------------------------------------------------------------------------


def easy(view: dict[str, Any], legal: list[dict], rng=None) -> dict:
    kind = legal[0]["type"]
    hand = [h["card"] for h in view["you"]["hand"]]
    if kind == "bid":
        honours = sum(1 for c in hand if c == JOKER or power(c) >= 13)
        bids = [a["n"] for a in legal]
        n = min(max(honours, 1, min(bids)), max(bids))
        return next(a for a in legal if a["n"] == n)
    if kind != "play" or len(legal) == 1:
        return dict(legal[0])
    cards = [a["card"] for a in legal]
    me = view["seat"]
    side = next(c for c in view["contracts"] if me in c["seats"])
    plain = [c for c in cards if c != JOKER] or cards
    if side["bid"] and side["won"] < side["bid"]:
        # Still short: the highest card, or the joker once the tricks run short.
        if JOKER in cards and view["tricks_left"] <= side["bid"] - side["won"]:
            return {"type": "play", "card": JOKER}
        return {"type": "play", "card": max(plain, key=power)}
    return {"type": "play", "card": min(plain, key=power)}
