"""The computer player at four strengths (rules §8). It reads only a seat's view and legal
actions.

Medium is the computer as it always was. Facing a draw card it answers with one of the same kind when it can, else takes. Otherwise
it plays the plain card that keeps it in the suit it holds most of (in points games, the
costly cards first) and leaves the next player few cards to answer with, counting the cards
it has not seen and the suits that player drew on; it keeps its wild cards and jokers for
when nothing else fits, uses skips and draw cards when the next player is close to going
out, plays its special cards first when it may not go out on one, always calls its last
card, and names the suit it holds most of.

Easy plays like a beginner: any card that fits, the first it sees of the suit it holds most
of, saving nothing for later but its eights; it answers a draw card when it can, names the suit
it holds most of and always calls its last card.

Hard plays Medium's rule with memory of what the table showed of the next hand (the suits
it drew on, the suit it named with its wild card): which cards it likely holds.
Expert (search.py) deals the cards it has not seen to the other hands, the way what the
table saw makes likely, plays each candidate move out on those deals and keeps the one that
wins most often (or, scoring by points, loses the fewest) where it clearly beats Hard's.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from ...cards import SUIT_SYMBOLS, SUITS, is_joker, label, rank, suit
from ...text import say
from .ruleset import effect_of, full_deck, is_special
from .scoring import card_points

Action = dict[str, Any]


def effects_of_view(view: dict[str, Any]) -> dict[str, str]:
    """The effects table back from the view's rows ("8": "wish", "KS": "draw_skip:4", ...)."""
    out = {}
    for row in view["effects"]:
        key = row["rank"] + (row["suit"] or "")
        out[key] = row["effect"] + (f":{row['count']}" if row["count"] else "")
    return out


def best_suit(
    cards: list[str],
    effects: dict[str, str],
    lacks: set[str] = frozenset(),
    less: dict[str, float] | None = None,
) -> str:
    """The suit held most of among the non-wild cards (ties: S, H, D, C), better still one
    the next player is known to lack, each suit's count ``less`` what it says (Hard's)."""
    counts = {s: 0 for s in SUITS}
    for card in cards:
        if not is_joker(card) and effect_of(effects, card) != ("wish", 0):
            counts[suit(card)] += 1
    bonus = {s: LACK_BONUS if s in lacks and counts[s] else 0 for s in SUITS}
    less = less or {}
    return max(SUITS, key=lambda s: (counts[s] + bonus[s] - less.get(s, 0), -SUITS.index(s)))


LACK_BONUS = 2
LACK_PLAY = 6
ANSWER_WEIGHT = 6


def next_lacks(view: dict[str, Any]) -> set[str]:
    """The suits the next player drew on and has not played since."""
    nxt = view["next_seat"]
    return set(view["drew_on"][nxt]) if nxt is not None and nxt != view["seat"] else set()


class Unseen:
    """The cards this seat has not seen this round (in other hands or the draw pile),
    counted by suit and rank; wild cards and jokers apart, since they fit anywhere."""

    def __init__(self, view: dict[str, Any], hand: list[str], effects: dict[str, str]):
        seen = set(hand) | set(view["played"]) | {view["top"]}
        self.cards = [c for c in full_deck(view["rules"]) if c not in seen]
        plain = [c for c in self.cards if not is_joker(c) and effect_of(effects, c) != ("wish", 0)]
        self.set = set(plain)
        self.wild = len(self.cards) - len(plain)
        self.suits = Counter(suit(c) for c in plain)
        self.ranks = Counter(rank(c) for c in plain)

    def answers(self, view: dict[str, Any], card: str, follow: str) -> float:
        """How many cards the next player is expected to hold that fit on ``card`` with the
        suit ``follow``, if their hand is drawn from these cards (minus suits they drew on)."""
        nxt = view["next_seat"]
        if nxt is None or nxt == view["seat"] or not self.cards:
            return 0.0
        fitting = self.wild + self.ranks[rank(card)]
        if follow not in view["drew_on"][nxt]:
            fitting += self.suits[follow] - (rank(card) + follow in self.set)
        return view["hand_counts"][nxt] * fitting / len(self.cards)


def choose(view: dict[str, Any], legal: list[Action]) -> Action:
    """Medium: the best card by ``score``, knowing of the next hand what the view says."""
    return best_play(view, legal, Glance)


def best_play(view: dict[str, Any], legal: list[Action], knowing: type) -> Action:
    """Medium's rule (Hard's too): answer a draw card or play the card ``score`` likes best,
    naming a suit as ``knowing`` (what the seat knows of the next hand) advises."""
    kinds = {a["type"] for a in legal}
    hand = [h["card"] for h in view["you"]["hand"]]
    effects = effects_of_view(view)
    knows = knowing(view, Unseen(view, hand, effects), effects)
    if "choose_suit" in kinds:
        return {"type": "choose_suit", "suit": knows.name(hand)}
    plays = [a for a in legal if a["type"] == "play"]
    cards = list(dict.fromkeys(a["card"] for a in plays))
    if not cards:
        for kind in ("take", "draw", "pass"):
            if kind in kinds:
                return {"type": kind}
        return dict(legal[0])
    card = max(cards, key=lambda c: (score(view, hand, knows, effects, c), -cards.index(c)))
    rest = [c for c in hand if c != card]
    return play_action(plays, card, knows.name(rest))


def easy(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    kinds = {a["type"] for a in legal}
    hand = [h["card"] for h in view["you"]["hand"]]
    effects = effects_of_view(view)
    if "choose_suit" in kinds:
        return {"type": "choose_suit", "suit": best_suit(hand, effects)}
    plays = [a for a in legal if a["type"] == "play"]
    if not plays:
        for kind in ("take", "draw", "pass"):
            if kind in kinds:
                return {"type": kind}
        return dict(legal[0])
    cards = list(dict.fromkeys(a["card"] for a in plays))
    specials = sum(1 for c in hand if is_special(effects, c))
    if not view["rules"]["special_last_card"] and len(hand) == 2 and specials:
        # Going out on a special card is not allowed: get rid of it first.
        cards = [c for c in cards if is_special(effects, c)] or cards
    wild = [c for c in cards if is_joker(c) or effect_of(effects, c) == ("wish", 0)]
    plain = [c for c in cards if c not in wild]
    # A beginner keeps its eights for when nothing else fits, and otherwise plays any card
    # that fits, most often one of the suit it holds most of.
    pool = plain or wild
    held = Counter(suit(c) for c in hand if not is_joker(c))
    if rng.random() < EASY_SLIP:
        card = rng.choice(pool)
    else:
        card = max(pool, key=lambda c: (held[suit(c)] if not is_joker(c) else 0, -pool.index(c)))
    rest = [c for c in hand if c != card]
    return play_action(plays, card, best_suit(rest, effects))


EASY_SLIP = 0.35  # how often a beginner plays any card that fits


def play_action(plays: list[Action], card: str, wanted: str) -> Action:
    """The listed play of ``card``: naming the ``wanted`` suit, calling the last card."""
    options = [a for a in plays if a["card"] == card]
    options.sort(key=lambda a: (a.get("knock") is not True, a.get("suit", wanted) != wanted))
    return dict(options[0])


def score(view: dict[str, Any], hand: list[str], knows, effects: dict, card: str) -> float:
    """How good playing ``card`` now is (bigger is better); ``knows``: what this seat knows
    of the next hand (``Glance`` or ``Memory``)."""
    rules = view["rules"]
    rest = [c for c in hand if c != card]
    effect = effect_of(effects, card)
    name = effect[0] if effect else ""
    wild = is_joker(card) or name == "wish"
    value = 0.0
    # A hand may not end on a special card: play the specials while a plain card is left.
    specials = sum(1 for c in hand if is_special(effects, c))
    if not rules["special_last_card"] and specials >= len(hand) - 1 and len(hand) >= 2:
        value += 100 if is_special(effects, card) else 0
    if wild:
        value -= 40
    else:
        follow = suit(card)
        value += 3 * sum(1 for c in rest if not is_joker(c) and suit(c) == follow)
        value += sum(1 for c in rest if not is_joker(c) and rank(c) == rank(card))
        if follow in knows.lacks:
            value += LACK_PLAY
    if name in ("skip", "draw", "draw_skip"):
        value += 25 if knows.threat or view["players"] == 2 and name != "draw" else -4
    if name in ("", "wish", "reverse") and not is_joker(card):
        follow = knows.name(rest) if wild else suit(card)
        value -= ANSWER_WEIGHT * knows.answers(card, follow)
    if name == "draw" and view["pending"]:
        value += 10
    if name == "cover":
        covers = [c for c in rest if suit(c) == suit(card) or rank(c) == rank(card)]
        value += 2 if covers else -15
    if rules["scoring"] == "points":
        points = card_points(rules["values"], card)
        value += points / 10 + knows.shed * points
    return value


class Glance:
    """What Medium knows of the next hand: what the view says (its size, the suits it drew
    on), its cards drawn evenly from those not seen."""

    shed = 0.0  # a card point weighs a tenth (score), however few cards the next hand holds

    def __init__(self, view: dict[str, Any], pool: Unseen, effects: dict[str, str]):
        nxt = view["next_seat"]
        self.threat = view["hand_counts"][nxt] <= 2 if nxt is not None else False
        self.lacks = next_lacks(view)
        self.view, self.pool, self.effects = view, pool, effects

    def answers(self, card: str, follow: str) -> float:
        return self.pool.answers(self.view, card, follow)

    def name(self, cards: list[str]) -> str:
        return best_suit(cards, self.effects, self.lacks)


class Memory:
    """What the table showed about the next player's hand, for Hard: the suits it drew on
    (it held none of them then), the suit it named with its latest wild card (it names the
    suit it holds most of), and how many cards it holds. Each card this seat has not seen
    gets a chance of being in that hand rather than in the draw pile."""

    def __init__(self, view: dict[str, Any], pool: Unseen, effects: dict[str, str]):
        me, nxt = view["seat"], view["next_seat"]
        self.count = view["hand_counts"][nxt] if nxt is not None and nxt != me else 0
        self.threat = 0 < self.count <= 2
        # Points scoring: the round may end on the next hand's turn, and every point held
        # then counts against this seat.
        self.shed = HARD_SHED if self.threat else 0.0
        self.lacks = set(view["drew_on"][nxt]) if self.count else set()
        self.named = None
        for seen in view["history"]:
            if seen["seat"] == nxt and seen["did"] == "play" and seen.get("suit"):
                self.named = seen["suit"]
        self.effects = effects
        weights = {}
        for card in pool.cards:
            if self.wild(card):
                weights[card] = 1.0
            elif suit(card) in self.lacks:
                weights[card] = HARD_LACK
            else:
                weights[card] = HARD_NAMED if suit(card) == self.named else 1.0
        total = sum(weights.values()) or 1.0
        self.chance = {c: min(1.0, self.count * w / total) for c, w in weights.items()}

    def wild(self, card: str) -> bool:
        return is_joker(card) or effect_of(self.effects, card) == ("wish", 0)

    def answers(self, card: str, follow: str) -> float:
        """How many cards the next player is expected to hold that fit on ``card`` with the
        suit ``follow``."""
        return sum(
            p
            for other, p in self.chance.items()
            if self.wild(other) or suit(other) == follow or rank(other) == rank(card)
        )

    def name(self, cards: list[str]) -> str:
        """The suit to name: Medium's (the one held most of, better still one the next player
        drew on), less a little for each card of it the next player is expected to hold."""
        held = dict.fromkeys(SUITS, 0.0)
        for card, p in self.chance.items():
            if not self.wild(card):
                held[suit(card)] += p
        less = {s: HARD_HELD * n for s, n in held.items()}
        return best_suit(cards, self.effects, self.lacks, less)


HARD_LACK = 0.1  # a suit the next player drew on: this much less likely in its hand
HARD_NAMED = 2.0  # the suit it named with its wild card: this much more likely
# A suit to name loses this much for each card of it the next hand is expected to hold. At 1
# (a card held against a card expected there) Hard's naming lost rounds against Medium's;
# at 0.3 it wins them (bench/departures.py --hard).
HARD_HELD = 0.3
HARD_SHED = 0.5  # points scoring, the next hand at two cards or fewer: more a card point


def hard(view: dict[str, Any], legal: list[Action]) -> Action:
    """Hard: Medium's rule with memory of what the table showed of the next hand."""
    return best_play(view, legal, Memory)


def describe(action: Action) -> str:
    """The advice in words, for the hint."""
    kind = action["type"]
    if kind == "play":
        card = label(action["card"])
        named = SUIT_SYMBOLS.get(action.get("suit", ""))
        if named and action.get("knock"):
            return say(
                "Play the {card} and name {suit}, and call your last card.", card=card, suit=named
            )
        if named:
            return say("Play the {card} and name {suit}.", card=card, suit=named)
        if action.get("knock"):
            return say("Play the {card}, and call your last card.", card=card)
        return say("Play the {card}.", card=card)
    if kind == "choose_suit":
        return say("Name {suit}: you hold most of that suit.", suit=SUIT_SYMBOLS[action["suit"]])
    return {
        "draw": say("Draw a card."),
        "pass": say("Pass: nothing you hold fits."),
        "take": say("Take the cards: you can't answer the draw card."),
    }[kind]
