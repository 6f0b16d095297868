"""Hard and Expert Cardice: the rest of the hand played out on sampled deals (perfect-
information Monte Carlo); Hard bids as Medium, Expert searches its bid.

Everything played this hand is on the table, and a seat that did not follow suit has shown
it holds none of that suit. ``Deals`` hands the cards this seat has not seen to the other
seats, as many as each holds and none of a suit it has shown out of; the rest lie in the
unused stockpile. Each card this seat may play is then played on the same deals and the hand
played out by every seat with a fast rule aimed at its contract (short of it: win with the
lowest card that wins, else throw the lowest; made or nil: throw the highest card that loses).
A card scores its side's points for the hand less the mean of the other sides'; the best mean
is played. Hard looks at ``HARD_DEALS`` deals, Expert at ``EXPERT_DEALS``;
``time.process_time`` caps each.

Expert also searches its bid (``bid_search``): Medium's bid and its neighbours are played
out from the first lead on the same deals. A made contract scores its bid and a broken one
loses only the shortfall, so a bid above Medium's cautious estimate often pays.
"""

from __future__ import annotations

import random
import time
from typing import Any

from ...cards import suit
from .strategy import choose, choose_bid, estimate, nil_ok
from .tricks import DECK, JOKER, power, trick_winner

HARD_DEALS = 10
HARD_CAP = 0.04  # seconds of CPU
EXPERT_DEALS = 60
EXPERT_CAP = 0.8
NIL_BONUS = 5
BID_SPREAD = (0, -1, 1, 2)  # Expert's bids searched, around Medium's

SUIT_OF = {c: (None if c == JOKER else suit(c)) for c in DECK}
POWER_OF = {c: power(c) for c in DECK}


class Deals:
    """The hand in play as this seat knows it, and deals of what it doesn't."""

    def __init__(self, view: dict[str, Any]):
        self.view = view
        self.me = view["seat"]
        self.trump = view["trump"]
        self.seats = list(view["seats"])
        self.hand = [h["card"] for h in view["you"]["hand"]]
        played = [p["card"] for t in view["tricks"] for p in t["plays"]]
        played += [p["card"] for p in view["trick"]["plays"]]
        seen = set(played) | set(self.hand)
        self.unseen = [c for c in DECK if c not in seen]
        self.counts = {s: view["hand_counts"][s] for s in self.seats if s != self.me}
        self.void: dict[int, set[str]] = {s: set() for s in self.seats}
        for t in [*view["tricks"], view["trick"]]:
            plays = t["plays"]
            if not plays or plays[0]["card"] == JOKER:
                continue
            led = SUIT_OF[plays[0]["card"]]
            for p in plays[1:]:
                if p["card"] != JOKER and SUIT_OF[p["card"]] != led:
                    self.void[p["seat"]].add(led)
        self.side_of = {}
        self.sides = []
        for c in view["contracts"]:
            self.sides.append((list(c["seats"]), c["bid"] or 0, c["won"]))
            for s in c["seats"]:
                self.side_of[s] = len(self.sides) - 1

    def deal(self, rng: random.Random) -> dict[int, list[str]]:
        """Every seat's hand: this seat's own, the others' sampled (voids respected where the
        cards allow; the most constrained seats are dealt first)."""
        pool = list(self.unseen)
        rng.shuffle(pool)
        hands = {self.me: list(self.hand)}
        for s in sorted(self.counts, key=lambda s: -len(self.void[s])):
            fits = [c for c in pool if SUIT_OF[c] not in self.void[s]]
            take = fits[: self.counts[s]]
            if len(take) < self.counts[s]:
                take += [c for c in pool if c not in take][: self.counts[s] - len(take)]
            chosen = set(take)
            pool = [c for c in pool if c not in chosen]
            hands[s] = take
        return hands

    def score(self, won: list[int], bids: list[int]) -> float:
        """This seat's side's points for the hand less the mean of the other sides'."""
        points = []
        for i, bid in enumerate(bids):
            if bid == 0:
                points.append(
                    (NIL_BONUS if self.view["nil_bonus"] else 0) if not won[i] else -won[i]
                )
            else:
                points.append(bid if won[i] >= bid else won[i] - bid)
        mine = self.side_of[self.me]
        others = [p for i, p in enumerate(points) if i != mine]
        return points[mine] - (sum(others) / len(others) if others else 0.0)


def legal_cards(hand: list[str], led: str | None, leading: bool, final: bool) -> list[str]:
    if leading:
        if final or hand == [JOKER]:
            return hand
        return [c for c in hand if c != JOKER]
    if led is None:
        return hand
    follow = [c for c in hand if SUIT_OF[c] == led or c == JOKER]
    return follow if any(c != JOKER for c in follow) else hand


def playout(
    deals: Deals,
    hands: dict[int, list[str]],
    first: str | None,
    bids: list[int] | None = None,
    seat: int | None = None,
) -> float:
    """Play ``first`` for ``seat`` (this seat unless told; ``None``: the fast rule's card),
    then the rest of the hand by the fast rule. ``bids`` are the sides' contracts when they
    are not yet all in (a bid searched for)."""
    view = deals.view
    trump = deals.trump
    seats = deals.seats
    n = len(seats)
    final = view["final_hand"]
    bids = bids or [bid for _, bid, _ in deals.sides]
    won = [w for _, _, w in deals.sides]
    need = [bid - w for bid, w in zip(bids, won, strict=True)]
    plays = [dict(p) for p in view["trick"]["plays"]]
    seat = deals.me if seat is None else seat
    card = first
    if card is None:
        card = rule(hands[seat], plays, trump, final, need[deals.side_of[seat]] > 0, seat)
    while True:
        hands[seat].remove(card)
        plays.append({"seat": seat, "card": card})
        if len(plays) == n:
            winner = trick_winner(plays, trump)
            side = deals.side_of[winner]
            won[side] += 1
            need[side] -= 1
            plays = []
            if not hands[winner]:
                return deals.score(won, bids)
            seat = winner
        else:
            seat = seats[(seats.index(seat) + 1) % n]
        card = rule(hands[seat], plays, trump, final, need[deals.side_of[seat]] > 0, seat)


def rule(hand: list[str], plays: list[dict], trump, final: bool, taking: bool, seat: int) -> str:
    """The fast rule of the play-outs."""
    leading = not plays
    led = None if leading or plays[0]["card"] == JOKER else SUIT_OF[plays[0]["card"]]
    cards = legal_cards(hand, led, leading, final)
    if leading:
        plain = [c for c in cards if c != JOKER] or cards
        if taking:
            return max(plain, key=lambda c: (SUIT_OF[c] == trump, POWER_OF[c]))
        return min(plain, key=lambda c: (SUIT_OF[c] == trump, POWER_OF[c]))
    winning = [c for c in cards if trick_winner([*plays, {"seat": seat, "card": c}], trump) == seat]
    losing = [c for c in cards if c not in winning]
    if taking and winning:
        plain = [c for c in winning if c != JOKER]
        return min(plain, key=lambda c: (SUIT_OF[c] == trump, POWER_OF[c])) if plain else JOKER
    if losing and taking:  # it can't win this one: throw the cheapest
        return min(losing, key=lambda c: (c == JOKER, SUIT_OF[c] == trump, POWER_OF[c]))
    if losing:  # made, or a nil: shed the highest card that still loses
        return max(losing, key=lambda c: (c != JOKER, SUIT_OF[c] != trump, POWER_OF[c]))
    return min(cards, key=lambda c: (c == JOKER, SUIT_OF[c] == trump, POWER_OF[c]))


def search(
    view: dict[str, Any], legal: list[dict], rng: random.Random, deals: int, cap: float
) -> dict:
    started = time.process_time()
    if legal[0]["type"] != "play" or len(legal) == 1:
        return choose(view, legal)
    table = Deals(view)
    cards = [a["card"] for a in legal]
    totals = [0.0] * len(cards)
    done = 0
    for _ in range(deals):
        hands = table.deal(rng)
        for i, card in enumerate(cards):
            totals[i] += playout(table, {s: list(h) for s, h in hands.items()}, card)
        done += 1
        if time.process_time() - started > cap:
            break
    medium = choose(view, legal)["card"]
    # Medium's card unless another does better on the deals (ties keep Medium's).
    best = max(range(len(cards)), key=lambda i: (totals[i], cards[i] == medium))
    return {"type": "play", "card": cards[best]}


def bid_search(
    view: dict[str, Any], legal: list[dict], rng: random.Random, deals: int, cap: float
) -> dict:
    """Medium's bid and its neighbours, each played out on the same deals: the other seats
    bid what they have bid (round 2: their first bid if not yet revised) or, unheard, what
    Medium would bid on the hand dealt to them."""
    started = time.process_time()
    medium = choose_bid(view, legal)["n"]
    allowed = {a["n"] for a in legal}
    options = [n for n in dict.fromkeys(medium + d for d in BID_SPREAD) if n in allowed]
    if len(options) == 1:
        return {"type": "bid", "n": medium}
    table = Deals(view)
    trump, size, players = view["trump"], view["hand_size"], len(table.seats)
    heard = {
        s: view["bids"][s] if view["bids"][s] is not None else view["first_bids"][s]
        for s in table.seats
    }
    totals = [0.0] * len(options)
    for _ in range(deals):
        hands = table.deal(rng)
        seat_bids = dict(heard)
        for s in table.counts:
            if seat_bids[s] is None:
                est = estimate(hands[s], trump, players, size)
                seat_bids[s] = 0 if nil_ok(hands[s], trump, est, players) else max(1, int(est))
        for i, n in enumerate(options):
            seat_bids[table.me] = n
            bids = [sum(seat_bids[s] for s in side) for side, _, _ in table.sides]
            copy = {s: list(h) for s, h in hands.items()}
            totals[i] += playout(table, copy, None, bids, view["trick"]["leader"])
        if time.process_time() - started > cap:
            break
    best = max(range(len(options)), key=lambda i: (totals[i], options[i] == medium))
    return {"type": "bid", "n": options[best]}


def hard(view: dict[str, Any], legal: list[dict], rng: random.Random) -> dict:
    return search(view, legal, rng, HARD_DEALS, HARD_CAP)


def expert(view: dict[str, Any], legal: list[dict], rng: random.Random) -> dict:
    if legal[0]["type"] == "bid":
        return bid_search(view, legal, rng, EXPERT_DEALS, EXPERT_CAP)
    return search(view, legal, rng, EXPERT_DEALS, EXPERT_CAP)
