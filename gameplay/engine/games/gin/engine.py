"""Gin Rummy (rules.md): two seats, 10 cards each, first to 100.

A turn is ``draw`` (from the stock or the discard pile), then ``discard`` or ``knock`` (a
discard that ends the hand, legal at 10 or less deadwood). The engine arranges every hand
itself with the exact meld solver (``gameplay/engine/melds.py``): the knocker's melds, the
defender's melds and lay-offs are all computed (rules.md §3, §4). Dealing, scoring a hand,
the draw when the stock is down to 2 and the next deal happen inside ``apply``.

``took[s]`` lists the cards seat ``s`` took from the discard pile this hand and still holds:
everyone saw them taken, so every view shows them. ``turns`` keeps each seat's latest turn of
this hand (where it drew from, what it took and threw), all of it seen by everyone.
``moves[s]`` keeps every turn seat ``s`` took this hand, in order, as ``[took, passed,
discarded]``: the card it took from the discard pile, or the top discard it left for the
stock, and the card it threw (None where there is none). The table saw all of it, and the
computer players read it (a card passed on or thrown away is a card that seat had no use for).
``last_hand`` keeps the previous hand with both hands revealed and arranged, for the table to
show until the next one ends.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from ... import melds
from ...cards import HIDDEN, deck, rng, shuffled
from ...core import (
    MEDIUM,
    STRENGTHS,
    Action,
    Event,
    Milestone,
    Option,
    RealGame,
    Record,
    State,
    move,
    why_not,
)
from ...rummy import DrawDiscard, begin_turn
from ...text import say
from . import players, strategy

TARGET = 100
KNOCK_LIMIT = 10
GIN_BONUS = 25

UNDERCUT_BONUS = 25
HAND_SIZE = 10
STOCK_FLOOR = 2  # a discard that leaves this many cards or fewer in the stock draws the hand


def target(state: State) -> int:
    """The points that win (games begun before the option played to 100)."""
    return state["rules"].get("target", TARGET)


def deal(state: State, cards: list[str]) -> list[Event]:
    """Deal a hand from ``cards`` (index 0 on top): 10 each, one at a time from the
    non-dealer; the next card starts the discard pile, the rest is the stock (rules.md §2)."""
    dealer = state["dealer"]
    first = 1 - dealer
    hands: list[list[str]] = [[], []]
    for i in range(2 * HAND_SIZE):
        hands[(first + i) % 2].append(cards[i])
    state.update(
        hands=hands,
        discard=[cards[2 * HAND_SIZE]],
        stock=list(cards[2 * HAND_SIZE + 1 :]),
        turn=first,
        step="draw",
        taken=None,
        took=[[], []],
        moves=[[], []],
        turns=[],
    )
    state["hand_no"] += 1
    events: list[Event] = [
        {
            "type": "hand_dealt",
            "hand_no": state["hand_no"],
            "dealer": dealer,
            "first": first,
            "up_card": cards[2 * HAND_SIZE],
        }
    ]
    for s in (first, dealer):
        events.append(
            {"type": "cards_dealt", "seat": s, "cards": list(hands[s]), "private": ["cards"]}
        )
    return events


def next_deal(state: State) -> list[Event]:
    state["deal_no"] += 1
    return deal(state, shuffled(deck(), state["seed"], "deal", state["deal_no"]))


NONE_YET = ([], [])  # ``moves`` of a state cached before they were kept


def meld_kind(meld: tuple[str, ...] | list[str]) -> str:
    return "set" if len({card[:-1] for card in meld}) == 1 else "run"


def shown(arrangement: melds.Arrangement) -> dict[str, Any]:
    """An arrangement as a view shows it at the end of a hand."""
    return {
        "melds": [{"kind": meld_kind(m), "cards": list(m)} for m in arrangement.melds],
        "laid_off": [],
        "deadwood": list(arrangement.deadwood),
        "deadwood_points": arrangement.points,
    }


def score(knocker_points: int, defender_points: int) -> tuple[str, bool, int]:
    """(outcome, knocker wins?, points) for K and D (rules.md §6)."""
    if knocker_points == 0:
        return "gin", True, GIN_BONUS + defender_points
    if defender_points <= knocker_points:
        return "undercut", False, knocker_points - defender_points + UNDERCUT_BONUS
    return "knock", True, defender_points - knocker_points


class Gin(DrawDiscard):
    kind = "gin"
    title = say("Gin Rummy")
    first_win_card = "4C"
    real_game = RealGame(decisions=6, pace=6.0)  # six of the person's own draws, discards or knocks
    milestones = (
        Milestone(
            "gin-gin",
            say("Gin!"),
            say("Win a hand of Gin Rummy by going gin."),
            25,
            "fact_total",
            1,
            "6C",
            "bronze",
            say("Gin"),
            fact="gins",
        ),
        Milestone(
            "gin-undercut",
            say("Undercut"),
            say("Win a hand of Gin Rummy with an undercut."),
            25,
            "fact_total",
            1,
            "JC",
            "bronze",
            say("Undercut"),
            fact="undercuts",
        ),
    )
    blurb = say("Meld sets and runs, knock low, and go Gin. First to 100 (Quick: 25).")
    showcase = ("7D", "8D")
    not_your_turn = say("It is not your turn: the other player is playing.")
    strategy = strategy  # the computer player's Medium: choose() and describe(), for hints
    already_drawn = say("You have already drawn: discard a card, or knock.")
    min_players = 2
    max_players = 2
    rated = True
    strengths = STRENGTHS
    # docs/computer-players-rummy-shedding.md, at 177 points a logit (docs/ratings.md): Easy
    # scores 19.3% against Medium (≈ −250), Hard 55.5% (+39), Expert 67.0% against Medium
    # (+125) and 65.0% against Hard (+110 over Hard's 1540).
    ladder = {"easy": 1250, "medium": 1500, "hard": 1540, "expert": 1635}
    options = (
        Option(
            "target",
            (TARGET, 50, 25),
            say("Game length"),
            say("The first player to reach this many points wins."),
            (say("First to 100"), say("Short: first to 50"), say("Quick: first to 25")),
        ),
    )
    quick = {"target": 25}
    records = (
        Record("gins", say("Gins"), "sum"),
        Record("undercuts", say("Undercuts"), "sum"),
        Record("hands_won", say("Hands won"), "sum"),
        Record("best_hand", say("Most points in one hand"), "max"),
    )

    # ---- setup ----------------------------------------------------------------------------

    def bot(
        self, view: dict[str, Any], legal: list[Action], rng_: random.Random, strength: str = MEDIUM
    ) -> Action:
        return players.bot(view, legal, rng_, strength)

    def setup(self, players: int, seed: str, rules: dict[str, Any]) -> State:
        state: State = {
            "seed": seed,
            "dealer": rng(seed, "first-dealer", 1).randrange(2),
            "deal_no": 0,
            "hand_no": 0,
            "scores": [0, 0],
            "sheet": [],
            "draws": 0,
            "last_hand": None,
            "over": False,
            "winner": None,
        }
        next_deal(state)  # new_game returns no events
        return state

    # ---- turn -----------------------------------------------------------------------------

    @why_not("knock")
    def knock_problem(self, state: State, seat: int, action: Action) -> str | None:
        problem = self._card_problem(state, seat, action)
        if problem:
            return problem
        left = melds.hand_mask(state["hands"][seat]) & ~melds.CARD_BIT[action["card"]]
        points = melds.deadwood_mask(left)
        if points > KNOCK_LIMIT:
            return say(
                "You can knock only with {knock_limit} or less deadwood; after that discard you would have {points}.",
                knock_limit=KNOCK_LIMIT,
                points=points,
            )
        return None

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if state["over"] or seat != state["turn"]:
            return []
        if state["step"] == "draw":
            out = [{"type": "draw", "from": "stock"}]
            if state["discard"]:
                out.append({"type": "draw", "from": "discard"})
            return out
        hand = state["hands"][seat]
        mask = melds.hand_mask(hand)
        out = []
        knocks = []
        for card in hand:
            if card == state["taken"]:
                continue
            out.append({"type": "discard", "card": card})
            if melds.deadwood_mask(mask & ~melds.CARD_BIT[card]) <= KNOCK_LIMIT:
                knocks.append({"type": "knock", "card": card})
        return out + knocks

    # ---- play -----------------------------------------------------------------------------

    @move("draw", "from")
    def draw(self, state: State, seat: int, action: Action) -> list[Event]:
        hand = state["hands"][seat]
        state["step"] = "discard"
        begin_turn(state, seat, action["from"])
        moves = state.setdefault("moves", [[], []])[seat]
        if action["from"] == "stock":
            moves.append([None, state["discard"][-1] if state["discard"] else None, None])
            card = state["stock"].pop(0)
            hand.append(card)
            return [
                {
                    "type": "stock_drawn",
                    "seat": seat,
                    "card": card,
                    "stock_left": len(state["stock"]),
                    "private": ["card"],
                }
            ]
        card = state["discard"].pop()
        moves.append([card, None, None])
        hand.append(card)
        state["taken"] = card
        state["took"][seat].append(card)
        state["turns"][-1]["took"] = card
        return [{"type": "discard_taken", "seat": seat, "card": card}]

    def _throw(self, state: State, seat: int, card: str) -> None:
        state["hands"][seat].remove(card)
        if card in state["took"][seat]:
            state["took"][seat].remove(card)
        state["discard"].append(card)
        moves = state.get("moves", NONE_YET)[seat]
        if moves:
            moves[-1][2] = card
        state["taken"] = None
        for turn in state["turns"]:
            if turn["seat"] == seat:
                turn["discarded"] = card

    @move("discard", "card")
    def discard(self, state: State, seat: int, action: Action) -> list[Event]:
        card = action["card"]
        self._throw(state, seat, card)
        events: list[Event] = [{"type": "card_discarded", "seat": seat, "card": card}]
        if len(state["stock"]) <= STOCK_FLOOR:
            # rules.md §4: a hand whose stock is down to 2 is a draw; the same dealer deals.
            state["draws"] += 1
            state["last_hand"] = {
                "hand_no": state["hand_no"],
                "outcome": "draw",
                "knocker": None,
                "winner": None,
                "points": 0,
                "discarded": card,
                "hands": [shown(melds.arrange(h)) for h in state["hands"]],
            }
            events.append(
                {
                    "type": "hand_drawn",
                    "hand_no": state["hand_no"],
                    "stock_left": len(state["stock"]),
                    "hands": [list(h) for h in state["hands"]],
                }
            )
            return events + next_deal(state)
        state["turn"] = 1 - seat
        state["step"] = "draw"
        return events

    @move("knock", "card")
    def knock(self, state: State, seat: int, action: Action) -> list[Event]:
        card = action["card"]
        self._throw(state, seat, card)
        defender = 1 - seat
        knocker_hand = state["hands"][seat]
        defender_hand = state["hands"][defender]
        chosen, outcome = settle(knocker_hand, defender_hand)
        knocker_points = chosen.points
        defender_points = outcome.points
        kind, knocker_wins, points = score(knocker_points, defender_points)
        winner = seat if knocker_wins else defender
        state["scores"][winner] += points
        entry = {
            "hand_no": state["hand_no"],
            "outcome": kind,
            "knocker": seat,
            "winner": winner,
            "points": points,
            "deadwood": [knocker_points, defender_points]
            if seat == 0
            else [defender_points, knocker_points],
            "scores": list(state["scores"]),
        }
        state["sheet"].append(entry)
        hands: list[dict[str, Any]] = [{}, {}]
        hands[seat] = shown(chosen)
        hands[defender] = {
            "melds": [{"kind": meld_kind(m), "cards": list(m)} for m in outcome.melds],
            "laid_off": [{"card": c, "on": on} for c, on in outcome.laid_off],
            "deadwood": list(outcome.deadwood),
            "deadwood_points": defender_points,
        }
        state["last_hand"] = {**entry, "discarded": card, "hands": hands}
        events: list[Event] = [
            {
                "type": "knocked",
                "seat": seat,
                "card": card,
                "deadwood": knocker_points,
                "gin": knocker_points == 0,
            },
            {
                "type": "hand_scored",
                **entry,
                "hands": [list(knocker_hand), list(defender_hand)]
                if seat == 0
                else [list(defender_hand), list(knocker_hand)],
            },
        ]
        if state["scores"][winner] >= target(state):
            state["over"] = True
            state["winner"] = winner
            events.append(
                {"type": "game_ended", "winners": [winner], "scores": list(state["scores"])}
            )
            return events
        state["dealer"] = 1 - state["dealer"]
        return events + next_deal(state)

    # ---- end ------------------------------------------------------------------------------

    def result(self, state: State) -> dict[str, Any]:
        scores = list(state["scores"])
        if state["winner"] is not None:
            w = state["winner"]
            return {"scores": scores, "winners": [w], "ranking": [[w], [1 - w]]}
        if scores[0] == scores[1]:
            return {"scores": scores, "winners": [], "ranking": [[0, 1]]}
        lead = 0 if scores[0] > scores[1] else 1
        return {"scores": scores, "winners": [], "ranking": [[lead], [1 - lead]]}

    def facts(self, state: State, seat: int) -> dict[str, int]:
        sheet = state["sheet"]
        won = [e for e in sheet if e["winner"] == seat]
        return {
            "won": int(state["winner"] == seat),
            "points": state["scores"][seat],
            "hands_won": len(won),
            "gins": sum(e["outcome"] == "gin" for e in won),
            "undercuts": sum(e["outcome"] == "undercut" for e in won),
            "knocks": sum(e["knocker"] == seat for e in sheet),
            "undercut_against": sum(
                e["outcome"] == "undercut" and e["knocker"] == seat for e in sheet
            ),
            "best_hand": max((e["points"] for e in won), default=0),
        }

    # ---- what each seat sees --------------------------------------------------------------

    def visible_cards(self, state: State, seat: int | None) -> Counter[str]:
        seen = Counter(state["discard"])
        for s in range(2):
            if s == seat:
                seen.update(state["hands"][s])
            else:
                seen.update(state["took"][s])
        for turn in state["turns"]:
            seen.update(c for c in (turn["took"], turn["discarded"]) if c)
        for s in range(2):
            for move_ in state.get("moves", NONE_YET)[s]:
                seen.update(c for c in move_ if c)
        last = state["last_hand"]
        if last:
            seen[last["discarded"]] += 1
            for hand in last["hands"]:
                for meld in hand["melds"]:
                    seen.update(meld["cards"])
                seen.update(item["card"] for item in hand["laid_off"])
                seen.update(hand["deadwood"])
        return seen

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        mine = isinstance(seat, int) and not isinstance(seat, bool) and seat in (0, 1)
        over = state["over"]
        discard = state["discard"]
        view: dict[str, Any] = {
            "kind": self.kind,
            "seat": seat,
            "players": 2,
            "hand_no": state["hand_no"],
            "dealer": state["dealer"],
            "turn": None if over else state["turn"],
            "step": None if over else state["step"],
            "to_act": self.to_act(state),
            "stock_count": len(state["stock"]),
            "discard_top": discard[-1] if discard else None,
            "discard_pile": list(discard[:-1]),
            "seats": [
                {
                    "cards": len(state["hands"][s]),
                    "score": state["scores"][s],
                    "took": [] if mine and s == seat else list(state["took"][s]),
                    # A face-down card for each one the others can't name (your own: none).
                    "down": []
                    if mine and s == seat
                    else [HIDDEN] * (len(state["hands"][s]) - len(state["took"][s])),
                    "moves": [list(m) for m in state.get("moves", NONE_YET)[s]],
                }
                for s in range(2)
            ],
            "turns": [dict(t) for t in state["turns"]],
            "scores": list(state["scores"]),
            "target": target(state),
            "knock_limit": KNOCK_LIMIT,
            "sheet": [
                dict(e, deadwood=list(e["deadwood"]), scores=list(e["scores"]))
                for e in state["sheet"]
            ],
            "draws": state["draws"],
            "last_hand": _copy_last(state["last_hand"]),
            "over": over,
            "winner": state["winner"],
            "result": self.result(state) if over else None,
        }
        if mine:
            view["you"] = self._you(state, seat)
        return view

    def _you(self, state: State, seat: int) -> dict[str, Any]:
        hand = state["hands"][seat]
        arrangement = melds.arrange(hand)
        order = [c for m in arrangement.melds for c in m] + list(arrangement.deadwood)
        meld_of = {c: i for i, m in enumerate(arrangement.melds) for c in m}
        discarding = not state["over"] and state["turn"] == seat and state["step"] == "discard"
        mask = melds.hand_mask(hand)
        drawn = hand[-1] if discarding else None
        items = []
        for card in order:
            after = melds.deadwood_mask(mask & ~melds.CARD_BIT[card]) if discarding else None
            items.append(
                {
                    "card": card,
                    "meld": meld_of.get(card),
                    "drawn": card == drawn,
                    "keep": card == state["taken"],  # just taken: it can't be thrown back
                    "known": card in state["took"][seat],  # the opponent saw it taken
                    "after": after,  # deadwood if this card is discarded now
                    "can_knock": after is not None
                    and after <= KNOCK_LIMIT
                    and card != state["taken"],
                }
            )
        start = 0
        meld_list = []
        for m in arrangement.melds:
            meld_list.append(
                {"kind": meld_kind(m), "positions": list(range(start, start + len(m)))}
            )
            start += len(m)
        return {
            "hand": items,
            "melds": meld_list,
            "deadwood": arrangement.points,
            "deadwood_cards": len(arrangement.deadwood),
            "your_turn": not state["over"] and state["turn"] == seat,
            "step": state["step"] if not state["over"] and state["turn"] == seat else None,
        }


def settle(knocker: list[str], defender: list[str]) -> tuple[melds.Arrangement, melds.LayOff]:
    """The knocker's arrangement and the defender's melds and lay-offs (rules.md §3, §4).

    The knocker's least-deadwood arrangement; among ties, the one leaving the defender the
    most deadwood after lay-offs, then the first in canonical order. Gin allows no lay-offs:
    the defender only melds its own cards."""
    options = melds.best_arrangements(knocker)
    defender_mask = melds.hand_mask(defender)
    if options[0].points == 0:
        own = melds.arrange_mask(defender_mask)
        return options[0], melds.LayOff(own.melds, (), own.deadwood, own.points)
    best = None
    for arrangement in options:
        outcome = melds.lay_off_mask(defender_mask, arrangement.melds)
        if best is None or outcome.points > best[1].points:
            best = (arrangement, outcome)
    return best


def _copy_last(last: dict[str, Any] | None) -> dict[str, Any] | None:
    if last is None:
        return None
    out = dict(last)
    for key in ("deadwood", "scores"):
        if key in out:
            out[key] = list(out[key])
    out["hands"] = [
        {
            "melds": [{"kind": m["kind"], "cards": list(m["cards"])} for m in hand["melds"]],
            "laid_off": [dict(item) for item in hand["laid_off"]],
            "deadwood": list(hand["deadwood"]),
            "deadwood_points": hand["deadwood_points"],
        }
        for hand in last["hands"]
    ]
    return out


ENGINE = Gin()
