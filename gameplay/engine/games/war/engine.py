"""War (rules.md): 2-4 players split 54 cards; the highest flip takes the pot.

A round is one battle with every war it causes. Each stage is simultaneous: every seat in
the stage sends ``flip``; nothing is taken from a pile until the last one arrives, then the
cards are turned in seat order. A war stage puts one card face down and one face up per seat.

The pot is a list of ``{"seat", "card", "up", "stage"}`` in pot order (stage by stage, seat by
seat, a war seat's face-down card before its face-up card). Face-down cards show as "??" until
the pot is collected or set aside; then the whole pot is revealed in the event and in
``last_round``.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from ...cards import HIDDEN, deck, is_joker, rank_number, shuffled
from ...core import (
    MEDIUM,
    Action,
    Engine,
    Event,
    Milestone,
    Option,
    RealGame,
    State,
    move,
    ranking_by,
    submit,
    waiting,
    why_not,
)
from ...text import say

MAX_ROUNDS = 400  # the default game length
FLIP: Action = {"type": "flip"}


def card_value(card: str) -> int:
    """2 < 3 < ... < 10 < J < Q < K < A < joker; the two jokers are equal."""
    if is_joker(card):
        return 15
    number = rank_number(card)
    return 14 if number == 1 else number


def deal(cards: list[str], players: int) -> tuple[list[list[str]], list[str]]:
    """Deal one at a time round-robin from seat 0 until each seat has 54 // players cards.

    Every card goes to the bottom of its pile, so a seat's first card dealt is its first
    flip. Whatever is left (2 cards with 4 players) is set aside face down.
    """
    each = len(cards) // players
    piles: list[list[str]] = [[] for _ in range(players)]
    for i, card in enumerate(cards[: each * players]):
        piles[i % players].append(card)
    return piles, list(cards[each * players :])


class War(Engine):
    kind = "war"
    title = say("War")
    first_win_card = "4H"
    real_game = RealGame(
        decisions=0, pace=1.5, natural_end=True, seconds=30
    )  # no choices: the natural end, reached with the person flipping at the table
    milestones = (
        Milestone(
            "war-10",
            say("War veteran"),
            say("Win 10 games of War."),
            25,
            "wins",
            10,
            "KC",
            "bronze",
            "10",
        ),
    )
    blurb = say("Flip, compare, and go to WAR on a tie. Jokers beat everything.")
    showcase = ("JK1", "AS")
    min_players = 2
    max_players = 4
    options = (
        Option(
            "rounds",
            (MAX_ROUNDS, 100, 50),
            say("Game length"),
            say("After this many rounds the biggest pile wins (equal piles share the win)."),
            (say("400 rounds"), say("Short: 100 rounds"), say("Quick: 50 rounds")),
        ),
    )
    quick = {"rounds": 50}

    # ---- setup ----------------------------------------------------------------------------

    def setup(self, players: int, seed: str, rules: dict[str, Any]) -> State:
        piles, set_aside = deal(shuffled(deck(jokers=2), seed, "deal", 1), players)
        return {
            "piles": piles,
            "set_aside": set_aside,
            "pot": [],
            "round": 1,
            "stage": 0,
            "stage_seats": list(range(players)),
            "submitted": {},
            "out_round": [None] * players,
            "last_round": None,
            "over": False,
            "end": None,
        }

    # ---- turn -----------------------------------------------------------------------------

    def to_act(self, state: State) -> list[int]:
        if state["over"]:
            return []
        return waiting(state, state["stage_seats"])

    @why_not("flip")
    def flip_problem(self, state: State, seat: Any, action: Action = FLIP) -> str | None:
        if state["over"]:
            return say("The game is over.")
        if not isinstance(seat, int) or isinstance(seat, bool):
            return say("There is no such seat at this table.")
        if not 0 <= seat < len(state["piles"]):
            return say("There is no such seat at this table.")
        if state["out_round"][seat] is not None:
            return say("You are out of cards.")
        if seat not in state["stage_seats"]:
            return say("You are not in this war; wait for it to be settled.")
        if str(seat) in state["submitted"]:
            return say("You have already flipped. Waiting for the others.")
        return None

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        return self.allowed(state, seat, [dict(FLIP)])

    # ---- play -----------------------------------------------------------------------------

    @move("flip")
    def flip(self, state: State, seat: int, action: Action) -> list[Event]:
        if not submit(state, seat, FLIP, state["stage_seats"]):
            return [{"type": "flip_ready", "seat": seat, "round": state["round"]}]
        events: list[Event] = []
        self._turn_cards(state, events)
        return events

    def _turn_cards(self, state: State, events: list[Event]) -> None:
        """Everyone in the stage has flipped: turn the cards in seat order and compare."""
        war = state["stage"] > 0
        up: dict[int, str] = {}
        for s in state["stage_seats"]:
            pile = state["piles"][s]
            if war:
                self._to_pot(state, s, pile.pop(0), up=False)
            card = pile.pop(0)
            self._to_pot(state, s, card, up=True)
            up[s] = card
            event: Event = {"type": "card_flipped", "seat": s, "card": card, "war": war}
            if war:
                event["face_down"] = 1
            event["cards_left"] = len(pile)
            events.append(event)
        if war:
            # A seat that dropped out of this war left its card in its seat-order place.
            pot = state["pot"]
            first = next(i for i, e in enumerate(pot) if e["stage"] == state["stage"])
            pot[first:] = sorted(pot[first:], key=lambda e: e["seat"])
        best = max(card_value(c) for c in up.values())
        tied = [s for s in sorted(up) if card_value(up[s]) == best]
        if len(tied) == 1:
            self._end_round(state, tied[0], events)
            return
        self._start_war(state, tied, events)

    def _start_war(self, state: State, tied: list[int], events: list[Event]) -> None:
        state["stage"] += 1
        events.append(
            {"type": "war_declared", "seats": tied, "round": state["round"], "war": state["stage"]}
        )
        fighting = []
        for s in tied:
            pile = state["piles"][s]
            if len(pile) >= 2:
                fighting.append(s)
                continue
            # Fewer than 2 cards: out at once; a last card goes in face down (rules.md §4).
            event = {"type": "player_out", "seat": s, "round": state["round"], "reason": "war"}
            event["face_down"] = len(pile)
            for card in pile:
                self._to_pot(state, s, card, up=False)
            pile.clear()
            state["out_round"][s] = state["round"]
            events.append(event)
        if len(fighting) >= 2:
            state["stage_seats"] = fighting
            return
        self._end_round(state, fighting[0] if fighting else None, events)

    def _to_pot(self, state: State, seat: int, card: str, up: bool) -> None:
        state["pot"].append({"seat": seat, "card": card, "up": up, "stage": state["stage"]})

    def _end_round(self, state: State, winner: int | None, events: list[Event]) -> None:
        round_no = state["round"]
        pot = state["pot"]
        cards = [entry["card"] for entry in pot]
        if winner is None:
            state["set_aside"].extend(cards)
            events.append({"type": "pot_set_aside", "cards": cards, "round": round_no})
        else:
            state["piles"][winner].extend(cards)
            events.append({"type": "pot_won", "seat": winner, "cards": cards, "round": round_no})
        state["last_round"] = {
            "round": round_no,
            "winner": winner,
            "wars": state["stage"],
            "pot": pot,
        }
        state["pot"] = []
        for s, pile in enumerate(state["piles"]):
            if state["out_round"][s] is None and not pile:
                state["out_round"][s] = round_no
                events.append(
                    {"type": "player_out", "seat": s, "round": round_no, "reason": "no_cards"}
                )
        alive = self._alive(state)
        state["stage"] = 0
        if len(alive) <= 1 or round_no >= self._rounds(state):
            state["over"] = True
            state["end"] = "last_player" if len(alive) == 1 else "all_out" if not alive else "cap"
            state["stage_seats"] = []
            result = self.result(state)
            events.append(
                {
                    "type": "game_ended",
                    "reason": state["end"],
                    "winners": result["winners"],
                    "scores": result["scores"],
                }
            )
            return
        state["round"] = round_no + 1
        state["stage_seats"] = alive

    @staticmethod
    def _rounds(state: State) -> int:
        # A game dealt before the option existed plays the full length.
        return state["rules"].get("rounds", MAX_ROUNDS)

    @staticmethod
    def _alive(state: State) -> list[int]:
        return [s for s, r in enumerate(state["out_round"]) if r is None]

    # ---- end ------------------------------------------------------------------------------

    def is_over(self, state: State) -> bool:
        return state["over"]

    def result(self, state: State) -> dict[str, Any]:
        scores = [len(pile) for pile in state["piles"]]
        alive = self._alive(state)
        winners: list[int] = []
        if state["over"] and alive:
            best = max(scores[s] for s in alive)
            winners = [s for s in alive if scores[s] == best]
        ranking = ranking_by(scores, alive) if alive else []
        out_rounds = sorted({r for r in state["out_round"] if r is not None}, reverse=True)
        ranking += [[s for s, r in enumerate(state["out_round"]) if r == o] for o in out_rounds]
        return {"scores": scores, "winners": winners, "ranking": ranking}

    # ---- what each seat sees --------------------------------------------------------------

    def visible_cards(self, state: State, seat: int | None) -> Counter[str]:
        # Everyone sees the same: face-up pot cards and the last settled pot, all revealed.
        seen = Counter(entry["card"] for entry in state["pot"] if entry["up"])
        if state["last_round"]:
            seen.update(entry["card"] for entry in state["last_round"]["pot"])
        return seen

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        players = len(state["piles"])
        to_act = self.to_act(state)
        war = state["stage"] > 0 and not state["over"]
        out_rounds = sorted({r for r in state["out_round"] if r is not None})
        last = state["last_round"]
        view: dict[str, Any] = {
            "kind": self.kind,
            "players": players,
            "seat": seat,
            "round": state["round"],
            "max_rounds": self._rounds(state),
            "pile_counts": [len(pile) for pile in state["piles"]],
            "out": [r is not None for r in state["out_round"]],
            "out_round": list(state["out_round"]),
            "eliminated": [
                {"round": o, "seats": [s for s, r in enumerate(state["out_round"]) if r == o]}
                for o in out_rounds
            ],
            "set_aside_count": len(state["set_aside"]),
            "pot": [
                {
                    "seat": e["seat"],
                    "card": e["card"] if e["up"] else HIDDEN,
                    "up": e["up"],
                    "stage": e["stage"],
                }
                for e in state["pot"]
            ],
            "pot_count": len(state["pot"]),
            "stage": {
                "war": war,
                "number": state["stage"],
                "seats": list(state["stage_seats"]),
                "flipped": [s for s in state["stage_seats"] if str(s) in state["submitted"]],
                "waiting": to_act,
            },
            "war_between": list(state["stage_seats"]) if war else [],
            "to_act": to_act,
            "last_round": None
            if last is None
            else {
                "round": last["round"],
                "winner": last["winner"],
                "set_aside": last["winner"] is None,
                "wars": last["wars"],
                "pot": [dict(e) for e in last["pot"]],
            },
            "over": state["over"],
            "end": state["end"],
            "result": self.result(state) if state["over"] else None,
        }
        if seat is not None and isinstance(seat, int) and 0 <= seat < players:
            view["you"] = {
                "pile_count": len(state["piles"][seat]),
                "out": state["out_round"][seat] is not None,
                "must_flip": seat in to_act,
                "flipped": str(seat) in state["submitted"],
                "in_war": war and seat in state["stage_seats"],
            }
        return view

    # ---- the computer player --------------------------------------------------------------

    def bot(
        self, view: dict[str, Any], legal: list[Action], rng: random.Random, strength: str = MEDIUM
    ) -> Action:
        # No decisions in War: flip at once.
        return dict(legal[0])


ENGINE = War()
