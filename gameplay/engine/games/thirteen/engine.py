"""Thirteen (rules.md): 13 rounds of a rummy with a rising wild rank, 2–4 seats, 7 cards.

In round r the cards of rank r are wild (A in round 1 … K in round 13). A turn is ``draw``
(stock or discard pile), then ``discard`` or ``go_out`` (a discard that leaves the other 7
cards all in combinations). Nothing is laid on the table: the engine finds the best
arrangement of every hand with the exact meld solver (``gameplay/engine/melds.py``), both to
check going out and to score the others' leftover cards (rules.md §3, §6). Dealing, the pick
for who goes first, rebuilding the stock, scoring a round and the next deal happen inside
``apply``. ``turns`` keeps each seat's latest turn of the round (where it drew from, what it
took and threw), all of it seen by everyone.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from ... import melds
from ...cards import HIDDEN, deck, rank_number, rng, shuffled
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
    ranking_by,
    why_not,
)
from ...rummy import DrawDiscard, begin_turn
from ...text import say
from . import players, strategy
from .hands import goes_out, leftover, wild_name, wild_rank

ROUNDS = 13
HAND_SIZE = 7
MAX_REBUILDS = 2  # a third empty stock in a round ends it (rules.md §4)


def rounds(state: State) -> int:
    """The rounds the game lasts (games begun before the option played 13)."""
    return state["rules"].get("rounds", ROUNDS)


def first_player(cards: list[str], players: int) -> tuple[int, list[list[dict[str, Any]]]]:
    """Who goes first (rules.md §2): each seat takes a card in seat order; the lowest rank
    starts; seats tied for lowest take the next cards, in seat order, until one is lowest.
    Returns the seat and the picks, one list per pass. Should the cards run out on a tie, the
    lowest tied seat starts."""
    contenders = list(range(players))
    picks: list[list[dict[str, Any]]] = []
    at = 0
    while len(contenders) > 1 and at + len(contenders) <= len(cards):
        drawn = {s: cards[at + i] for i, s in enumerate(contenders)}
        at += len(contenders)
        picks.append([{"seat": s, "card": c} for s, c in drawn.items()])
        low = min(rank_number(c) for c in drawn.values())
        contenders = [s for s in contenders if rank_number(drawn[s]) == low]
    return contenders[0], picks


def deal(state: State, cards: list[str], picks: list[str]) -> list[Event]:
    """Deal the round from ``cards`` (index 0 on top): 7 each, one at a time from the dealer's
    left; the next card starts the discard pile; the rest is the stock. ``picks`` is the
    separate deck for who goes first."""
    n = state["players"]
    dealer = state["dealer"]
    hands: list[list[str]] = [[] for _ in range(n)]
    for i in range(HAND_SIZE * n):
        hands[(dealer + 1 + i) % n].append(cards[i])
    first, pick = first_player(picks, n)
    up = cards[HAND_SIZE * n]
    state.update(
        hands=hands,
        discard=[up],
        stock=list(cards[HAND_SIZE * n + 1 :]),
        first=first,
        pick=pick,
        turn=first,
        step="draw",
        taken=None,
        took=[[] for _ in range(n)],
        turns=[],
        rebuilds=0,
    )
    events: list[Event] = [
        {
            "type": "round_started",
            "round": state["round"],
            "wild": wild_name(state["round"]),
            "dealer": dealer,
            "first": first,
            "pick": [[dict(p) for p in step] for step in pick],
            "up_card": up,
        }
    ]
    for i in range(n):
        s = (dealer + 1 + i) % n
        events.append(
            {"type": "cards_dealt", "seat": s, "cards": list(hands[s]), "private": ["cards"]}
        )
    return events


def start_round(state: State) -> list[Event]:
    r = state["round"]
    seed = state["seed"]
    return deal(state, shuffled(deck(), seed, "deal", r), shuffled(deck(), seed, "first", r))


def meld_kind(meld: tuple[str, ...] | list[str], wild: int) -> str:
    naturals = {c[:-1] for c in meld if rank_number(c) != wild}
    return "set" if len(naturals) == 1 else "run"


class Thirteen(DrawDiscard):
    kind = "thirteen"
    title = say("Thirteen")
    first_win_card = "3D"
    real_game = RealGame(decisions=4, pace=6.0)  # a few draws and discards
    milestones = (
        Milestone(
            "thirteen-out",
            say("Going out"),
            say("Go out first in 10 rounds of Thirteen."),
            25,
            "fact_total",
            10,
            "10H",
            "bronze",
            "10",
            fact="rounds_out",
        ),
    )
    blurb = say("Seven cards, a new wild rank each round, 13 rounds (Quick: 3). Lowest total wins.")
    showcase = ("QC", "3S")
    not_your_turn = say("It is not your turn: wait for the other players.")
    strategy = strategy  # the computer player's Medium: choose() and describe(), for hints
    strengths = STRENGTHS

    def bot(
        self, view: dict[str, Any], legal: list[Action], rng_: random.Random, strength: str = MEDIUM
    ) -> Action:
        return players.bot(view, legal, rng_, strength)

    already_drawn = say("You have already drawn: discard a card, or go out.")
    min_players = 2
    max_players = 4
    rated = True
    options = (
        Option(
            "rounds",
            (ROUNDS, 7, 3),
            say("Game length"),
            say("Round r's wild rank is r; after the last round the lowest total wins."),
            (say("13 rounds"), say("Short: 7 rounds"), say("Quick: 3 rounds")),
        ),
    )
    quick = {"rounds": 3}
    records = (
        Record("rounds_out", say("Rounds gone out"), "sum"),
        Record("total", say("Lowest final total"), "min"),
    )

    # ---- setup ----------------------------------------------------------------------------

    def setup(self, players: int, seed: str, rules: dict[str, Any]) -> State:
        state: State = {
            "seed": seed,
            "players": players,
            "round": 1,
            "dealer": rng(seed, "first-dealer", 1).randrange(players),
            "reshuffles": 0,
            "totals": [0] * players,
            "sheet": [],
            "last_round": None,
            "over": False,
        }
        start_round(state)  # new_game returns no events
        return state

    # ---- turn -----------------------------------------------------------------------------

    @why_not("go_out")
    def go_out_problem(self, state: State, seat: int, action: Action) -> str | None:
        problem = self._card_problem(state, seat, action)
        if problem:
            return problem
        if not goes_out(melds.hand_mask(state["hands"][seat]), action["card"], state["round"]):
            return say("To go out, every card left after your discard must be in a combination.")
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
        going_out = []
        for card in hand:
            if card == state["taken"]:
                continue
            out.append({"type": "discard", "card": card})
            if goes_out(mask, card, state["round"]):
                going_out.append({"type": "go_out", "card": card})
        return out + going_out

    # ---- play -----------------------------------------------------------------------------

    @move("draw", "from")
    def draw(self, state: State, seat: int, action: Action) -> list[Event]:
        hand = state["hands"][seat]
        if action["from"] == "discard":
            card = state["discard"].pop()
            hand.append(card)
            state["taken"] = card
            state["took"][seat].append(card)
            state["step"] = "discard"
            begin_turn(state, seat, "discard")
            state["turns"][-1]["took"] = card
            return [{"type": "discard_taken", "seat": seat, "card": card}]
        events: list[Event] = []
        if not state["stock"]:
            if state["rebuilds"] >= MAX_REBUILDS:
                # rules.md §4: a third empty stock ends the round; everyone scores.
                events.append({"type": "stock_exhausted", "round": state["round"]})
                return events + self._end_round(state, None)
            events.append(self._rebuild(state))
        card = state["stock"].pop(0)
        hand.append(card)
        state["step"] = "discard"
        begin_turn(state, seat, "stock")
        events.append(
            {
                "type": "stock_drawn",
                "seat": seat,
                "card": card,
                "stock_left": len(state["stock"]),
                "private": ["card"],
            }
        )
        return events

    def _rebuild(self, state: State) -> Event:
        """All discards but the top, shuffled as they lie, become the stock (rules.md §4)."""
        state["rebuilds"] += 1
        state["reshuffles"] += 1
        under, top = state["discard"][:-1], state["discard"][-1:]
        state["stock"] = shuffled(under, state["seed"], "reshuffle", state["reshuffles"])
        state["discard"] = top
        state["turns"] = []  # the cards they threw are back in the stock
        return {
            "type": "stock_rebuilt",
            "round": state["round"],
            "rebuild": state["rebuilds"],
            "cards": len(state["stock"]),
        }

    def _throw(self, state: State, seat: int, card: str) -> None:
        state["hands"][seat].remove(card)
        if card in state["took"][seat]:
            state["took"][seat].remove(card)
        state["discard"].append(card)
        state["taken"] = None
        for turn in state["turns"]:
            if turn["seat"] == seat:
                turn["discarded"] = card

    @move("discard", "card")
    def discard(self, state: State, seat: int, action: Action) -> list[Event]:
        card = action["card"]
        self._throw(state, seat, card)
        state["turn"] = (seat + 1) % state["players"]
        state["step"] = "draw"
        return [{"type": "card_discarded", "seat": seat, "card": card}]

    @move("go_out", "card")
    def go_out(self, state: State, seat: int, action: Action) -> list[Event]:
        card = action["card"]
        self._throw(state, seat, card)
        events: list[Event] = [{"type": "went_out", "seat": seat, "card": card}]
        return events + self._end_round(state, seat)

    def _end_round(self, state: State, out: int | None) -> list[Event]:
        """Score the round (rules.md §6): the seat that went out adds 0, every other seat the
        least its leftover cards can be worth; then the next round or the end."""
        r = state["round"]
        wild = wild_rank(r)
        arrangements = [melds.arrange(hand, wild) for hand in state["hands"]]
        points = [0 if s == out else a.points for s, a in enumerate(arrangements)]
        for s, p in enumerate(points):
            state["totals"][s] += p
        entry = {
            "round": r,
            "wild": wild_name(r),
            "out": out,
            "points": points,
            "totals": list(state["totals"]),
        }
        state["sheet"].append(entry)
        state["last_round"] = {
            **entry,
            "discarded": state["discard"][-1] if out is not None else None,
            "hands": [
                {
                    "melds": [
                        {"kind": meld_kind(m, wild), "cards": list(m)} for m in arrangement.melds
                    ],
                    "leftover": list(arrangement.deadwood),
                    "leftover_points": arrangement.points,
                }
                for arrangement in arrangements
            ],
        }
        events: list[Event] = [
            {
                "type": "round_scored",
                **entry,
                "points": list(points),
                "reason": "out" if out is not None else "stock",
                "hands": [list(h) for h in state["hands"]],
            }
        ]
        if r == rounds(state):
            state["over"] = True
            result = self.result(state)
            events.append(
                {"type": "game_ended", "winners": result["winners"], "scores": result["scores"]}
            )
            return events
        state["round"] = r + 1
        state["dealer"] = (state["dealer"] + 1) % state["players"]
        return events + start_round(state)

    # ---- end ------------------------------------------------------------------------------

    def result(self, state: State) -> dict[str, Any]:
        totals = list(state["totals"])
        ranking = ranking_by(totals, higher_is_better=False)
        winners = ranking[0] if state["over"] and len(ranking[0]) == 1 else []
        return {"scores": totals, "winners": list(winners), "ranking": ranking}

    def facts(self, state: State, seat: int) -> dict[str, int]:
        sheet = state["sheet"]
        return {
            "won": int(self.result(state)["winners"] == [seat]),
            "total": state["totals"][seat],
            "rounds_out": sum(e["out"] == seat for e in sheet),
            "clean_rounds": sum(e["points"][seat] == 0 for e in sheet),
            "worst_round": max((e["points"][seat] for e in sheet), default=0),
        }

    # ---- what each seat sees --------------------------------------------------------------

    def visible_cards(self, state: State, seat: int | None) -> Counter[str]:
        seen = Counter(state["discard"])
        for s in range(state["players"]):
            seen.update(state["hands"][s] if s == seat else state["took"][s])
        for turn in state["turns"]:
            seen.update(c for c in (turn["took"], turn["discarded"]) if c)
        seen.update(p["card"] for step in state["pick"] for p in step)
        last = state["last_round"]
        if last:
            if last["discarded"]:
                seen[last["discarded"]] += 1
            for hand in last["hands"]:
                for meld in hand["melds"]:
                    seen.update(meld["cards"])
                seen.update(hand["leftover"])
        return seen

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        n = state["players"]
        mine = isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < n
        over = state["over"]
        discard = state["discard"]
        last = state["last_round"]
        view: dict[str, Any] = {
            "kind": self.kind,
            "seat": seat,
            "players": n,
            "round": state["round"],
            "rounds": rounds(state),
            "wild": wild_name(state["round"]),
            "dealer": state["dealer"],
            "first": state["first"],
            "pick": [[dict(p) for p in step] for step in state["pick"]],
            "turn": None if over else state["turn"],
            "step": None if over else state["step"],
            "to_act": self.to_act(state),
            "stock_count": len(state["stock"]),
            "rebuilds_left": MAX_REBUILDS - state["rebuilds"],
            "discard_top": discard[-1] if discard else None,
            "discard_pile": list(discard[:-1]),
            "seats": [
                {
                    "cards": len(state["hands"][s]),
                    "total": state["totals"][s],
                    "took": [] if mine and s == seat else list(state["took"][s]),
                    # A face-down card for each one the others can't name (your own: none).
                    "down": []
                    if mine and s == seat
                    else [HIDDEN] * (len(state["hands"][s]) - len(state["took"][s])),
                }
                for s in range(n)
            ],
            "turns": [dict(t) for t in state["turns"]],
            "totals": list(state["totals"]),
            "sheet": [
                dict(e, points=list(e["points"]), totals=list(e["totals"])) for e in state["sheet"]
            ],
            "last_round": None
            if last is None
            else {
                **last,
                "points": list(last["points"]),
                "totals": list(last["totals"]),
                "hands": [
                    {
                        "melds": [
                            {"kind": m["kind"], "cards": list(m["cards"])} for m in hand["melds"]
                        ],
                        "leftover": list(hand["leftover"]),
                        "leftover_points": hand["leftover_points"],
                    }
                    for hand in last["hands"]
                ],
            },
            "over": over,
            "result": self.result(state) if over else None,
        }
        if mine:
            view["you"] = self._you(state, seat)
        return view

    def _you(self, state: State, seat: int) -> dict[str, Any]:
        hand = state["hands"][seat]
        wild = wild_rank(state["round"])
        arrangement = melds.arrange(hand, wild)
        order = [c for m in arrangement.melds for c in m] + list(arrangement.deadwood)
        meld_of = {c: i for i, m in enumerate(arrangement.melds) for c in m}
        discarding = not state["over"] and state["turn"] == seat and state["step"] == "discard"
        mask = melds.hand_mask(hand)
        drawn = hand[-1] if discarding else None
        items = []
        for card in order:
            after = leftover(mask & ~melds.CARD_BIT[card], wild) if discarding else None
            items.append(
                {
                    "card": card,
                    "meld": meld_of.get(card),
                    "wild": rank_number(card) == wild,
                    "drawn": card == drawn,
                    "keep": card == state["taken"],  # just taken: it can't be thrown back
                    "known": card in state["took"][seat],  # the others saw it taken
                    "after": after,  # leftover points if this card is discarded now
                    "can_go_out": after == 0 and card != state["taken"],
                }
            )
        start = 0
        meld_list = []
        for m in arrangement.melds:
            meld_list.append(
                {"kind": meld_kind(m, wild), "positions": list(range(start, start + len(m)))}
            )
            start += len(m)
        return {
            "hand": items,
            "melds": meld_list,
            "leftover": arrangement.points,
            "leftover_cards": len(arrangement.deadwood),
            "your_turn": not state["over"] and state["turn"] == seat,
            "step": state["step"] if not state["over"] and state["turn"] == seat else None,
        }


ENGINE = Thirteen()
