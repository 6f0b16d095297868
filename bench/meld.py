"""Best-arrangement calls per second: our meld solver beside RLCard's, on the same hands.

    .venv/bin/python bench/meld.py [--hands 10000] [--repeat 10] [--seed 1]

Hand sets (the same hands for every solver):
- random: ``--hands`` random 10-card hands;
- meld-rich: ``--hands`` 10-card hands in which at least half the cards were dealt as melds
  (sets of 3–4 or runs of 3–5, chosen at random until 5 or more cards are in them), the rest
  random;
- wild: ``--hands`` random 7-card hands with a random wild rank (Thirteen), and as many that
  hold at least one wild card.

Measured: ``melds.arrange`` (card strings in, the best arrangement with its melds, deadwood
and points out) and ``melds.deadwood`` (points only). When the ``rlcard`` package is
installed (it is not a project dependency: ``pip install rlcard`` into the venv),
``rlcard.games.gin_rummy.utils.melding.get_best_meld_clusters`` runs on the same hands as
RLCard's own cards, and the ratio ours / RLCard is printed; before timing, the least deadwood
of every hand is checked to agree. Without rlcard the known figures (about 107,000 calls/s
random, 20,000 meld-rich on a 2-core machine like ours) are the comparison, and the printout
says so. Each figure is the best of ``--repeat`` passes; the solvers take turns in each pass.
Goal: at least twice RLCard's rate on both 10-card sets while exact.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gameplay.engine import melds  # noqa: E402
from gameplay.engine.cards import RANKS, SUITS, deck  # noqa: E402

try:
    from rlcard.games.gin_rummy.utils import utils as rl_utils
    from rlcard.games.gin_rummy.utils.melding import get_best_meld_clusters
except ImportError:  # rlcard is optional: the quoted figures stand in for it
    get_best_meld_clusters = None

QUOTED = {"random": 107_000, "meld-rich": 20_000}
DECK = deck()


def meld_rich(rng: random.Random, size: int = 10) -> list[str]:
    hand: set[str] = set()
    while len(hand) < size // 2:
        if rng.random() < 0.5:
            r = rng.choice(RANKS)
            group = {r + s for s in rng.sample(SUITS, rng.choice((3, 4)))}
        else:
            length = rng.choice((3, 4, 5))
            start = rng.randrange(0, 14 - length)
            suit = rng.choice(SUITS)
            group = {RANKS[i] + suit for i in range(start, start + length)}
        if len(hand | group) <= size:
            hand |= group
    hand |= set(rng.sample([c for c in DECK if c not in hand], size - len(hand)))
    return rng.sample(sorted(hand), size)


def rl_hand(hand: list[str]) -> list:
    return [rl_utils.card_from_text(c.replace("10", "T")) for c in hand]


def rl_deadwood(hand, clusters) -> int:
    if not clusters:
        return sum(rl_utils.get_deadwood_value(c) for c in hand)
    return rl_utils.get_deadwood_count(hand, clusters[0])


def best_rates(loops: dict, count: int, repeat: int) -> dict[str, float]:
    best = dict.fromkeys(loops, float("inf"))
    for _ in range(repeat):
        for name, loop in loops.items():
            start = time.perf_counter()
            loop()
            best[name] = min(best[name], time.perf_counter() - start)
    return {name: count / seconds for name, seconds in best.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    n = args.hands
    rng = random.Random(args.seed)
    sets = {
        "random": [rng.sample(DECK, 10) for _ in range(n)],
        "meld-rich": [meld_rich(rng) for _ in range(n)],
    }
    arrange = melds.arrange
    deadwood = melds.deadwood
    print(f"{n} hands per set, best of {args.repeat} passes")
    for name, hands in sets.items():
        loops = {
            "arrange": lambda hands=hands: [arrange(h) for h in hands],
            "deadwood": lambda hands=hands: [deadwood(h) for h in hands],
        }
        if get_best_meld_clusters is not None:
            rl_hands = [rl_hand(h) for h in hands]
            wrong = sum(
                rl_deadwood(h, get_best_meld_clusters(h)) != deadwood(ours)
                for h, ours in zip(rl_hands, hands, strict=True)
            )
            print(f"  {name}: least deadwood agrees with RLCard on {n - wrong} of {n} hands")
            loops["rlcard"] = lambda rl_hands=rl_hands: [
                get_best_meld_clusters(h) for h in rl_hands
            ]
        rates = best_rates(loops, n, args.repeat)
        if "rlcard" in rates:
            base, source = rates["rlcard"], "RLCard measured in this run"
        else:
            base, source = QUOTED[name], "RLCard's quoted figure (rlcard not installed)"
        print(
            f"{name:>10}: arrange {rates['arrange']:>9,.0f}/s ({rates['arrange'] / base:.1f}× RLCard)"
            f", deadwood only {rates['deadwood']:>9,.0f}/s ({rates['deadwood'] / base:.1f}×)"
            f"; RLCard {base:,.0f}/s — {source}"
        )

    wild_rng = random.Random(args.seed + 1)
    plain_wild = [(wild_rng.sample(DECK, 7), wild_rng.randint(1, 13)) for _ in range(n)]
    holding = []
    while len(holding) < n:
        hand, wild = wild_rng.sample(DECK, 7), wild_rng.randint(1, 13)
        if any(RANKS.index(c[:-1]) + 1 == wild for c in hand):
            holding.append((hand, wild))
    for name, hands in (("7 cards, a wild rank", plain_wild), ("7 cards, 1+ wild held", holding)):
        rates = best_rates(
            {
                "arrange": lambda hands=hands: [arrange(h, w) for h, w in hands],
                "deadwood": lambda hands=hands: [deadwood(h, w) for h, w in hands],
            },
            n,
            args.repeat,
        )
        print(
            f"{name:>22}: arrange {rates['arrange']:>9,.0f}/s, "
            f"deadwood only {rates['deadwood']:>9,.0f}/s"
        )


if __name__ == "__main__":
    main()
