"""How far a search could go with perfect knowledge: Expert handed the hidden cards.

    .venv/bin/python bench/sees_all.py --kind gin [--games 200] [--stock]
    .venv/bin/python bench/sees_all.py --kind crazy8 --know 0.3 [--games 400]

Expert's search normally guesses the cards its seat can't see. Here (and only here: a
benchmark, never the game) its guesses are replaced by the truth: the opponents' real hands,
and with ``--stock`` the draw pile's real order too. It plays ``--games`` games against
today's computer (``bench/baselines/today/<kind>.py``), seats alternating, and prints its
score with a 95% interval: the ceiling that better guessing could approach.

``--know P`` (shedding games) hands it a guess of known quality instead: each card of each
other hand is its real card with chance P, else a card dealt at random from the rest of the
cards it can't see (the draw pile and the other hands' unkept cards). So it prints how good a
guess of the hidden hands must be for the search to reach a given score.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from ladder import Player, play  # noqa: E402

from gameplay.engine import melds, registry  # noqa: E402
from gameplay.engine.cards import suit  # noqa: E402
from gameplay.engine.core import clone  # noqa: E402
from gameplay.engine.games.gin import strategy as gin_strategy  # noqa: E402
from gameplay.engine.games.shedding import search as shedding_search  # noqa: E402


class Seeing(Player):
    """Expert, its guesses replaced by the real state of the table."""

    def __init__(self, engine, stock: bool, know: float = 1.0, suits: bool = False):
        super().__init__(engine, "expert")
        self.stock = stock
        self.know = know
        self.suits = suits

    def act(self, state, seat: int):
        if self.engine.kind == "gin":
            truth = melds.hand_mask(state["hands"][1 - seat])
            gin_strategy.Guess.hands = lambda guess, rng, pool, keep: [truth] * keep
        else:
            stock, know, suits = self.stock, self.know, self.suits

            def determinize(base, view, rng, clue=None):  # the truth needs no reading
                real = clone(base)
                real["hands"] = [list(h) for h in state["hands"]]
                real["stock"] = list(state["stock"])
                if suits:
                    # Each card of the other hands dealt anew from the unseen cards of its
                    # class: its suit, or wild (an 8 or a joker) whatever its suit.
                    effects = base["ruleset"]["effects"]

                    def kind(card):
                        return "wild" if shedding_search.is_wild(effects, card) else suit(card)

                    pool = [c for s, h in enumerate(real["hands"]) if s != seat for c in h]
                    pool += real["stock"]
                    rng.shuffle(pool)
                    for s, hand in enumerate(real["hands"]):
                        if s == seat:
                            continue
                        for i, card in enumerate(hand):
                            same = next(j for j, c in enumerate(pool) if kind(c) == kind(card))
                            hand[i] = pool.pop(same)
                    real["stock"] = pool
                elif know < 1.0:
                    # Unkept cards of the other hands and the draw pile, dealt anew.
                    slots = [
                        (s, i)
                        for s, hand in enumerate(real["hands"])
                        if s != seat
                        for i in range(len(hand))
                        if rng.random() >= know
                    ]
                    pool = [real["hands"][s][i] for s, i in slots] + real["stock"]
                    rng.shuffle(pool)
                    for (s, i), card in zip(slots, pool, strict=False):
                        real["hands"][s][i] = card
                    real["stock"] = pool[len(slots) :]
                elif not stock:
                    rng.shuffle(real["stock"])
                return real

            shedding_search.determinize = determinize
        return super().act(state, seat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kind", required=True, choices=["gin", "crazy8", "american8"])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", default="sees-all")
    parser.add_argument("--stock", action="store_true", help="the draw pile's order too")
    parser.add_argument(
        "--know", type=float, default=1.0, help="the chance each hidden card is handed right"
    )
    parser.add_argument(
        "--suits", action="store_true", help="the other hands' suits (and wild cards) only"
    )
    args = parser.parse_args()
    if args.kind == "gin" and args.stock:
        parser.error("Gin's search draws its own stock order: --stock is for the shedding games")
    if args.know < 1.0 and (args.kind == "gin" or args.stock):
        parser.error("--know is for the other hands of the shedding games")
    engine = registry.get(args.kind)
    random.seed(args.seed)
    mean, half = play(
        engine,
        Seeing(engine, args.stock, args.know, args.suits),
        Player(engine, "today"),
        args.games,
        args.seed,
    )
    what = "every card" if args.stock else "the other hands"
    if args.suits:
        what = "the other hands' suits"
    elif args.know < 1.0:
        what = f"each card of the other hands with chance {args.know}"
    print(
        f"{args.kind}: Expert seeing {what} against today's: {100 * mean:.1f}% ± {100 * half:.1f}%"
    )


if __name__ == "__main__":
    main()
