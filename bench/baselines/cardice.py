"""Cardice: the share of contracts made by the computer at every seat, beside the baseline at
every seat, over the same seeded 4-seat hands (the rounds of seeded games, deciders
included; one contract per seat at the default rules). Then both at one table, the computer
at the even seats in even games and the odd seats in odd games.

The baseline bids the number of its Aces and Kings (clamped to the bids allowed) and plays a
random legal card. Beside each rate: the mean bid and the mean points a contract, so a rate
bought by bidding low would show.
"""

from __future__ import annotations

import math
import random

PLAYERS = 4


def baseline(view, legal, rng):
    if legal[0]["type"] == "bid":
        honours = sum(1 for h in view["you"]["hand"] if h["card"][:-1] in ("A", "K"))
        bids = [a["n"] for a in legal]
        n = min(max(honours, min(bids)), max(bids))
        return next(a for a in legal if a["n"] == n)
    return rng.choice(legal)


class Tally:
    """Contracts of one side: made per hand (for the interval), bids and points."""

    def __init__(self):
        self.per_hand: list[float] = []
        self.bids = self.points = self.count = 0

    def add(self, contracts: list[dict]) -> None:
        if not contracts:
            return
        self.per_hand.append(sum(c["made"] for c in contracts) / len(contracts))
        self.bids += sum(c["bid"] for c in contracts)
        self.points += sum(c["points"] for c in contracts)
        self.count += len(contracts)

    def text(self, who: str) -> str:
        n = len(self.per_hand)
        rate = sum(self.per_hand) / n
        spread = math.sqrt(sum((x - rate) ** 2 for x in self.per_hand) / max(n - 1, 1))
        return (
            f"{who} {100 * rate:.1f}% ± {100 * 1.96 * spread / math.sqrt(n):.1f}% "
            f"(mean bid {self.bids / self.count:.2f}, {self.points / self.count:+.2f} points "
            "a contract)"
        )

    @property
    def rate(self) -> float:
        return sum(self.per_hand) / len(self.per_hand)


def play_hands(engine, hands: int, seed: str, computer) -> tuple[Tally, Tally]:
    """Play seeded 4-seat games until ``hands`` rounds are scored, ``computer(game)`` giving
    the computer's seats; tally the contracts of its seats and of the baseline's (read from
    the "round_scored" events)."""
    mine, theirs = Tally(), Tally()
    scored = game = 0
    while scored < hands:
        game_seed = f"{seed}/cardice/{game}"
        seats = computer(game)
        game += 1
        state = engine.new_game(PLAYERS, game_seed)
        while not engine.is_over(state) and scored < hands:
            seat = engine.to_act(state)[0]
            if seat in seats:
                action = engine.bot_action(state, seat)
            else:
                rng = random.Random(f"{game_seed}/baseline/{seat}/{state['applied']}")
                action = baseline(engine.view(state, seat), engine.legal_actions(state, seat), rng)
            for event in engine.apply(state, seat, action):
                if event["type"] == "round_scored":
                    scored += 1
                    contracts = event["contracts"]
                    mine.add([c for c in contracts if c["seats"][0] in seats])
                    theirs.add([c for c in contracts if c["seats"][0] not in seats])
    return mine, theirs


def measure(engine, games: int, seed: str) -> str:
    every = set(range(PLAYERS))
    bot, _ = play_hands(engine, games, seed, lambda game: every)
    _, base = play_hands(engine, games, seed, lambda game: set())
    mixed_bot, mixed_base = play_hands(
        engine, games, seed, lambda game: {s for s in every if s % 2 == game % 2}
    )
    return (
        f"contracts made over {games} {PLAYERS}-seat hands: "
        f"{bot.text('computer at every seat')}, {base.text('baseline at every seat')}: "
        f"{bot.rate / base.rate:.2f}× the baseline (goal 1.5×); at one table: "
        f"{mixed_bot.text('computer')}, {mixed_base.text('baseline')}: "
        f"{mixed_bot.rate / mixed_base.rate:.2f}×"
    )
