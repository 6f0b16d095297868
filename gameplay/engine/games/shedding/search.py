"""Expert Crazy 8 / 8 Américain: a determinized search (perfect-information Monte Carlo)
over Hard's rule.

The seat's view is turned into whole states: the cards it has not seen (not in its hand,
not on the discard pile) are dealt to the other hands, weighted by what the table saw them do
(a seat that drew on a suit and has not played it since is unlikely to hold it; a hand that
would not have made the plays the table saw it make under today's rule is unlikely, ``Reads``),
and the rest become the draw pile in a random order. Hard's move and every other candidate (each
card that may be played, a wild card with each suit worth naming, drawing) are played on the
same deals (common random numbers), and the round is played out by every seat with a fast
imitation of Medium (``like_medium``; the plainer ``quick`` rule is kept for comparison: it
wins 46.1 ± 3.1% of Crazy 8 games against today's computer, ``like_medium`` 48.6 ± 3.1%). A move replaces Hard's only when it wins more often (with points scoring:
ends the round with a better margin) by ``SURE`` standard errors over ``DEALS`` deals;
``time.process_time`` caps a move at ``CPU_CAP`` seconds.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable
from typing import Any

from ...cards import SUITS, is_joker, rank, suit
from ...core import Action, clone
from .ruleset import ANNOUNCE_WORDS, effect_key, effect_of, full_deck, is_special, key_label
from .scoring import card_points, hand_value
from .strategy import (
    ANSWER_WEIGHT,
    LACK_PLAY,
    best_suit,
    effects_of_view,
    hard,
    next_lacks,
    play_action,
)

DEALS = 200  # sampled states each candidate move is played out on
# Standard errors by which a move must beat Hard's on the deals to replace it: several
# moves are compared at once, and a lower bar lets chance pick one of them.
SURE = 2.5
CPU_CAP = 0.8  # seconds of CPU a move may take, whatever DEALS says
LACK_WEIGHT = 0.25  # how much less likely a hand is for each card of a suit its seat drew on
WILD_LACK_WEIGHT = 1.0  # the same, for each wild card of a seat that drew on a suit
ROLLOUT_MOVES = 400  # a round that runs longer is scored as it stands
READS = True  # deals explain the other seats' latest plays (Reads)


def expert(engine, view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    return search(engine, view, legal, rng, DEALS, CPU_CAP)


def search(engine, view, legal: list[Action], rng: random.Random, deals: int, cap: float):
    started = time.process_time()
    # Hard's move first: another replaces it only when the deals clearly prefer it.
    usual = hard(view, legal)
    candidates = [usual] + [a for a in candidate_moves(view, legal) if a != usual]
    if len(candidates) == 1:
        return candidates[0]
    me = view["seat"]
    base = rebuild(view)
    clue = Reads.read(engine, base, view) if READS else None
    scores: list[list[float]] = [[] for _ in candidates]
    for _ in range(deals):
        state = determinize(base, view, rng, clue)
        seed = rng.random()
        for i, action in enumerate(candidates):
            work = clone(state)
            engine.play(work, me, action)
            scores[i].append(playout(engine, work, me, random.Random(seed)))
        if time.process_time() - started > cap:
            break
    best, best_edge = 0, 0.0
    for i in range(1, len(candidates)):
        edge = clear_edge(scores[i], scores[0], SURE)
        if edge > best_edge:
            best, best_edge = i, edge
    return candidates[best]


def clear_edge(mine: list[float], base: list[float], sure: float) -> float:
    """How much better ``mine`` scored than ``base`` on the same deals, a deal, when the
    difference is at least ``sure`` standard errors; else 0."""
    n = len(mine)
    if n < 2:
        return 0.0
    diffs = [a - b for a, b in zip(mine, base, strict=True)]
    mean = sum(diffs) / n
    spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    if mean <= 0 or mean < sure * spread / math.sqrt(n):
        return 0.0
    return mean


def candidate_moves(view: dict[str, Any], legal: list[Action]) -> list[Action]:
    """The moves worth searching: each card once (calling the last card whenever it may), a
    wild card with each suit it might name, and drawing, passing or taking."""
    kinds = {a["type"] for a in legal}
    if "choose_suit" in kinds:
        return [a for a in legal if a["type"] == "choose_suit"]
    hand = [h["card"] for h in view["you"]["hand"]]
    effects = effects_of_view(view)
    out: list[Action] = []
    seen: set[tuple] = set()
    for action in legal:
        if action["type"] != "play":
            if action["type"] in ("draw", "pass", "take"):
                out.append(dict(action))
            continue
        card = action["card"]
        if "suit" in action:
            rest = [c for c in hand if c != card]
            worth = {suit(c) for c in rest if not is_joker(c)} or set(SUITS)
            worth.add(best_suit(rest, effects, next_lacks(view)))
            if action["suit"] not in worth:
                continue
        key = (card, action.get("suit"))
        if key in seen:
            continue
        seen.add(key)
        plays = [a for a in legal if a["type"] == "play" and a["card"] == card]
        if "suit" in action:
            plays = [a for a in plays if a["suit"] == action["suit"]]
        out.append(play_action(plays, card, action.get("suit", "")))
    return out


def rebuild(view: dict[str, Any]) -> dict[str, Any]:
    """The public part of the state, as the engine keeps it, from the seat's view."""
    rules = dict(view["rules"])
    words = {word: key for key, word in ANNOUNCE_WORDS.items()}
    rules.update(
        mode=view["mode"],
        effects=effects_of_view(view),
        announce=words.get(view["announce"]) if view["announce"] else None,
    )
    players = view["players"]
    pending = view["pending"]
    by = None
    if pending:
        by = next(key for key in rules["effects"] if key_label(key) == pending["by"])
    return {
        "ruleset": rules,
        "round": view["round"],
        "dealer": view["dealer"],
        "hands": [[] for _ in range(players)],
        "stock": [],
        "discards": [*view["played"], view["top"]],
        "suit": view["suit"],
        "suit_named": view["suit_named"],
        "direction": view["direction"],
        "phase": view["phase"],
        "turn": view["turn"],
        "pending": pending["count"] if pending else 0,
        "pending_by": by,
        "drew": view["you"]["drew"],
        "cover": view["cover"],
        "stuck_passes": 0,
        "drew_on": [list(d) for d in view["drew_on"]],
        "history": [],
        "reshuffles": 0,
        "totals": list(view["totals"]) if view["totals"] else [0] * players,
        "sheet": [],
        "rounds_won": [0] * players,
        "last_round": None,
        "over": False,
        "winners": [],
        "stats": {name: [0] * players for name in STAT_NAMES},
        "seed": "search",
        "players": players,
    }


STAT_NAMES = ("knocks", "knocks_forgotten", "penalties_stacked", "cards_taken", "cards_drawn")


class Reads:
    """The other seats' latest plays, each with the table as it stood just before it: a
    guessed hand that would not have made those plays under today's rule (Medium, which
    plays the card that keeps it in the suit it holds most of and names that suit with its
    eights) is an unlikely one. A play is read back only while the seat that made it has
    drawn nothing since (its hand then is its hand now and the cards it played since), the
    pile still holds the card under it, and neither card is an action card (a skip, a draw
    card, a reverse: the table around them is not set back)."""

    def __init__(self, engine, discards: list[str], plays: list[tuple]):
        self.engine, self.discards = engine, discards
        self.plays = plays  # (the table before, seat, card, suit named, its cards played since)

    @classmethod
    def read(cls, engine, base: dict[str, Any], view: dict[str, Any]) -> Reads | None:
        effects = base["ruleset"]["effects"]
        discards = base["discards"]
        if base["pending"]:
            return None

        def plain(card: str | None) -> bool:
            return card is not None and not (
                is_special(effects, card) and not is_wild(effects, card)
            )

        me, history = view["seat"], view["history"]
        named = {h["card"]: h.get("suit") for h in history if h["did"] == "play"}
        counts = list(view["hand_counts"])
        drew: set[int] = set()
        since: dict[int, list[str]] = {}
        plays = []
        for h in reversed(history):
            seat, did = h["seat"], h["did"]
            if did != "play":
                if did in ("draw", "take", "penalty", "forgot"):
                    drew.add(seat)
                    counts[seat] -= h.get("count", 0)
                elif did != "pass":
                    break
                continue
            card = h["card"]
            counts[seat] += 1
            if seat != me and seat not in drew:
                at = discards.index(card) if card in discards else 0
                under = discards[at - 1] if at >= 1 else None
                follow = named.get(under) if plain(under) and is_wild(effects, under) else None
                if plain(card) and plain(under) and (follow or not is_wild(effects, under)):
                    before = clone(base)
                    before.update(
                        discards=discards[:at],
                        suit=follow or suit(under),
                        suit_named=bool(follow),
                        turn=seat,
                        drew=False,
                        cover=False,
                        counts=list(counts),
                    )
                    plays.append((before, seat, card, h.get("suit"), list(since.get(seat, []))))
            since.setdefault(seat, []).append(card)
        return cls(engine, discards, plays) if plays else None

    def misses(self, hands: list[list[str]], stock: list[str]) -> int:
        """How many of the plays read Medium would not have made with the guessed hands."""
        engine, out = self.engine, 0
        for before, seat, card, named, later in self.plays:
            hand = hands[seat] + later + [card]
            # What the seat had not seen then: the other hands, the draw pile and the cards
            # the others played since, dealt to the other hands by their sizes then.
            pool = [c for s, h in enumerate(hands) if s != seat for c in h] + stock
            pool += [c for c in self.discards[len(before["discards"]) + 1 :] if c not in later]
            state, at = before, 0
            state["hands"] = []
            for s, count in enumerate(before["counts"]):
                if s == seat:
                    state["hands"].append(hand)
                else:
                    state["hands"].append(pool[at : at + count])
                    at += count
            state["stock"] = pool[at:]
            playable = [c for c in hand if engine._playable(state, seat, c)]
            nxt = engine._next(state, seat)
            lacks = state["drew_on"][nxt] if nxt != seat else ()
            if len(playable) > 1:
                value = medium_value(state, seat, nxt, lacks)
                if value(card) < max(value(c) for c in playable) - 1e-9:
                    out += 1
                    continue
            if named is not None:
                rest = [c for c in hand if c != card]
                if lacking_suit(rest, state["ruleset"]["effects"], lacks) != named:
                    out += 1
        return out


READ_MISS = 0.05  # how much less likely a guessed hand is for each play it does not explain
READ_TRIES = 24  # deals tried for each one kept, looking for hands that explain the plays


def determinize(
    base: dict[str, Any], view: dict[str, Any], rng: random.Random, clue: Reads | None = None
) -> dict:
    """A whole state the view could come from: the unseen cards dealt to the other hands
    (a few tries each, keeping the likeliest; with ``clue``, up to ``READ_TRIES`` tries for
    four whose hands explain the other seats' latest plays) and the rest shuffled as the
    draw pile."""
    me = view["seat"]
    mine = [h["card"] for h in view["you"]["hand"]]
    seen = list(mine) + base["discards"]
    unseen = list(full_deck(base["ruleset"]))
    for card in seen:
        unseen.remove(card)
    counts = view["hand_counts"]
    effects = base["ruleset"]["effects"]
    best, kept = None, 0
    for _ in range(READ_TRIES if clue else 4):
        if kept == 4:
            break
        rng.shuffle(unseen)
        hands, at, weight = [], 0, 1.0
        for seat, count in enumerate(counts):
            if seat == me:
                hands.append(list(mine))
                continue
            hand = unseen[at : at + count]
            at += count
            lacks = view["drew_on"][seat]
            weight *= LACK_WEIGHT ** sum(1 for c in hand if suit(c) in lacks)
            if lacks:
                # It drew instead of playing, so it held no wild card then either.
                weight *= WILD_LACK_WEIGHT ** sum(1 for c in hand if is_wild(effects, c))
            hands.append(hand)
        weight *= rng.random()
        if clue is not None:
            misses = clue.misses(hands, unseen[at:])
            weight *= READ_MISS**misses
            kept += not misses
        if best is None or weight > best[0]:
            best = (weight, hands, unseen[at:])
    state = clone(base)
    state["hands"], state["stock"] = best[1], list(best[2])
    return state


def playout(engine, state: dict[str, Any], me: int, rng: random.Random) -> float:
    """Play the round out with ``like_medium`` for every seat; my score for it: 1 for a win
    (½ for none), or with points scoring the others' points less mine."""
    round_no = state["round"]
    for _ in range(ROLLOUT_MOVES):
        if state["over"] or state["round"] != round_no:
            break
        seat = state["dealer"] if state["phase"] == "choose_suit" else state["turn"]
        engine.play(state, seat, like_medium(engine, state, seat, rng))
    else:
        return 0.5 if state["ruleset"]["scoring"] == "wins" else margin_now(state, me)
    last = state["last_round"]
    if state["ruleset"]["scoring"] == "wins":
        return 1.0 if last["winner"] == me else 0.0
    added = last["added"]
    return (sum(added) - len(added) * added[me]) / max(len(added) - 1, 1)


def margin_now(state: dict[str, Any], me: int) -> float:
    values = [hand_value(state["ruleset"], h) for h in state["hands"]]
    return (sum(values) - len(values) * values[me]) / max(len(values) - 1, 1)


def quick(engine, state: dict[str, Any], seat: int, rng: random.Random) -> Action:
    """A fast rule for every seat in a playout: answer a draw card when possible, else play
    the plain card of the suit held most, skips and draw cards when the next seat is close
    to going out, wild cards last, naming the suit held most; else draw, else pass."""
    rs = state["ruleset"]
    effects = rs["effects"]
    hand = state["hands"][seat]
    if state["phase"] == "choose_suit":
        return {"type": "choose_suit", "suit": quick_suit(hand, effects)}
    if state["pending"]:
        for card in hand:
            if engine._playable(state, seat, card):
                return quick_play(rs, hand, card)
        return {"type": "take"}
    playable = [c for c in hand if engine._playable(state, seat, c)]
    if playable:
        nxt = engine._next(state, seat)
        close = len(state["hands"][nxt]) <= 2
        lone = not rs["special_last_card"] and len(hand) == 2

        def value(card: str) -> float:
            effect = effect_of(effects, card)
            name = effect[0] if effect else ""
            if lone and is_special(effects, card):
                return 100
            if is_joker(card) or name == "wish":
                return -20 + rng.random()
            held = sum(1 for c in hand if not is_joker(c) and suit(c) == suit(card))
            v = held + rng.random() * 2
            if name in ("skip", "draw", "draw_skip"):
                v += 10 if close else -1
            return v

        return quick_play(rs, hand, max(playable, key=value))
    if engine.draw_problem(state, seat, {}) is None:
        return {"type": "draw"}
    return {"type": "pass"}


def quick_play(rs: dict[str, Any], hand: list[str], card: str) -> Action:
    action: Action = {"type": "play", "card": card}
    if effect_of(rs["effects"], card) == ("wish", 0):
        action["suit"] = quick_suit([c for c in hand if c != card], rs["effects"])
    if rs["knock_penalty"] and len(hand) == 2:
        action["knock"] = True
    return action


def quick_suit(cards: list[str], effects: dict[str, str]) -> str:
    counts = dict.fromkeys(SUITS, 0)
    for card in cards:
        if not is_joker(card) and effect_key(effects, card) is None:
            counts[suit(card)] += 1
    return max(SUITS, key=lambda s: counts[s])


def like_medium(engine, state: dict[str, Any], seat: int, rng: random.Random) -> Action:
    """A fast imitation of Medium (strategy.choose) on the whole state, for playouts: the
    same weights, reading only what the seat could see (its hand, the discards, the hand
    counts and the suits the next seat drew on)."""
    rs = state["ruleset"]
    effects = rs["effects"]
    hand = state["hands"][seat]
    nxt = engine._next(state, seat)
    lacks = state["drew_on"][nxt] if nxt != seat else ()
    if state["phase"] == "choose_suit":
        return {"type": "choose_suit", "suit": lacking_suit(hand, effects, lacks)}
    if state["pending"]:
        for card in hand:
            if engine._playable(state, seat, card):
                return medium_play(rs, hand, card, lacks)
        return {"type": "take"}
    playable = [c for c in hand if engine._playable(state, seat, c)]
    if not playable:
        if engine.draw_problem(state, seat, {}) is None:
            return {"type": "draw"}
        return {"type": "pass"}
    if len(playable) == 1:
        return medium_play(rs, hand, playable[0], lacks)
    value = medium_value(state, seat, nxt, lacks)
    return medium_play(rs, hand, max(playable, key=lambda c: value(c) + rng.random() * 0.01), lacks)


def medium_value(state: dict[str, Any], seat: int, nxt: int, lacks) -> Callable[[str], float]:
    """Medium's worth of playing each card of ``seat``'s hand (bigger is better), from what
    the seat could see."""
    rs = state["ruleset"]
    effects = rs["effects"]
    hand = state["hands"][seat]
    # The cards this seat has not seen: the other hands and the draw pile.
    others = [c for other, cards in enumerate(state["hands"]) if other != seat for c in cards]
    suits = dict.fromkeys(SUITS, 0)
    ranks: dict[str, int] = {}
    wild, unseen = 0, len(others) + len(state["stock"])
    for card in itertools.chain(others, state["stock"]):
        if is_wild(effects, card):
            wild += 1
        else:
            suits[card[-1]] += 1
            ranks[card[:-1]] = ranks.get(card[:-1], 0) + 1
    threat = len(state["hands"][nxt]) <= 2
    two = len(state["hands"]) == 2
    specials = sum(1 for c in hand if is_special(effects, c))
    lone = not rs["special_last_card"] and specials >= len(hand) - 1 and len(hand) >= 2
    points = rs["scoring"] == "points"
    per_card = len(state["hands"][nxt]) / unseen if unseen and nxt != seat else 0.0

    def value(card: str) -> float:
        rest_suits = [suit(c) for c in hand if c != card and not is_joker(c)]
        effect = effect_of(effects, card)
        name = effect[0] if effect else ""
        joker = is_joker(card)
        v = 100.0 if lone and is_special(effects, card) else 0.0
        if joker or name == "wish":
            v -= 40
            follow = lacking_suit([c for c in hand if c != card], effects, lacks)
        else:
            follow = suit(card)
            v += 3 * rest_suits.count(follow)
            v += sum(1 for c in hand if c != card and not is_joker(c) and c[:-1] == card[:-1])
            if follow in lacks:
                v += LACK_PLAY
        if name in ("skip", "draw", "draw_skip"):
            v += 25 if threat or two and name != "draw" else -4
        if name in ("", "wish", "reverse") and not joker:
            fitting = wild + ranks.get(card[:-1], 0)
            if follow not in lacks:
                fitting += suits[follow]
            v -= ANSWER_WEIGHT * per_card * fitting
        if name == "cover":
            covers = [
                c for c in hand if c != card and (suit(c) == suit(card) or rank(c) == rank(card))
            ]
            v += 2 if covers else -15
        if points:
            v += card_points(rs["values"], card) / 10
        return v

    return value


def medium_play(rs: dict[str, Any], hand: list[str], card: str, lacks) -> Action:
    action: Action = {"type": "play", "card": card}
    if effect_of(rs["effects"], card) == ("wish", 0):
        action["suit"] = lacking_suit([c for c in hand if c != card], rs["effects"], lacks)
    if rs["knock_penalty"] and len(hand) == 2:
        action["knock"] = True
    return action


def lacking_suit(cards: list[str], effects: dict[str, str], lacks) -> str:
    """Medium's suit to name: the suit held most of, better still one the next seat lacks."""
    return best_suit(cards, effects, set(lacks))


def is_wild(effects: dict[str, str], card: str) -> bool:
    return is_joker(card) or effect_of(effects, card) == ("wish", 0)
