"""Poker (rules.md): five-card draw with two wild jokers, fixed-limit betting.

A hand runs bet 1 → draw → bet 2 → showdown, each step by one seat at a time (``turn``).
Antes, dealing, the showdown and the next deal happen inside ``apply`` and each yields its
own event. Nobody's total bet in a hand may pass ``cap``, the smallest stack at the start of
the hand, so there are never side pots: the room left in a round is the same for every seat
still in, and a raise past it is cut down to it.

State per hand: ``bets`` (chips each seat has put in this hand, ante included), ``round``
(``paid`` this round, ``level``, ``raises``, ``acted``, ``room``, ``increment``), ``hands``,
``deck`` (index 0 = top), ``folded``, ``drawn``. Seats with no chips are ``out``;
``eliminated`` lists them in groups, in order. ``last_hand`` keeps the previous hand's result
(with the hands shown at the showdown) for the table to display.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from typing import Any

from ...cards import HIDDEN, deck, is_card, label, rng, shuffled
from ...core import (
    MEDIUM,
    STRENGTHS,
    Action,
    Engine,
    Event,
    Milestone,
    Option,
    RealGame,
    Record,
    State,
    move,
    why_not,
)
from ...text import restored, say, stored
from . import evaluator, holds, players, strategy

START_CHIPS = 100
ANTE = 2
MAX_RAISES = 3
RAISE_SIZE = {"bet1": 5, "bet2": 10}
BETTING = ("bet1", "bet2")
BET_ACTIONS = ("check", "call", "raise", "fold")
PHASE_NAMES = {
    "bet1": say("Bet 1"),
    "draw": say("Draw"),
    "bet2": say("Bet 2"),
    "over": say("Game over"),
}


def split_pot(pot: int, winners: list[int], dealer: int, players: int) -> list[int]:
    """Each winner gets pot // k; the odd chips go one at a time to the winners in seat order
    starting left of the dealer (rules.md §4). Returns the amount per seat."""
    shares = [0] * players
    for s in winners:
        shares[s] = pot // len(winners)
    order = [(dealer + i) % players for i in range(1, players + 1)]
    tied = [s for s in order if s in winners]
    for s in tied[: pot % len(winners)]:
        shares[s] += 1
    return shares


def holds_of(hand: list[str]) -> list[list[str]]:
    """Every hold (0 to 5 of the hand's cards, in hand order), most cards first."""
    return [list(c) for n in range(len(hand), -1, -1) for c in combinations(hand, n)]


SHOWDOWN_PAUSE = 4.0  # the next hand waits this many computer pauses after a showdown


class Poker(Engine):
    kind = "poker"
    title = say("Poker")
    first_win_card = "JS"
    real_game = RealGame(decisions=2, pace=8.0)  # a draw and a bet
    milestones = (
        Milestone(
            "poker-five",
            say("Five of a kind"),
            say("Show five of a kind at a Poker showdown."),
            100,
            "fact_total",
            1,
            "QH",
            "gold",
            say("5 of a kind"),
            fact="five_of_a_kind",
        ),
        Milestone(
            "poker-pot",
            say("Big pot"),
            say("Win a Poker pot of 100 chips or more."),
            50,
            "fact_best",
            100,
            "6H",
            "silver",
            "100",
            fact="biggest_pot",
        ),
    )
    blurb = say("Five-card draw with wild jokers. Hold, draw, bluff.")
    showcase = ("JK2", "AH")
    rated = True
    records = (
        Record("biggest_pot", say("Biggest pot won"), "max"),
        Record("hands_won", say("Hands won"), "sum"),
    )
    min_players = 2
    max_players = 4
    strengths = STRENGTHS
    options = (
        Option(
            "chips",
            (START_CHIPS, 50, 30),
            say("Game length"),
            say("The chips each player starts with; the last player with chips wins."),
            (say("100 chips each"), say("Short: 50 chips each"), say("Quick: 30 chips each")),
        ),
    )
    quick = {"chips": 30}

    # ---- setup ----------------------------------------------------------------------------

    def setup(self, players: int, seed: str, rules: dict[str, Any]) -> State:
        state: State = {
            "seed": seed,
            "players": players,
            "chips": [rules["chips"]] * players,
            "out": [False] * players,
            "eliminated": [],
            "hand_no": 0,
            "dealer": rng(seed, "first-dealer", 1).randrange(players),
            "last_hand": None,
            "winner": None,
            "hands_won": [0] * players,  # for facts: hands and the biggest pot each seat won,
            "biggest_pot": [0] * players,
            "five_of_a_kind": [0] * players,  # and five of a kinds shown at a showdown
            "showdowns": [{"raised": 0, "bluffed": 0} for _ in range(players)],
        }
        deal_hand(state, dealer=state["dealer"])  # new_game returns no events
        return state

    # ---- turn -----------------------------------------------------------------------------

    def is_over(self, state: State) -> bool:
        return state["phase"] == "over"

    def to_act(self, state: State) -> list[int]:
        return [] if self.is_over(state) else [state["turn"]]

    def wait_reason(self, state: State, seat: int) -> str:
        if state["out"][seat]:
            return say("You are out of chips.")
        if state["folded"][seat]:
            return say("You have folded this hand.")
        if state["phase"] == "draw":
            return say("It is not your turn: another player is drawing.")
        return say("It is not your turn: another player is betting.")

    # ---- why not: the one place a refusal is explained -------------------------------------

    @why_not("check")
    @why_not("call")
    @why_not("raise")
    @why_not("fold")
    def bet_problem(self, state: State, seat: int, action: Action) -> str | None:
        if seat != state["turn"]:
            return self.wait_reason(state, seat)
        if state["phase"] not in BETTING:
            return say("It is the draw: choose the cards to hold.")
        rnd = state["round"]
        owed = rnd["level"] - rnd["paid"][seat]
        action_type = action["type"]
        if action_type == "check" and owed:
            return say("You can't check: it costs {owed} to call.", owed=owed)
        if action_type == "call" and not owed:
            return say("There is no bet to call; check instead.")
        if action_type == "raise":
            if rnd["raises"] >= MAX_RAISES:
                return say(
                    "There have already been {n} raises in this betting round.", n=MAX_RAISES
                )
            if rnd["level"] >= rnd["room"]:
                return say(
                    "You can't raise: the bet has reached the table limit (nobody may bet more than the smallest stack)."
                )
        return None

    @why_not("draw")
    def draw_problem(self, state: State, seat: int, action: Action) -> str | None:
        """The hold is 0-5 distinct cards of the hand (hold none to draw five)."""
        if seat != state["turn"]:
            return self.wait_reason(state, seat)
        if state["phase"] != "draw":
            return say("You can't draw now: it is a betting round (check, call, raise or fold).")
        hand, hold = state["hands"][seat], action.get("hold")
        if not isinstance(hold, list):
            return say("Say which cards to hold (hold none to draw five new cards).")
        if len(hold) > 5:
            return say("You can hold at most your five cards.")
        for card in hold:
            if not is_card(card):
                return say("{value!r} is not a card.", value=str(card)[:12])
            if card not in hand:
                return say("You don't hold the {card}.", card=label(card))
        if len(set(hold)) != len(hold):
            return say("You listed a card twice.")
        return None

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if self.is_over(state) or seat != state["turn"]:
            return []
        if state["phase"] == "draw":
            candidates = [{"type": "draw", "hold": h} for h in holds_of(state["hands"][seat])]
        else:
            candidates = [{"type": action_type} for action_type in BET_ACTIONS]
        return self.allowed(state, seat, candidates)

    # ---- moves ----------------------------------------------------------------------------

    @move("check")
    @move("call")
    @move("raise")
    @move("fold")
    def bet(self, state: State, seat: int, action: Action) -> list[Event]:
        action_type = action["type"]
        rnd = state["round"]
        paid, level = rnd["paid"], rnd["level"]
        event: Event = {"type": "", "seat": seat}
        if action_type == "check":
            event["type"] = "checked"
        elif action_type == "call":
            event.update(type="called", amount=level - paid[seat])
            pay(state, seat, level - paid[seat])
        elif action_type == "raise":
            rnd["level"] = min(level + rnd["increment"], rnd["room"])
            rnd["raises"] += 1
            event.update(type="raised", amount=rnd["level"] - paid[seat], level=rnd["level"])
            pay(state, seat, rnd["level"] - paid[seat])
        else:
            state["folded"][seat] = True
            event["type"] = "folded"
        rnd["acted"][seat] = True
        event["pot"] = state["pot"]
        state["history"].append(
            {k: v for k, v in event.items() if k != "type"} | {"did": action_type}
        )
        events = [event]

        live = in_hand(state)
        if len(live) == 1:
            events += self._win_by_fold(state, live[0])
            return events
        if all(rnd["acted"][s] and paid[s] == rnd["level"] for s in live):
            events.append({"type": "betting_closed", "phase": state["phase"], "pot": state["pot"]})
            if state["phase"] == "bet1":
                state["phase"] = "draw"
                state["turn"] = live_after(state, state["dealer"])
                events.append({"type": "draw_started", "seat": state["turn"]})
            else:
                events += self._showdown(state)
            return events
        state["turn"] = live_after(state, seat)
        return events

    @move("draw", "hold")
    def draw(self, state: State, seat: int, action: Action) -> list[Event]:
        hand, hold = state["hands"][seat], action["hold"]
        kept = [c for c in hand if c in hold]
        discarded = [c for c in hand if c not in hold]
        drawn = state["deck"][: len(discarded)]
        del state["deck"][: len(discarded)]
        state["hands"][seat] = kept + drawn
        state["drawn"][seat] = len(drawn)
        state.setdefault("discarded", [[] for _ in range(state["players"])])[seat] = discarded
        state["history"].append({"seat": seat, "did": "draw", "count": len(drawn)})
        events: list[Event] = [
            {
                "type": "cards_drawn",
                "seat": seat,
                "count": len(drawn),
                "discarded": discarded,
                "drawn": drawn,
                "private": ["discarded", "drawn"],
            }
        ]
        waiting = [s for s in in_hand(state) if state["drawn"][s] is None]
        if waiting:
            state["turn"] = live_after(state, seat, lambda s: state["drawn"][s] is None)
            return events
        start_round(state, "bet2")
        events.append(
            {"type": "betting_started", "phase": "bet2", "seat": state["turn"], "pot": state["pot"]}
        )
        return events

    # ---- end of a hand --------------------------------------------------------------------

    def _win_by_fold(self, state: State, winner: int) -> list[Event]:
        pot = state["pot"]
        state["chips"][winner] += pot
        payouts = [0] * state["players"]
        payouts[winner] = pot
        events: list[Event] = [
            {"type": "pot_won", "seat": winner, "amount": pot, "by_fold": True, "hand": None}
        ]
        state["last_hand"] = {
            "hand_no": state["hand_no"],
            "pot": pot,
            "winners": [winner],
            "payouts": payouts,
            "by_fold": True,
            "hand_name": None,
            "description": None,
            "shown": [None] * state["players"],
            "names": [None] * state["players"],
        }
        return events + self._end_hand(state)

    def _showdown(self, state: State) -> list[Event]:
        live = in_hand(state)
        values = {s: evaluator.evaluate_cards(state["hands"][s]) for s in live}
        best = max(values.values())
        winners = [s for s in live if values[s] == best]
        pot = state["pot"]
        payouts = split_pot(pot, winners, state["dealer"], state["players"])
        shown: list[list[str] | None] = [None] * state["players"]
        names: list[str | None] = [None] * state["players"]
        fives = state.setdefault("five_of_a_kind", [0] * state["players"])  # older states lack it
        remember_showdown(state, live, values)
        for s in live:
            shown[s] = list(state["hands"][s])
            names[s] = evaluator.describe(values[s])
            if evaluator.decode(values[s])[0] == evaluator.FIVE_OF_A_KIND:
                fives[s] += 1
        events: list[Event] = [
            {
                "type": "hands_shown",
                "hands": [
                    {"seat": s, "cards": shown[s], "hand": evaluator.hand_name(values[s])}
                    for s in live
                ],
            }
        ]
        for s in winners:
            state["chips"][s] += payouts[s]
            events.append(
                {
                    "type": "pot_won",
                    "seat": s,
                    "amount": payouts[s],
                    "by_fold": False,
                    "hand": evaluator.hand_name(best),
                    "description": evaluator.describe(best),
                }
            )
        state["last_hand"] = {
            "hand_no": state["hand_no"],
            "pot": pot,
            "winners": winners,
            "payouts": payouts,
            "by_fold": False,
            "hand_name": str(evaluator.hand_name(best)),
            "description": str(evaluator.describe(best)),
            "shown": shown,
            "names": [None if n is None else str(n) for n in names],
            # The same words as plain data, to be said again in the reader's language.
            "said": {
                "hand_name": stored(evaluator.hand_name(best)),
                "description": stored(evaluator.describe(best)),
                "names": [stored(n) for n in names],
            },
        }
        return events + self._end_hand(state)

    def pause(self, state: State) -> float:
        # A showdown stays on the table (the hands face up, the winner named) before the next
        # hand's first move: four times the computer's usual pause.
        last = state["last_hand"]
        fresh = not state["history"] and state["phase"] == "bet1"
        return SHOWDOWN_PAUSE if last and not last["by_fold"] and fresh else 0.0

    def _end_hand(self, state: State) -> list[Event]:
        last = state["last_hand"]
        for s in last["winners"]:
            state["hands_won"][s] += 1
            state["biggest_pot"][s] = max(state["biggest_pot"][s], last["payouts"][s])
        state["pot"] = 0
        events: list[Event] = []
        busted = [
            s for s in range(state["players"]) if not state["out"][s] and not state["chips"][s]
        ]
        for s in busted:
            state["out"][s] = True
            events.append({"type": "player_out", "seat": s, "hand_no": state["hand_no"]})
        if busted:
            state["eliminated"].append(busted)
        alive = [s for s in range(state["players"]) if not state["out"][s]]
        if len(alive) == 1:
            state["phase"] = "over"
            state["turn"] = None
            state["winner"] = alive[0]
            result = self.result(state)
            events.append({"type": "game_won", "seat": alive[0], "scores": result["scores"]})
            return events
        return events + deal_hand(state)

    def result(self, state: State) -> dict[str, Any]:
        chips = list(state["chips"])
        alive = [s for s in range(state["players"]) if not state["out"][s]]
        ranking: list[list[int]] = []
        for value in sorted({chips[s] for s in alive}, reverse=True):
            ranking.append([s for s in alive if chips[s] == value])
        ranking += [list(group) for group in reversed(state["eliminated"])]
        winners = [state["winner"]] if state["winner"] is not None else []
        return {"scores": chips, "winners": winners, "ranking": ranking}

    def facts(self, state: State, seat: int) -> dict[str, int]:
        return {
            "chips": state["chips"][seat],
            "hands_won": state["hands_won"][seat],
            "biggest_pot": state["biggest_pot"][seat],
            "five_of_a_kind": state.get("five_of_a_kind", [0] * state["players"])[seat],
        }

    # ---- what each seat sees --------------------------------------------------------------

    def visible_cards(self, state: State, seat: int | None) -> Counter[str]:
        seen: Counter[str] = Counter()
        if seat is not None and 0 <= seat < state["players"]:
            seen.update(state["hands"][seat])
            seen.update(state.get("discarded", [[]] * state["players"])[seat])
        last = state["last_hand"]
        if last:
            for cards in last["shown"]:
                seen.update(cards or [])
        return seen

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        players = state["players"]
        mine = seat is not None and 0 <= seat < players
        over = self.is_over(state)
        rnd = state["round"]
        betting = state["phase"] in BETTING
        hands = []
        for s in range(players):
            if mine and s == seat:
                hands.append(list(state["hands"][s]))
            elif state["out"][s] or state["folded"][s]:
                hands.append([])
            else:
                hands.append([HIDDEN] * len(state["hands"][s]))
        view: dict[str, Any] = {
            "kind": self.kind,
            "seat": seat,
            "players": players,
            "hand_no": state["hand_no"],
            "phase": state["phase"],
            "phase_name": PHASE_NAMES[state["phase"]],
            "dealer": state["dealer"],
            "turn": state["turn"],
            "to_act": self.to_act(state),
            "chips": list(state["chips"]),
            "bets": list(state["bets"]),
            "paid": list(rnd["paid"]) if betting else [0] * players,
            "pot": state["pot"],
            "cap": state["cap"],
            "ante": state["ante"],
            "room": rnd["room"] if betting else state["cap"] - self._committed(state),
            "level": rnd["level"] if betting else 0,
            "raises": rnd["raises"] if betting else 0,
            "max_raises": MAX_RAISES,
            "raise_size": rnd["increment"] if betting else None,
            "hands": hands,
            "folded": list(state["folded"]),
            "out": list(state["out"]),
            "in_hand": [not state["out"][s] and not state["folded"][s] for s in range(players)],
            "drawn": list(state["drawn"]),
            "history": [dict(h) for h in state["history"]],
            "showdowns": [dict(r) for r in showdowns(state)],
            "last_hand": None if state["last_hand"] is None else _copy_last(state["last_hand"]),
            "over": over,
            "winner": state["winner"],
            "result": self.result(state) if over else None,
        }
        if mine:
            hand = state["hands"][seat]
            # The seat's own cards are in hands[seat]; a view names each card only once.
            raise_to = min(rnd["level"] + rnd["increment"], rnd["room"]) if betting else 0
            you: dict[str, Any] = {
                "to_call": rnd["level"] - rnd["paid"][seat] if betting and not over else 0,
                # A raise brings the bet to raise_to (cut down to the room at the limit) and
                # costs this seat raise_cost.
                "raise_to": raise_to,
                "raise_cost": raise_to - rnd["paid"][seat] if betting else 0,
                "raise_capped": betting and rnd["level"] + rnd["increment"] > rnd["room"],
                "hand_name": None,
                "hand_description": None,
                "percentile": None,
                "suggested_hold": None,
                "suggested_hold_strength": None,
                "best_hold": None,
                "discarded": list(state.get("discarded", [[]] * players)[seat]),
            }
            if len(hand) == 5:
                value = evaluator.evaluate_cards(hand)
                you["hand_name"] = evaluator.hand_name(value)
                you["hand_description"] = evaluator.describe(value)
                you["percentile"] = round(holds.percentile(value), 4)
            if state["phase"] == "draw" and seat in in_hand(state) and state["drawn"][seat] is None:
                # Positions in "hand" (a card string may appear only once in a view).
                rule = holds.rule_hold(hand)
                best, expected = holds.best_hold(hand)
                you["suggested_hold"] = [i for i, c in enumerate(hand) if c in rule]
                # Its exact expected strength after the draw, so the table can show it.
                mask = sum(1 << i for i in you["suggested_hold"])
                you["suggested_hold_strength"] = round(
                    float(dict(holds.hold_values(hand))[mask]), 4
                )
                you["best_hold"] = {
                    "positions": [i for i, c in enumerate(hand) if c in best],
                    "expected_strength": round(expected, 4),
                }
            view["you"] = you
            view["to_call"] = you["to_call"]
            view["hand_name"] = you["hand_name"]
            view["suggested_hold"] = you["suggested_hold"]
        return view

    @staticmethod
    def _committed(state: State) -> int:
        live = in_hand(state)
        return state["bets"][live[0]] if live else 0

    # ---- the computer player --------------------------------------------------------------

    def bot(
        self, view: dict[str, Any], legal: list[Action], rng_: random.Random, strength: str = MEDIUM
    ) -> Action:
        return players.bot(view, legal, rng_, strength)

    def warm_up(self) -> None:
        strategy.warm_up()


# ---- the hand: seats still in, chips, the deal ----------------------------------------------


def in_hand(state: State) -> list[int]:
    """Seats still in this hand (have chips at the deal and have not folded), by seat."""
    return [s for s in range(state["players"]) if not state["out"][s] and not state["folded"][s]]


def live_after(state: State, seat: int, also=None) -> int:
    """The next seat to the left of ``seat`` still in the hand (and passing ``also``)."""
    n = state["players"]
    for i in range(1, n + 1):
        s = (seat + i) % n
        if not state["out"][s] and not state["folded"][s] and (also is None or also(s)):
            return s
    raise AssertionError("no seat left in the hand")


def pay(state: State, seat: int, amount: int) -> None:
    state["chips"][seat] -= amount
    state["bets"][seat] += amount
    state["round"]["paid"][seat] += amount
    state["pot"] += amount


def start_round(state: State, phase: str) -> None:
    """Open a betting round: the room is the cap minus what each seat still in has put in."""
    n = state["players"]
    live = in_hand(state)
    state["phase"] = phase
    state["round"] = {
        "paid": [0] * n,
        "level": 0,
        "raises": 0,
        "acted": [False] * n,
        "room": state["cap"] - state["bets"][live[0]],
        "increment": RAISE_SIZE[phase],
    }
    state["turn"] = live_after(state, state["dealer"])


def deal_hand(
    state: State, dealer: int | None = None, cards: list[str] | None = None
) -> list[Event]:
    """Start the next hand: move the button, take the cap and the antes, shuffle and deal.

    ``dealer`` and ``cards`` (the deck order, index 0 on top) let tests stack a hand; in play
    the button moves left to the next seat with chips and the deck is ``rng(seed, "deal", h)``.
    """
    n = state["players"]
    state["hand_no"] += 1
    alive = [s for s in range(n) if not state["out"][s]]
    if dealer is None:
        dealer = next(
            (state["dealer"] + i) % n
            for i in range(1, n + 1)
            if not state["out"][(state["dealer"] + i) % n]
        )
    state["dealer"] = dealer
    cap = min(state["chips"][s] for s in alive)
    ante = min(ANTE, cap)
    state.update(cap=cap, ante=ante, pot=0, bets=[0] * n, history=[])
    state["folded"] = [False] * n
    state["drawn"] = [None] * n
    state["discarded"] = [[] for _ in range(n)]  # each seat's own, seen only by it
    for s in alive:
        state["chips"][s] -= ante
        state["bets"][s] = ante
        state["pot"] += ante
    if cards is None:
        cards = shuffled(deck(jokers=2), state["seed"], "deal", state["hand_no"])
    cards = list(cards)
    order = [(dealer + i) % n for i in range(1, n + 1) if not state["out"][(dealer + i) % n]]
    hands: list[list[str]] = [[] for _ in range(n)]
    for i in range(5 * len(order)):
        hands[order[i % len(order)]].append(cards[i])
    state["hands"] = hands
    state["deck"] = cards[5 * len(order) :]
    start_round(state, "bet1")
    events: list[Event] = [
        {
            "type": "hand_started",
            "hand_no": state["hand_no"],
            "dealer": dealer,
            "seats": order,
            "cap": cap,
            "ante": ante,
            "pot": state["pot"],
        }
    ]
    for s in order:
        events.append(
            {"type": "cards_dealt", "seat": s, "cards": list(hands[s]), "private": ["cards"]}
        )
    events.append(
        {"type": "betting_started", "phase": "bet1", "seat": state["turn"], "pot": state["pot"]}
    )
    return events


def showdowns(state: State) -> list[dict[str, int]]:
    """Per seat, what the table learnt at showdowns: how often it raised after the draw and
    was shown, and how often the hand shown was then a pair or less (a bluff)."""
    if "showdowns" not in state:  # older states lack it
        return [{"raised": 0, "bluffed": 0} for _ in range(state["players"])]
    return state["showdowns"]


def remember_showdown(state: State, live: list[int], values: dict[int, int]) -> None:
    history = state["history"]
    draws = [i for i, h in enumerate(history) if h["did"] == "draw"]
    after = history[draws[-1] + 1 :] if draws else []
    record = state["showdowns"] = showdowns(state)
    for s in live:
        if any(h["did"] == "raise" and h["seat"] == s for h in after):
            record[s]["raised"] += 1
            if evaluator.decode(values[s])[0] <= evaluator.ONE_PAIR:
                record[s]["bluffed"] += 1


def _copy_last(last: dict[str, Any]) -> dict[str, Any]:
    out = dict(last)
    said = out.pop("said", None) or {}
    out["hand_name"] = restored(said.get("hand_name", last["hand_name"]))
    out["description"] = restored(said.get("description", last["description"]))
    out["winners"] = list(last["winners"])
    out["payouts"] = list(last["payouts"])
    out["shown"] = [None if c is None else list(c) for c in last["shown"]]
    out["names"] = [restored(n) for n in said.get("names", last["names"])]
    return out


ENGINE = Poker()
