"""Cardice (rules.md): five suits and a joker, a die for trump, two rounds of bidding.

A round (a hand) is: deal, the dealer's right rolls the die (``roll``), two rounds of
bidding from the dealer's left (``bid``), then one trick per card dealt (``play``). Scoring,
the next deal, deciders and the end of the game happen inside ``apply`` and each yields its
own event.

State: ``seats`` (the seats dealt in this round: everyone, or the tied ones in a decider),
``hands`` (sorted; empty for a seat out of a decider), ``stockpile`` (the undealt cards, face
down, unused), ``die`` (the face rolled, "X" = no-trump), ``first_bids`` and ``bids`` (round 1
and final bids), ``won`` (tricks this round), ``trick`` (the trick in play: its leader and
the cards played so far, clockwise from the leader), ``tricks`` (the tricks completed this
round, with their winners), ``sheet`` (one row per round scored: bids, tricks won and points
per seat), ``totals``, and ``deciders`` (how many deciders each seat played: the seats still
in the running rank first). The state is copied on every action, so it keeps only what the
view cannot derive.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from ...cards import SUIT_NAMES, SUIT_SYMBOLS, is_card, rng, shuffled, suit
from ...core import (
    MEDIUM,
    STRENGTHS,
    Action,
    Engine,
    Event,
    IllegalAction,
    Milestone,
    Option,
    RealGame,
    Record,
    State,
    move,
    why_not,
)
from ...text import say
from . import players
from .tricks import DECK, JOKER, SUITED, SUITS, hand_order, power, trick_winner

FACES = ["X", "S", "H", "D", "C", "B"]  # the die; X = no-trump (rules.md §2.5)
FACE_NAMES = {"X": say("No trump"), **SUIT_NAMES}
MAX_DECIDERS = 3
# Why an action doesn't fit now: (the phase the hand is in, the phase the action belongs to).
WRONG_PHASE = {
    ("roll", "bid"): say("First the player to the dealer's right rolls the die for trump."),
    ("roll", "play"): say("First the player to the dealer's right rolls the die for trump."),
    ("bid", "roll"): say("The die has already been rolled: it is time to bid."),
    ("bid", "play"): say("Cards are played once both rounds of bidding are done."),
    ("play", "roll"): say("The die has already been rolled: the cards are being played."),
    ("play", "bid"): say("Bidding is over: it is time to play the cards."),
}
ROLL: Action = {"type": "roll"}


# ---- the game's numbers --------------------------------------------------------------------


def cut_winner(cut: list[str]) -> int:
    """The seat whose cut card is highest; equal ranks go by suit S > H > D > C > B (§2.1)."""
    return max(range(len(cut)), key=lambda s: (power(cut[s]), -SUITS.index(suit(cut[s]))))


def rounds_for(players: int) -> int:
    """The largest multiple of the seat count that is at most 12 (§2.2)."""
    return 12 - 12 % players


def hand_size_for(seats: int) -> int:
    """12 cards each, 10 when 6 seats are dealt in (§2.4)."""
    return 10 if seats == 6 else 12


def contract_score(bid: int, won: int, nil_bonus: bool) -> int:
    """§6: made = the bid; broken = minus the shortfall; nil = +5 (or 0) or minus the tricks."""
    if bid == 0:
        return (5 if nil_bonus else 0) if won == 0 else -won
    return bid if won >= bid else won - bid


def contract_status(bid: int | None, won: int, left: int) -> str:
    """A contract while the hand is played: "bidding" (no final bid yet), "nil" (a nil not
    broken yet), "short" (tricks still needed), "made", or "broken" (a nil that took a
    trick, or too few tricks left to reach the bid)."""
    if bid is None:
        return "bidding"
    if bid == 0:
        return "nil" if won == 0 else "broken"
    if won >= bid:
        return "made"
    return "short" if won + left >= bid else "broken"


def left_of(seats: list[int], seat: int) -> int:
    """The next seat dealt in, clockwise (to increasing seat numbers) after ``seat``."""
    later = [s for s in seats if s > seat]
    return later[0] if later else seats[0]


def right_of(seats: list[int], seat: int) -> int:
    earlier = [s for s in seats if s < seat]
    return earlier[-1] if earlier else seats[-1]


def teams_of(players: int, partnerships: bool) -> list[list[int]]:
    """The contracts' sides: partners sit opposite, team = seat mod N/2 (§1); else one each."""
    if not partnerships:
        return [[s] for s in range(players)]
    half = players // 2
    return [[s for s in range(players) if s % half == t] for t in range(half)]


# ---- the engine ----------------------------------------------------------------------------


class Cardice(Engine):
    kind = "cardice"
    title = say("Cardice")
    first_win_card = "5B"
    real_game = RealGame(decisions=5, pace=5.0)  # a few rolls, bids and plays
    milestones = (
        Milestone(
            "cardice-nil",
            say("Made nil"),
            say("Bid nil at Cardice and take no trick."),
            25,
            "fact_total",
            1,
            "9B",
            "bronze",
            say("Nil"),
            fact="made_nils",
        ),
    )
    blurb = say(
        "Five suits, one joker and a die that picks trump: bid your tricks, then take them."
    )
    showcase = ("AB", "JK1")
    min_players = 2
    max_players = 6
    strengths = STRENGTHS
    rated = True
    options = (
        Option(
            "partnerships",
            (False, True),
            say("Partnerships"),
            say("Partners sit opposite and bid, score and win together (4 or 6 seats)."),
            (say("Everyone for themselves"), say("Teams of two")),
        ),
        Option(
            "nil_bonus",
            (True, False),
            say("Nil bonus"),
            say("A made nil (a bid of 0 and no trick taken) scores +5."),
            (say("+5 for a made nil"), say("No bonus")),
        ),
        Option(
            "length",
            ("full", "one"),
            say("Game length"),
            say("A full game deals each seat alike, up to 12 hands; a quick one is a single hand."),
            (say("Full: up to 12 hands"), say("Quick: one hand")),
        ),
    )
    quick = {"length": "one"}
    records = (
        Record("points", say("Best score"), "max"),
        Record("contracts_made", say("Contracts made"), "sum"),
        Record("made_nils", say("Nils made"), "sum"),
        Record("tricks", say("Most tricks in a game"), "max"),
    )

    # ---- setup ----------------------------------------------------------------------------

    def validate_rules(self, rules: dict[str, Any], players: int) -> None:
        if rules["partnerships"] and players not in (4, 6):
            raise IllegalAction(
                say("Partnerships need 4 or 6 seats: two or three teams of two partners.")
            )

    def setup(self, players: int, seed: str, rules: dict[str, Any]) -> State:
        cut = shuffled(SUITED, seed, "cut", 1)[:players]
        dealer = cut_winner(cut)
        state: State = {
            "teams": teams_of(players, rules["partnerships"]),
            "rounds": rounds_for(players) if rules.get("length") != "one" else 1,
            "round": 1,
            "decider": 0,
            "deciders": [0] * players,
            "seats": list(range(players)),
            "cut": cut,
            "first_dealer": dealer,
            "dealer": dealer,
            "totals": [0] * players,
            "sheet": [],
            "over": False,
            "shared": False,
        }
        self._deal(state, seed)
        return state

    def _deal(self, state: State, seed: str) -> Event:
        """Shuffle all 66 cards and deal one at a time from the dealer's left (§2.4); the
        dealer's right rolls next (§2.5)."""
        seats, dealer, players = state["seats"], state["dealer"], len(state["totals"])
        size = hand_size_for(len(seats))
        cards = shuffled(DECK, seed, "deal", state["round"])
        order = [left_of(seats, dealer)]
        while len(order) < len(seats):
            order.append(left_of(seats, order[-1]))
        hands: list[list[str]] = [[] for _ in range(players)]
        for i, card in enumerate(cards[: size * len(seats)]):
            hands[order[i % len(seats)]].append(card)
        state.update(
            hand_size=size,
            hands=[sorted(h, key=hand_order) for h in hands],
            stockpile=cards[size * len(seats) :],
            die=None,
            phase="roll",
            bid_round=0,
            turn=right_of(seats, dealer),
            first_bids=[None] * players,
            bids=[None] * players,
            won=[0] * players,
            trick={"leader": left_of(seats, dealer), "cards": []},
            tricks=[],
        )
        return {
            "type": "cards_dealt",
            "round": state["round"],
            "decider": state["decider"],
            "dealer": dealer,
            "seats": list(seats),
            "hand_size": size,
            "stockpile": len(state["stockpile"]),
        }

    # ---- helpers --------------------------------------------------------------------------

    @staticmethod
    def trump(state: State) -> str | None:
        die = state["die"]
        return None if die in (None, "X") else die

    @staticmethod
    def final_hand(state: State) -> bool:
        """Round R and every decider: the joker may be led (§4)."""
        return state["round"] >= state["rounds"]

    @staticmethod
    def sides(state: State, seats: list[int]) -> list[list[int]]:
        """The contracts among ``seats``, each a list of seats (one seat, or two partners)."""
        inside = set(seats)
        return [[s for s in team if s in inside] for team in state["teams"] if inside & set(team)]

    @staticmethod
    def plays(state: State, trick: dict) -> list[dict]:
        """A trick's cards with the seats that played them: clockwise from its leader."""
        seats = state["seats"]
        start = seats.index(trick["leader"])
        return [
            {"seat": seats[(start + i) % len(seats)], "card": card}
            for i, card in enumerate(trick["cards"])
        ]

    # ---- turn -----------------------------------------------------------------------------

    def to_act(self, state: State) -> list[int]:
        return [] if state["over"] else [state["turn"]]

    def _not_now(self, state: State, seat: Any, phase: str) -> str | None:
        if state["over"]:
            return say("The game is over.")
        if (
            not isinstance(seat, int)
            or isinstance(seat, bool)
            or not 0 <= seat < len(state["totals"])
        ):
            return say("There is no such seat at this table.")
        if seat not in state["seats"]:
            return say("You are not in this decider round: the tied players play it.")
        if state["phase"] != phase:
            return WRONG_PHASE[state["phase"], phase]
        return None

    @why_not("roll")
    def roll_problem(self, state: State, seat: Any, action: Action) -> str | None:
        problem = self._not_now(state, seat, "roll")
        if problem:
            return problem
        if seat != state["turn"]:
            return say("The player to the dealer's right rolls the die.")
        return None

    @why_not("bid")
    def bid_problem(self, state: State, seat: Any, action: Action) -> str | None:
        problem = self._not_now(state, seat, "bid")
        if problem:
            return problem
        if seat != state["turn"]:
            return say("It is not your turn to bid.")
        n, most = action.get("n"), state["hand_size"]
        if not isinstance(n, int) or isinstance(n, bool):
            return say("A bid is a whole number of tricks, from 0 (nil) to {most}.", most=most)
        if n < 0:
            return say("A bid can't be below 0 (nil). There is no passing.")
        if n > most:
            return say("You can bid at most {most} tricks, one per card dealt.", most=most)
        return None

    @why_not("play")
    def play_problem(self, state: State, seat: Any, action: Action) -> str | None:
        problem = self._not_now(state, seat, "play")
        if problem:
            return problem
        if seat != state["turn"]:
            return say("It is not your turn to play.")
        card = action.get("card")
        if not is_card(card):
            return say("That is not a card.")
        hand = state["hands"][seat]
        if card not in hand:
            return say("You don't hold that card.")
        cards = state["trick"]["cards"]
        if not cards:
            if card == JOKER and hand != [JOKER] and not self.final_hand(state):
                return say("The joker can't be led before the last hand of the game.")
            return None
        led = cards[0]
        if card != JOKER and led != JOKER and suit(card) != suit(led):
            s = suit(led)
            if any(suit(c) == s for c in hand):
                return say(
                    "You must follow suit ({symbol} {suit}).",
                    symbol=SUIT_SYMBOLS[s],
                    suit=SUIT_NAMES[s],
                )
        return None

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        phase = state["phase"]
        if phase == "roll":
            candidates = [dict(ROLL)]
        elif phase == "bid":
            candidates = [{"type": "bid", "n": n} for n in range(state["hand_size"] + 1)]
        else:
            candidates = [{"type": "play", "card": c} for c in state["hands"][seat]]
        return [a for a in candidates if self.problem(state, seat, a) is None]

    # ---- moves ----------------------------------------------------------------------------

    @move("roll")
    def roll(self, state: State, seat: int, action: Action) -> list[Event]:
        face = FACES[rng(state["seed"], "die", state["round"]).randrange(6)]
        state["die"] = face
        state["phase"] = "bid"
        state["bid_round"] = 1
        state["turn"] = left_of(state["seats"], state["dealer"])
        return [
            {
                "type": "die_rolled",
                "seat": seat,
                "round": state["round"],
                "face": face,
                "trump": self.trump(state),
            }
        ]

    @move("bid", "n")
    def bid(self, state: State, seat: int, action: Action) -> list[Event]:
        n = action["n"]
        first = state["bid_round"] == 1
        event: Event = {"type": "bid_made", "seat": seat, "bid": n, "bid_round": state["bid_round"]}
        if first:
            state["first_bids"][seat] = n
        else:
            event["changed"] = n != state["first_bids"][seat]
            state["bids"][seat] = n
        events = [event]
        last = right_of(state["seats"], left_of(state["seats"], state["dealer"]))
        state["turn"] = left_of(state["seats"], seat)
        if seat == last:
            if first:
                state["bid_round"] = 2
            else:
                state["phase"] = "play"
                state["bid_round"] = 0
                events.append(
                    {
                        "type": "bidding_closed",
                        "round": state["round"],
                        "bids": list(state["bids"]),
                        "contracts": [
                            {"seats": side, "bid": sum(state["bids"][s] for s in side)}
                            for side in self.sides(state, state["seats"])
                        ],
                    }
                )
        return events

    @move("play", "card")
    def play_card(self, state: State, seat: int, action: Action) -> list[Event]:
        card = action["card"]
        state["hands"][seat].remove(card)
        trick = state["trick"]
        trick["cards"].append(card)
        number = len(state["tricks"]) + 1
        events: list[Event] = [{"type": "card_played", "seat": seat, "card": card, "trick": number}]
        if len(trick["cards"]) < len(state["seats"]):
            state["turn"] = left_of(state["seats"], seat)
            return events
        plays = self.plays(state, trick)
        winner = trick_winner(plays, self.trump(state))
        state["won"][winner] += 1
        state["tricks"].append({**trick, "winner": winner})
        events.append({"type": "trick_won", "seat": winner, "trick": number, "plays": plays})
        state["trick"] = {"leader": winner, "cards": []}
        state["turn"] = winner
        if number == state["hand_size"]:
            self._end_round(state, events)
        return events

    # ---- end of a round and of the game ---------------------------------------------------

    def _end_round(self, state: State, events: list[Event]) -> None:
        players = len(state["totals"])
        inside = set(state["seats"])
        row = {
            "round": state["round"],
            "decider": state["decider"],
            "dealer": state["dealer"],
            "die": state["die"],
            "bids": list(state["bids"]),
            "won": [state["won"][s] if s in inside else None for s in range(players)],
            "points": [None] * players,
        }
        contracts = self.scored(state, row)
        for c in contracts:
            for s in c["seats"]:
                row["points"][s] = c["points"]
                state["totals"][s] += c["points"]
        state["sheet"].append(row)
        events.append(
            {"type": "round_scored", **row, "contracts": contracts, "totals": list(state["totals"])}
        )
        if state["round"] < state["rounds"]:
            self._next_round(state, state["seats"], events)
            return
        # The end of round R or of a decider: is first place still tied (§7)?
        best = max(state["totals"][c["seats"][0]] for c in contracts)
        tied = [c["seats"] for c in contracts if state["totals"][c["seats"][0]] == best]
        if len(tied) == 1:
            self._end_game(state, events)
            return
        if state["decider"] >= MAX_DECIDERS:
            state["shared"] = True
            self._end_game(state, events)
            return
        seats = sorted(s for side in tied for s in side)
        state["decider"] += 1
        for s in seats:
            state["deciders"][s] += 1
        events.append({"type": "decider_called", "decider": state["decider"], "seats": seats})
        self._next_round(state, seats, events)

    def scored(self, state: State, row: dict) -> list[dict]:
        """A sheet row's contracts: seats, bid, tricks won, points and whether made (§6)."""
        out = []
        for side in self.sides(state, [s for s, w in enumerate(row["won"]) if w is not None]):
            bid = sum(row["bids"][s] for s in side)
            won = sum(row["won"][s] for s in side)
            out.append(
                {
                    "seats": side,
                    "bid": bid,
                    "won": won,
                    "points": contract_score(bid, won, state["rules"]["nil_bonus"]),
                    "made": won == 0 if bid == 0 else won >= bid,
                }
            )
        return out

    def _next_round(self, state: State, seats: list[int], events: list[Event]) -> None:
        state["dealer"] = left_of(seats, state["dealer"])
        state["seats"] = seats
        state["round"] += 1
        events.append(self._deal(state, state["seed"]))

    def _end_game(self, state: State, events: list[Event]) -> None:
        state["over"] = True
        state["phase"] = "over"
        state["turn"] = None
        result = self.result(state)
        events.append(
            {
                "type": "game_ended",
                "winners": result["winners"],
                "scores": result["scores"],
                "shared": state["shared"],
            }
        )

    def is_over(self, state: State) -> bool:
        return state["over"]

    def teams(self, rules: dict[str, Any], players: int) -> list[list[int]]:
        return teams_of(players, rules["partnerships"])

    def result(self, state: State) -> dict[str, Any]:
        """Seats still in the running after more deciders rank first; then by total (§7).
        Partners have the same total and deciders, so they share a place."""
        totals = state["totals"]
        keys = [(state["deciders"][s], totals[s]) for s in range(len(totals))]
        order = sorted(set(keys), reverse=True)
        ranking = [[s for s in range(len(totals)) if keys[s] == key] for key in order]
        winners = list(ranking[0]) if state["over"] else []
        return {"scores": list(totals), "winners": winners, "ranking": ranking}

    def facts(self, state: State, seat: int) -> dict[str, int]:
        made = nils = tricks = 0
        for row in state["sheet"]:
            if row["won"][seat] is None:
                continue
            tricks += row["won"][seat]
            nils += row["bids"][seat] == 0 and row["won"][seat] == 0
            made += any(seat in c["seats"] and c["made"] for c in self.scored(state, row))
        return {
            "points": state["totals"][seat],
            "contracts_made": made,
            "made_nils": nils,
            "tricks": tricks,
            "wins": int(seat in self.result(state)["winners"]),
        }

    # ---- what each seat sees --------------------------------------------------------------

    def visible_cards(self, state: State, seat: int | None) -> Counter[str]:
        seen = Counter(state["cut"])
        for trick in [*state["tricks"], state["trick"]]:
            seen.update(trick["cards"])
        if seat is not None and 0 <= seat < len(state["totals"]):
            seen.update(state["hands"][seat])
        return seen

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        players = len(state["totals"])
        over = state["over"]
        trump = self.trump(state)
        seats = state["seats"]
        phase = state["phase"]
        plays = self.plays(state, state["trick"])
        left = state["hand_size"] - len(state["tricks"])
        contracts = []
        for side in self.sides(state, seats):
            bids = [state["bids"][s] for s in side]
            bid = None if None in bids else sum(bids)
            won = sum(state["won"][s] for s in side)
            contracts.append(
                {
                    "seats": side,
                    "bid": bid,
                    "won": won,
                    "needed": None if bid is None else max(bid - won, 0),
                    "status": contract_status(bid, won, left),
                    "total": state["totals"][side[0]],
                }
            )
        sheet, running = [], [0] * players
        for row in state["sheet"]:
            for s, points in enumerate(row["points"]):
                running[s] += points or 0
            line = {**row, "bids": list(row["bids"]), "won": list(row["won"])}
            line.update(points=list(row["points"]), totals=list(running))
            line["contracts"] = self.scored(state, row)
            sheet.append(line)

        def marked(plays: list[dict]) -> list[dict]:
            # The table marks every trump, in hand and on the table.
            return [{**p, "trump": p["card"] != JOKER and suit(p["card"]) == trump} for p in plays]

        view: dict[str, Any] = {
            "kind": self.kind,
            "players": players,
            "seat": seat,
            "partnerships": state["rules"]["partnerships"],
            "nil_bonus": state["rules"]["nil_bonus"],
            "teams": [list(t) for t in state["teams"]] if state["rules"]["partnerships"] else None,
            "round": state["round"],
            "rounds": state["rounds"],
            "decider": state["decider"],
            "final_hand": self.final_hand(state),
            "cut": list(state["cut"]),
            "first_dealer": state["first_dealer"],
            "dealer": state["dealer"],
            "roller": right_of(seats, state["dealer"]),
            "seats": list(seats),
            "in_round": [s in seats for s in range(players)],
            "hand_size": state["hand_size"],
            "hand_counts": [len(h) for h in state["hands"]],
            "stockpile": len(state["stockpile"]),
            "phase": phase,
            "bid_round": state["bid_round"] or None,
            "turn": state["turn"],
            "to_act": self.to_act(state),
            "die": state["die"],
            "trump": trump,
            "trump_name": None if state["die"] is None else FACE_NAMES[state["die"]],
            "first_bids": list(state["first_bids"]),
            "bids": list(state["bids"]),
            "won": [state["won"][s] if s in seats else None for s in range(players)],
            "contracts": contracts,
            "trick": {
                "number": len(state["tricks"]) + (0 if over else 1),
                "leader": state["trick"]["leader"],
                "plays": marked(plays),
                "led": suit(plays[0]["card"]) if plays and plays[0]["card"] != JOKER else None,
                "winning": trick_winner(plays, trump) if plays else None,
            },
            "tricks": [
                {
                    "leader": t["leader"],
                    "winner": t["winner"],
                    "plays": marked(self.plays(state, t)),
                }
                for t in state["tricks"]
            ],
            "tricks_left": 0 if over else left,
            "sheet": sheet,
            "totals": list(state["totals"]),
            "over": over,
            "shared": state["shared"],
            "result": self.result(state) if over else None,
        }
        if seat is not None and isinstance(seat, int) and 0 <= seat < players:
            playable = {a["card"] for a in self.legal_actions(state, seat) if a["type"] == "play"}
            view["you"] = {
                "hand": [
                    {"card": c, "playable": c in playable, "trump": c != JOKER and suit(c) == trump}
                    for c in state["hands"][seat]
                ],
                "in_round": seat in seats,
                "team": next((list(t) for t in state["teams"] if seat in t), [seat]),
                "must": phase if state["turn"] == seat and not over else None,
                "first_bid": state["first_bids"][seat],
                "bid": state["bids"][seat],
                "won": state["won"][seat],
            }
        return view

    # ---- the computer player --------------------------------------------------------------

    def bot(
        self, view: dict[str, Any], legal: list[Action], rng: random.Random, strength: str = MEDIUM
    ) -> Action:
        return players.bot(view, legal, rng, strength)


ENGINE = Cardice()
