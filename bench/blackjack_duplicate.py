"""Blackjack Expert against Hard on the plays they disagree on: duplicate rollouts.

    .venv/bin/python bench/blackjack_duplicate.py [--games 200] [--seed dup] [--samples 200]
        [--seats 1] [--show 8]

Expert and Hard bet alike (the same count) and cash out alike; they differ only on a few
close plays, so whole games (bench/ladder.py) drown the difference in the luck of the cards.
Here the seat under test plays whole games as Hard (bets and plays) through the real engine
(game ``i`` from the seed ``f"{seed}/blackjack/{i}"``; with ``--seats`` above 1 it sits at
seat ``i % seats`` and Expert plays the other seats, the ladder's table at 2). At every play
where Expert's choice (``shoe.expert_play``) differs from Hard's (``counting.hard_play``),
both from the seat's own view, the round is finished from that exact state once with each
choice: the seat's later plays in that hand are Expert's in both branches (so only that one
decision differs), the other seats play as they do, and the dealer as the rules say. Both
branches get the same cards (common random numbers): the real shoe once, then ``--samples``
deals of the cards the seat cannot see (the shoe and the hole card, the hole card never one
that would have given the dealer a blackjack the peek ruled out), each a copy of the state.
The gain at a divergence is the mean over those deals of (the seat's chips after the round
with Expert's choice - with Hard's); the game then goes on with Hard's choice.

Printed: rounds the seat played, divergences (count, a round), the gain a divergence in chips
and minimum bets (5 chips) with a 95% interval over divergences, the gain a round (interval
over games, so the number of divergences varies too), the CPU time a play of expert_play and
hard_play (p50 / p99), and the divergences whose gain is below 0 beyond their own noise (the
mean over deals + 1.96 standard errors < 0): a sign that Expert's computation and the engine's
rules disagree somewhere. Only the bench handles the shoe; the players see their views.
A benchmark, not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from ladder import percentile  # noqa: E402

from gameplay.engine import registry  # noqa: E402
from gameplay.engine.core import clone  # noqa: E402
from gameplay.engine.games.blackjack.counting import hard_play, upcard  # noqa: E402
from gameplay.engine.games.blackjack.engine import (  # noqa: E402
    MIN_BET,
    card_value,
    is_blackjack,
    peeks,
)
from gameplay.engine.games.blackjack.shoe import expert_play  # noqa: E402

ENGINE = registry.get("blackjack")
EXPERT_PLAYS: dict[tuple, str] = {}  # expert_play depends on nothing else than this key


def expert(view: dict, can_double: bool) -> str:
    """expert_play, remembered: the same hand, upcard and cards left on every deal."""
    cards = view["seats"][view["seat"]]["cards"]
    key = (
        sum(card_value(c) for c in cards),
        any(card_value(c) == 1 for c in cards),
        tuple(view["cards_left"]),
        upcard(view),
        can_double,
    )
    if key not in EXPERT_PLAYS:
        EXPERT_PLAYS[key] = expert_play(view, can_double)
    return EXPERT_PLAYS[key]


def can_double(state: dict, seat: int) -> bool:
    return {"type": "double"} in ENGINE.legal_actions(state, seat)


def act(state: dict, seat: int, strength: str) -> dict:
    """The computer player's action; Expert's plays through ``expert``."""
    if state["phase"] == "play" and strength == "expert":
        return {"type": expert(ENGINE.view(state, seat), can_double(state, seat))}
    return ENGINE.bot_action(state, seat, strength)


def round_chips(state: dict, seat: int, first: str, strengths: list[str]) -> int:
    """The seat's chips once the round is over, after ``first`` on a copy of ``state``."""
    state = clone(state)
    ENGINE.apply(state, seat, {"type": first})
    while state["phase"] == "play":
        turn = state["turn"]
        ENGINE.apply(state, turn, act(state, turn, "expert" if turn == seat else strengths[turn]))
    return state["seats"][seat]["chips"]


def deals(state: dict, rng: random.Random, samples: int):
    """The real state, then ``samples`` copies with the unseen cards (shoe and hole card)
    dealt anew: a hole card the peek allows, the rest shuffled into the shoe."""
    yield state
    up, hole = state["dealer"][0], state["dealer"][1]
    pool = state["shoe"] + [hole]
    holes = [i for i, c in enumerate(pool) if not (peeks(up) and is_blackjack([up, c]))]
    for _ in range(samples):
        i = rng.choice(holes)
        shoe = pool[:i] + pool[i + 1 :]
        rng.shuffle(shoe)
        copy = clone(state)
        copy["dealer"][1], copy["shoe"] = pool[i], shoe
        copy["table"][copy["table"].index(hole)] = pool[i]  # the same cards in all
        yield copy


def divergence(state, seat, choices, strengths, rng, samples) -> tuple[float, float]:
    """Mean chips (Expert's choice - Hard's) over the deals, and its standard error."""
    EXPERT_PLAYS.clear()  # keep only this divergence's continuations
    hard, expert_choice = choices
    diffs = [
        round_chips(s, seat, expert_choice, strengths) - round_chips(s, seat, hard, strengths)
        for s in deals(state, rng, samples)
    ]
    mean = sum(diffs) / len(diffs)
    spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(len(diffs) - 1, 1))
    return mean, spread / math.sqrt(len(diffs))


def interval(values: list[float]) -> tuple[float, float]:
    """Mean and 95% half-interval."""
    n = len(values)
    mean = sum(values) / max(n, 1)
    spread = math.sqrt(sum((x - mean) ** 2 for x in values) / max(n - 1, 1))
    return mean, 1.96 * spread / math.sqrt(max(n, 1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", default="dup")
    parser.add_argument("--samples", type=int, default=200, help="deals of the unseen cards")
    parser.add_argument("--seats", type=int, default=1, choices=[1, 2, 3, 4])
    parser.add_argument("--show", type=int, default=8, help="negative divergences listed")
    args = parser.parse_args()
    registry.warm_up()
    started, wall = time.process_time(), time.perf_counter()
    times: dict[str, list[float]] = {"expert_play": [], "hard_play": []}
    found = []  # one dict a divergence
    per_game = []  # (gain in chips, rounds played) a game
    rounds = 0
    for g in range(args.games):
        state = ENGINE.new_game(args.seats, f"{args.seed}/blackjack/{g}")
        me = g % args.seats
        strengths = ["hard" if s == me else "expert" for s in range(args.seats)]
        rng = random.Random(f"{args.seed}/deals/{g}")
        game_gain, game_rounds = 0.0, 0
        while not ENGINE.is_over(state):
            for seat in ENGINE.to_act(state):
                if seat not in ENGINE.to_act(state):
                    continue  # the bets moved on
                if seat != me or state["phase"] != "play":
                    action = act(state, seat, strengths[seat])
                    game_rounds += seat == me and action["type"] == "bet"
                    ENGINE.apply(state, seat, action)
                    continue
                view, double = ENGINE.view(state, me), can_double(state, me)
                choices = []
                for name, play in (("hard_play", hard_play), ("expert_play", expert_play)):
                    tick = time.process_time()
                    choices.append(play(view, double))
                    times[name].append(time.process_time() - tick)
                if choices[0] != choices[1]:
                    mean, error = divergence(state, me, choices, strengths, rng, args.samples)
                    hand = view["seats"][me]
                    found.append(
                        {
                            "gain": mean,
                            "error": error,
                            "hand": " ".join(hand["cards"]),
                            "total": hand["total"],
                            "soft": hand["soft"],
                            "up": upcard(view),
                            "cards_left": view["cards_left"],
                            "bet": hand["bet"],
                            "hard": choices[0],
                            "expert": choices[1],
                        }
                    )
                    game_gain += mean
                ENGINE.apply(state, me, {"type": choices[0]})  # the game stays Hard's
        per_game.append((game_gain, game_rounds))
        rounds += game_rounds
    report(args, found, per_game, rounds, times)
    print(f"\n{time.perf_counter() - wall:.0f} s wall, {time.process_time() - started:.0f} s CPU")


def report(args, found, per_game, rounds, times) -> None:
    n = len(found)
    table = "1 seat" if args.seats == 1 else f"{args.seats} seats (Expert on the others)"
    print(
        f"blackjack: Expert's play against Hard's where they differ, {args.games} games at "
        f"{table}, seed {args.seed!r}, the real shoe + {args.samples} deals a divergence"
    )
    print(f"rounds played: {rounds}; divergences: {n} ({n / max(rounds, 1):.4f} a round)")
    mean, half = interval([d["gain"] for d in found])
    print(
        f"gain a divergence: {mean:+.3f} ± {half:.3f} chips = {mean / MIN_BET:+.4f} ± "
        f"{half / MIN_BET:.4f} minimum bets"
    )
    # Gain a round: a ratio over games, its interval by the delta method (games independent).
    total = sum(g for g, _ in per_game)
    ratio = total / max(rounds, 1)
    k = len(per_game)
    mean_rounds = rounds / max(k, 1)
    spread = math.sqrt(sum((g - ratio * r) ** 2 for g, r in per_game) / max(k - 1, 1))
    half_round = 1.96 * spread / math.sqrt(max(k, 1)) / max(mean_rounds, 1e-9)
    print(
        f"gain a round: {ratio / MIN_BET:+.5f} ± {half_round / MIN_BET:.5f} minimum bets "
        f"({ratio:+.4f} ± {half_round:.4f} chips; the divergences' interval x their rate: "
        f"± {half * n / max(rounds, 1) / MIN_BET:.5f})"
    )
    kinds = defaultdict(list)
    for d in found:
        kinds[f"{d['hard']}->{d['expert']}"].append(d["gain"] / MIN_BET)
    for kind, gains in sorted(kinds.items(), key=lambda kv: -len(kv[1])):
        m, h = interval(gains)
        print(f"  Hard {kind:<14} {len(gains):>6} times, {m:+.4f} ± {h:.4f} min. bets")
    print("CPU a play (ms): p50 / p99 / max")
    for name, seconds in times.items():
        ms = [1000 * t for t in seconds]
        print(
            f"  {name:>11}: {percentile(ms, 0.5):.3f} / {percentile(ms, 0.99):.2f} / "
            f"{max(ms, default=0):.1f} ({len(ms)} plays)"
        )
    worse = sorted((d for d in found if d["gain"] + 1.96 * d["error"] < 0), key=lambda d: d["gain"])
    better = sum(d["gain"] - 1.96 * d["error"] > 0 for d in found)
    print(
        f"divergences below 0 beyond their noise: {len(worse)} of {n} (about {0.025 * n:.0f} "
        f"by chance if none were); above 0 beyond it: {better}"
    )
    for d in worse[: args.show]:
        print(
            f"  {d['hand']:<12} total {d['total']:>2}{' soft' if d['soft'] else '     '} "
            f"up {d['up']:>2} bet {d['bet']:>2} cards_left {d['cards_left']} "
            f"(sum {sum(d['cards_left'])}): Hard {d['hard']}, Expert {d['expert']}: "
            f"{d['gain']:+.2f} ± {1.96 * d['error']:.2f} chips"
        )


if __name__ == "__main__":
    main()
