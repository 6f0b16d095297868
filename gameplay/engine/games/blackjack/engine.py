"""Blackjack (rules.md): 1–4 seats against the house dealer, a 2-deck shoe.

A round: the reshuffle check, simultaneous bets, the deal, the dealer's peek, player
blackjacks paid, each seat plays its hand (hit / stand / double) in seat order, the dealer
plays, every open hand is settled, and the table goes to the discard tray. The dealer is the
house: it is not a seat and everything it does happens inside ``apply``.

The small functions at the top (totals, the dealer's drawing rule, settlement, the 3:2 payout)
are the rules themselves; the engine and bench/blackjack_ev.py both use them.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

from ...cards import HIDDEN, deck, rank, shuffled
from ...core import (
    MEDIUM,
    STRENGTHS,
    Action,
    Engine,
    Event,
    Milestone,
    RealGame,
    Record,
    State,
    move,
    ranking_by,
    submit,
    waiting,
    why_not,
)
from ...text import say
from . import players

BETS = (5, 10, 25, 50)
MIN_BET = BETS[0]
START_CHIPS = 100
DECKS = 2
SHOE_SIZE = 52 * DECKS
RESHUFFLE_BELOW = SHOE_SIZE // 4  # fewer than 26 cards left when a round starts
DEALER_STANDS_ON = 17

WIN, LOSE, PUSH, BLACKJACK = "win", "lose", "push", "blackjack"


# ---- the rules as functions ----------------------------------------------------------------


def card_value(card: str) -> int:
    """A = 1 (the total decides whether it counts 11), 2–10 face value, J/Q/K = 10."""
    r = rank(card)
    if r == "A":
        return 1
    if r in ("J", "Q", "K"):
        return 10
    return int(r)


def hand_total(cards: list[str]) -> tuple[int, bool]:
    """(total, soft?): every A counts 1; with an A and sum + 10 <= 21 the total is sum + 10
    and the hand is soft."""
    hard = sum(card_value(c) for c in cards)
    if hard + 10 <= 21 and any(rank(c) == "A" for c in cards):
        return hard + 10, True
    return hard, False


def total_text(cards: list[str]) -> str:
    """'7/17' for a soft total below 21, else the total ('17', '21', '25')."""
    total, soft = hand_total(cards)
    return f"{total - 10}/{total}" if soft and total < 21 else str(total)


def is_blackjack(cards: list[str]) -> bool:
    """An A and a 10-value card as the first two cards (callers pass an undoubled hand)."""
    return len(cards) == 2 and hand_total(cards)[0] == 21


def dealer_must_draw(cards: list[str]) -> bool:
    """The dealer draws below 17 and stands on every 17, soft 17 included."""
    return hand_total(cards)[0] < DEALER_STANDS_ON


def blackjack_winnings(bet: int) -> int:
    """3:2 rounded half up: 5 -> 8, 10 -> 15, 25 -> 38, 50 -> 75."""
    return (3 * bet + 1) // 2


def showdown(player_total: int, dealer_cards: list[str]) -> str:
    """The outcome of a standing (not bust, not blackjack) hand against the dealer's final
    hand, which is not a blackjack."""
    dealer_total = hand_total(dealer_cards)[0]
    if dealer_total > 21 or player_total > dealer_total:
        return WIN
    return PUSH if player_total == dealer_total else LOSE


def returned_chips(outcome: str, stake: int) -> int:
    """Chips handed back at settlement (the stake was taken when it was bet)."""
    if outcome == BLACKJACK:
        return stake + blackjack_winnings(stake)
    return {WIN: 2 * stake, PUSH: stake, LOSE: 0}[outcome]


def peeks(upcard: str) -> bool:
    """The dealer checks the hole card under an A or a 10-value upcard."""
    return card_value(upcard) in (1, 10)


def cards_left(state: dict[str, Any]) -> list[int]:
    """How many of each value (A, 2, ..., 9, 10-value) nobody has seen since the shoe was
    last shuffled: the shoe and a hole card still face down. Every other card of the shoe was
    dealt face up, so anyone watching knows this; the view carries it for every seat."""
    counts = [0] * 10
    unseen = state["shoe"] + (state["dealer"][1:2] if not state["hole_up"] else [])
    for card in unseen:
        counts[card_value(card) - 1] += 1
    return counts


# ---- the engine ----------------------------------------------------------------------------


def _fresh_hand() -> dict[str, Any]:
    return {
        "cards": [],
        "bet": 0,  # the stake on the table (doubled by a double)
        "doubled": False,
        "finished": False,  # no more actions for this hand
        "settled": False,  # chips already paid or taken this round
        "bust": False,
        "outcome": None,
        "amount": 0,  # net change of the chips this round
    }


class Blackjack(Engine):
    kind = "blackjack"
    title = say("Blackjack")
    first_win_card = "10D"
    real_game = RealGame(decisions=4, pace=5.0)  # two rounds' bets and plays
    milestones = (
        Milestone(
            "blackjack-stack",
            say("High roller"),
            say("End a Blackjack game with 200 chips or more."),
            50,
            "fact_best",
            200,
            "JD",
            "silver",
            "200",
            fact="chips",
        ),
    )
    blurb = say("Beat the dealer to 21 without going over. Blackjack pays 3:2.")
    showcase = ("AS", "KH")
    records = (Record("chips", say("Most chips at the end"), "max"),)
    min_players = 1
    max_players = 4
    strengths = STRENGTHS

    # ---- setup and rounds ------------------------------------------------------------------

    def setup(self, players: int, seed: str, rules: dict[str, Any]) -> State:
        state: State = {
            "seed": seed,
            "phase": "bet",
            "round": 0,
            "shuffles": 1,
            "shoe": shuffled(deck(copies=DECKS), seed, "shoe", 1),
            "discard": [],
            "table": [],  # this round's cards in dealing order
            "dealer": [],
            "hole_up": False,
            "seats": [
                {"chips": START_CHIPS, "left": None, **_fresh_hand()} for _ in range(players)
            ],
            "turn": None,
            "last_round": None,
            "submitted": {},
        }
        self._start_round(state, [])
        return state

    def _in(self, state: State) -> list[int]:
        """Seats still in the game (not cashed out, not out of chips)."""
        return [i for i, s in enumerate(state["seats"]) if s["left"] is None]

    def _playing(self, state: State) -> list[int]:
        """Seats with a hand this round."""
        return [i for i, s in enumerate(state["seats"]) if s["left"] is None and s["bet"] > 0]

    def _start_round(self, state: State, events: list[Event]) -> None:
        for i, s in enumerate(state["seats"]):
            if s["left"] is None and s["chips"] < MIN_BET:
                s["left"] = "out"
                events.append({"type": "seat_out", "seat": i, "chips": s["chips"]})
        if not self._in(state):
            self._end_game(state, events)
            return
        if len(state["shoe"]) < RESHUFFLE_BELOW:
            state["shuffles"] += 1
            state["shoe"] = shuffled(deck(copies=DECKS), state["seed"], "shoe", state["shuffles"])
            state["discard"] = []
            events.append(
                {"type": "shoe_reshuffled", "n": state["shuffles"], "cards": len(state["shoe"])}
            )
        state["round"] += 1
        state["phase"] = "bet"
        state["turn"] = None
        events.append({"type": "round_started", "round": state["round"]})

    def _end_game(self, state: State, events: list[Event]) -> None:
        state["phase"] = "over"
        state["turn"] = None
        events.append({"type": "game_over", "chips": [s["chips"] for s in state["seats"]]})

    def _draw(self, state: State, events: list[Event]) -> str:
        if not state["shoe"]:
            # Mid-round empty shoe: the discard tray, as it lies, becomes the shoe.
            state["shuffles"] += 1
            state["shoe"] = shuffled(state["discard"], state["seed"], "shoe", state["shuffles"])
            state["discard"] = []
            events.append(
                {
                    "type": "shoe_reshuffled",
                    "n": state["shuffles"],
                    "cards": len(state["shoe"]),
                    "from_discard": True,
                }
            )
        card = state["shoe"].pop(0)
        state["table"].append(card)
        return card

    def _deal(self, state: State, events: list[Event]) -> None:
        playing = self._playing(state)
        for lap in range(2):
            for i in playing:
                card = self._draw(state, events)
                state["seats"][i]["cards"].append(card)
                events.append({"type": "card_dealt", "to": i, "card": card})
            card = self._draw(state, events)
            state["dealer"].append(card)
            # the hole card (second lap) is face down: nobody learns it here
            events.append(
                {"type": "card_dealt", "to": "dealer", "card": card if lap == 0 else HIDDEN}
            )
        up = state["dealer"][0]
        if peeks(up):
            dealer_bj = is_blackjack(state["dealer"])
            events.append({"type": "dealer_peeked", "blackjack": dealer_bj})
            if dealer_bj:
                self._turn_hole(state, events)
                for i in playing:
                    hand = state["seats"][i]
                    self._settle(state, i, PUSH if is_blackjack(hand["cards"]) else LOSE, events)
                self._end_round(state, events)
                return
        for i in playing:
            if is_blackjack(state["seats"][i]["cards"]):
                self._settle(state, i, BLACKJACK, events)
        self._next_turn(state, -1, events)

    def _settle(self, state: State, i: int, outcome: str, events: list[Event]) -> None:
        hand = state["seats"][i]
        back = returned_chips(outcome, hand["bet"])
        hand["chips"] += back
        hand.update(finished=True, settled=True, outcome=outcome, amount=back - hand["bet"])
        events.append(
            {
                "type": "hand_settled",
                "seat": i,
                "outcome": outcome,
                "amount": hand["amount"],
                "chips": hand["chips"],
                "total": hand_total(hand["cards"])[0],
                "bust": hand["bust"],
            }
        )

    def _next_turn(self, state: State, after: int, events: list[Event]) -> None:
        for i in self._playing(state):
            if i > after and not state["seats"][i]["finished"]:
                state["phase"] = "play"
                state["turn"] = i
                events.append({"type": "turn_started", "seat": i})
                return
        self._dealer_plays(state, events)

    def _turn_hole(self, state: State, events: list[Event]) -> None:
        state["hole_up"] = True
        events.append(
            {
                "type": "hole_card_turned",
                "card": state["dealer"][1],
                "total": hand_total(state["dealer"])[0],
            }
        )

    def _dealer_plays(self, state: State, events: list[Event]) -> None:
        state["turn"] = None
        self._turn_hole(state, events)
        open_hands = [i for i in self._playing(state) if not state["seats"][i]["settled"]]
        if open_hands:
            while dealer_must_draw(state["dealer"]):
                card = self._draw(state, events)
                state["dealer"].append(card)
                events.append(
                    {"type": "dealer_drew", "card": card, "total": hand_total(state["dealer"])[0]}
                )
            total = hand_total(state["dealer"])[0]
            events.append(
                {"type": "dealer_busted" if total > 21 else "dealer_stood", "total": total}
            )
            for i in open_hands:
                player_total = hand_total(state["seats"][i]["cards"])[0]
                self._settle(state, i, showdown(player_total, state["dealer"]), events)
        self._end_round(state, events)

    def _end_round(self, state: State, events: list[Event]) -> None:
        dealer_total = hand_total(state["dealer"])[0]
        summary = []
        for s in state["seats"]:
            if s["bet"] > 0:
                summary.append(
                    {
                        "cards": s["cards"],
                        "bet": s["bet"],
                        "doubled": s["doubled"],
                        "total": hand_total(s["cards"])[0],
                        "bust": s["bust"],
                        "outcome": s["outcome"],
                        "amount": s["amount"],
                    }
                )
            else:
                summary.append(None)
            s.update(_fresh_hand())
        state["last_round"] = {
            "round": state["round"],
            "dealer": state["dealer"],
            "dealer_total": dealer_total,
            "dealer_blackjack": is_blackjack(state["dealer"]),
            "seats": summary,
        }
        state["discard"].extend(state["table"])
        state["table"] = []
        state["dealer"] = []
        state["hole_up"] = False
        events.append(
            {
                "type": "round_ended",
                "round": state["round"],
                "results": [
                    None if r is None else {"outcome": r["outcome"], "amount": r["amount"]}
                    for r in summary
                ],
            }
        )
        self._start_round(state, events)

    # ---- why not: the one place a refusal is explained ---------------------------------------

    @why_not("bet")
    @why_not("cash_out")
    def bet_problem(self, state: State, seat: int, action: Action) -> str | None:
        if state["phase"] != "bet":
            if action["type"] == "cash_out":
                return say("You can cash out only between rounds, when bets are open.")
            return say("The bets are already in for this round.")
        if state["seats"][seat]["left"] is not None:
            return say("You have left the table.")
        if str(seat) in state["submitted"]:
            return say("Your choice is in. Waiting for the other players.")
        if action["type"] == "cash_out":
            return None
        if "amount" not in action:
            return say("Say how much you bet: 5, 10, 25 or 50 chips.")
        amount, chips = action["amount"], state["seats"][seat]["chips"]
        if isinstance(amount, bool) or not isinstance(amount, int) or amount not in BETS:
            return say("Your bet must be 5, 10, 25 or 50 chips.")
        if amount > chips:
            return say(
                "You have only {chips} chips; you cannot bet {amount}.", chips=chips, amount=amount
            )
        return None

    @why_not("hit")
    @why_not("stand")
    @why_not("double")
    def play_problem(self, state: State, seat: int, action: Action) -> str | None:
        if state["phase"] == "bet":
            return say("Bets are open: place a bet or cash out.")
        if seat != state["turn"]:
            return say("It is not your turn.")
        if action["type"] != "double":
            return None
        hand = state["seats"][seat]
        if len(hand["cards"]) != 2:
            return say("You can double only on your first two cards.")
        if hand["chips"] < hand["bet"]:
            return say(
                "You need {bet} chips to double; you have {chips}.",
                bet=hand["bet"],
                chips=hand["chips"],
            )
        return None

    # ---- the contract ----------------------------------------------------------------------

    def to_act(self, state: State) -> list[int]:
        if state["phase"] == "bet":
            return waiting(state, self._in(state))
        if state["phase"] == "play":
            return [state["turn"]]
        return []

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if self.is_over(state) or seat not in self.to_act(state):
            return []
        if state["phase"] == "bet":
            candidates = [{"type": "bet", "amount": a} for a in BETS] + [{"type": "cash_out"}]
        else:
            candidates = [{"type": "hit"}, {"type": "stand"}, {"type": "double"}]
        return self.allowed(state, seat, candidates)

    # ---- moves -------------------------------------------------------------------------------

    @move("bet", "amount")
    @move("cash_out")
    def bet(self, state: State, seat: int, action: Action) -> list[Event]:
        """Bets are simultaneous: nothing happens until the last seat in has chosen."""
        events: list[Event] = [{"type": "bet_ready", "seat": seat}]
        done = submit(state, seat, action, self._in(state))
        if not done:
            return events
        for i, choice in done:
            s = state["seats"][i]
            if choice["type"] == "cash_out":
                s["left"] = "cashed_out"
                events.append({"type": "cashed_out", "seat": i, "chips": s["chips"]})
            else:
                s["chips"] -= choice["amount"]
                s["bet"] = choice["amount"]
                events.append(
                    {
                        "type": "bet_placed",
                        "seat": i,
                        "amount": choice["amount"],
                        "chips": s["chips"],
                    }
                )
        if not self._playing(state):
            self._end_game(state, events)
        else:
            self._deal(state, events)
        return events

    @move("hit")
    def hit(self, state: State, seat: int, action: Action) -> list[Event]:
        hand = state["seats"][seat]
        events: list[Event] = []
        card = self._draw(state, events)
        hand["cards"].append(card)
        total = hand_total(hand["cards"])[0]
        events.append({"type": "card_drawn", "seat": seat, "card": card, "total": total})
        return self._after_card(state, seat, events)

    @move("stand")
    def stand(self, state: State, seat: int, action: Action) -> list[Event]:
        hand = state["seats"][seat]
        hand["finished"] = True
        events: list[Event] = [
            {"type": "hand_stood", "seat": seat, "total": hand_total(hand["cards"])[0]}
        ]
        return self._after_card(state, seat, events)

    @move("double")
    def double(self, state: State, seat: int, action: Action) -> list[Event]:
        hand = state["seats"][seat]
        hand["chips"] -= hand["bet"]
        hand["bet"] *= 2
        hand["doubled"] = True
        events: list[Event] = []
        card = self._draw(state, events)
        hand["cards"].append(card)
        hand["finished"] = True
        events.append(
            {
                "type": "hand_doubled",
                "seat": seat,
                "card": card,
                "bet": hand["bet"],
                "chips": hand["chips"],
                "total": hand_total(hand["cards"])[0],
            }
        )
        return self._after_card(state, seat, events)

    def _after_card(self, state: State, seat: int, events: list[Event]) -> list[Event]:
        """A bust settles at once; 21 stands by itself; a finished hand passes the turn."""
        hand = state["seats"][seat]
        total = hand_total(hand["cards"])[0]
        if total > 21:
            hand["bust"] = True
            events.append({"type": "hand_busted", "seat": seat, "total": total})
            self._settle(state, seat, LOSE, events)
        elif total == 21 and not hand["finished"]:
            hand["finished"] = True
            events.append({"type": "hand_stood", "seat": seat, "total": 21, "automatic": True})
        if hand["finished"]:
            self._next_turn(state, seat, events)
        return events

    def is_over(self, state: State) -> bool:
        return state["phase"] == "over"

    def result(self, state: State) -> dict[str, Any]:
        scores = [s["chips"] for s in state["seats"]]
        if len(scores) == 1:
            winners = [0] if scores[0] > START_CHIPS else []
        else:
            best = max(scores)
            winners = [i for i, c in enumerate(scores) if c == best]
        return {"scores": scores, "winners": winners, "ranking": ranking_by(scores)}

    def facts(self, state: State, seat: int) -> dict[str, int]:
        return {"chips": state["seats"][seat]["chips"], "rounds": state["round"]}

    # ---- what a seat may see -----------------------------------------------------------------

    def _dealer_shown(self, state: State) -> list[str]:
        cards = state["dealer"]
        if state["hole_up"] or len(cards) < 2:
            return list(cards)
        return [cards[0], HIDDEN] + cards[2:]

    def visible_cards(self, state: State, seat: int | None) -> Counter[str]:
        """Everyone sees the same: every seat's cards, the dealer's cards except a hole card
        not yet turned, and last round's table (turned up before it was cleared). Never the
        shoe or the order of the discard tray."""
        seen: Counter[str] = Counter()
        for s in state["seats"]:
            seen.update(s["cards"])
        dealer = state["dealer"]
        seen.update(dealer if state["hole_up"] else dealer[:1] + dealer[2:])
        last = state["last_round"]
        if last is not None:
            seen.update(last["dealer"])
            for r in last["seats"]:
                if r is not None:
                    seen.update(r["cards"])
        return seen

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        to_act = self.to_act(state)
        shown = self._dealer_shown(state)
        visible = [c for c in shown if c != HIDDEN]
        dealer_total, dealer_soft = hand_total(visible) if visible else (0, False)
        seats = []
        for i, s in enumerate(state["seats"]):
            total, soft = hand_total(s["cards"]) if s["cards"] else (0, False)
            last = state["last_round"]["seats"][i] if state["last_round"] else None
            seats.append(
                {
                    "seat": i,
                    "chips": s["chips"],
                    "bet": s["bet"],
                    "cards": list(s["cards"]),
                    "total": total,
                    "soft": soft,
                    "total_text": total_text(s["cards"]) if s["cards"] else "",
                    "doubled": s["doubled"],
                    "blackjack": is_blackjack(s["cards"]),
                    "bust": s["bust"],
                    "amount": s["amount"],  # chips won (or lost, below 0) by a settled hand
                    "status": self._status(state, i),
                    "ready": state["phase"] == "bet" and s["left"] is None and i not in to_act,
                    "last_result": None
                    if last is None
                    else {
                        "outcome": last["outcome"],
                        "amount": last["amount"],
                        "won": max(last["amount"], 0),
                        "lost": max(-last["amount"], 0),
                    },
                }
            )
        view: dict[str, Any] = {
            "kind": self.kind,
            "seat": seat,
            "phase": state["phase"],
            "round": state["round"],
            "to_act": to_act,
            "turn": state["turn"],
            "bet_sizes": list(BETS),
            "shoe_count": len(state["shoe"]),
            "discard_count": len(state["discard"]),
            "cards_left": cards_left(state),
            "dealer": {
                "cards": shown,
                "hole_hidden": HIDDEN in shown,
                "total": dealer_total,
                "soft": dealer_soft,
                "total_text": total_text(visible) if visible else "",
                "blackjack": state["hole_up"] and is_blackjack(state["dealer"]),
                "bust": dealer_total > 21,
            },
            "seats": seats,
            "last_round": copy.deepcopy(state["last_round"]),
            "over": self.is_over(state),
        }
        if seat is not None and state["phase"] == "bet":
            mine = state.get("submitted", {}).get(str(seat))
            view["my_choice"] = dict(mine) if mine else None
        if self.is_over(state):
            view["result"] = self.result(state)
        return view

    def _status(self, state: State, i: int) -> str:
        s = state["seats"][i]
        if s["left"] is not None:
            return s["left"]  # "out" or "cashed_out"
        if state["phase"] == "over":
            return "finished"
        if state["phase"] == "bet":
            return "betting" if i in waiting(state, [i]) else "ready"
        if s["bust"]:
            return "bust"
        if s["outcome"] == BLACKJACK:
            return "blackjack"
        if state["turn"] == i:
            return "playing"
        if s["finished"]:
            return "doubled" if s["doubled"] else "stood"
        return "waiting"

    # ---- the computer player -----------------------------------------------------------------

    def bot(
        self, view: dict[str, Any], legal: list[Action], rng: random.Random, strength: str = MEDIUM
    ) -> Action:
        return players.bot(view, legal, rng, strength)


ENGINE = Blackjack()
