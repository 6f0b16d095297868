"""Cardice: the share of contracts made, the computer at every seat beside the baseline at
every seat, over the same seeded 4-seat hands (rounds of games; deciders count as hands).

The baseline bids the number of its Aces and Kings (clamped to the bids allowed) and plays a
random legal card. A contract is one seat's (there are no partnerships at the default rules).
Beside the rate: the mean bid and the mean points per contract, so a rate bought by bidding
low shows.
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


def play_hands(engine, hands: int, seed: str, computer: bool) -> dict:
    """Play seeded 4-seat games until ``hands`` rounds are scored; count their contracts."""
    per_hand: list[float] = []
    bids = points = contracts = 0
    game = 0
    while len(per_hand) < hands:
        game_seed = f"{seed}/cardice/{game}"
        game += 1
        state = engine.new_game(PLAYERS, game_seed)
        scored = 0
        while not engine.is_over(state) and len(per_hand) < hands:
            seat = engine.to_act(state)[0]
            if computer:
                action = engine.bot_action(state, seat)
            else:
                rng = random.Random(f"{game_seed}/baseline/{seat}/{state['applied']}")
                action = baseline(engine.view(state, seat), engine.legal_actions(state, seat), rng)
            engine.apply(state, seat, action)
            for row in state["sheet"][scored:]:
                made = [c["made"] for c in row["contracts"]]
                per_hand.append(sum(made) / len(made))
                bids += sum(c["bid"] for c in row["contracts"])
                points += sum(c["points"] for c in row["contracts"])
                contracts += len(made)
            scored = len(state["sheet"])
    per_hand = per_hand[:hands]
    rate = sum(per_hand) / len(per_hand)
    spread = math.sqrt(sum((x - rate) ** 2 for x in per_hand) / max(len(per_hand) - 1, 1))
    return {
        "rate": rate,
        "half": 1.96 * spread / math.sqrt(len(per_hand)),
        "bid": bids / contracts,
        "points": points / contracts,
    }


def measure(engine, games: int, seed: str) -> str:
    bot = play_hands(engine, games, seed, computer=True)
    base = play_hands(engine, games, seed, computer=False)
    return (
        f"contracts made over {games} {PLAYERS}-seat hands: "
        f"computer {100 * bot['rate']:.1f}% ± {100 * bot['half']:.1f}% "
        f"(mean bid {bot['bid']:.2f}, {bot['points']:+.2f} points a contract), "
        f"baseline {100 * base['rate']:.1f}% ± {100 * base['half']:.1f}% "
        f"(mean bid {base['bid']:.2f}, {base['points']:+.2f} points a contract): "
        f"{bot['rate'] / base['rate']:.2f}× the baseline (goal 1.5×)"
    )
