"""How much of the other hand a guess can name in Crazy 8 and 8 Américain, from everything the
table showed.

    .venv/bin/python bench/shedding_guess.py [--kind crazy8] [--games 200] [--seed guess]

Today's computer plays both seats of two-player games. At each of seat 0's turns, three
guesses of seat 1's hand are made, and the share of their cards that seat 1 really holds is
averaged:

- **uniform**: the right number of cards drawn from those seat 0 has not seen;
- **search**: Expert's own guess (``search.determinize``, from seat 0's view);
- **every fact**: a guess from the whole round as the table saw it. Today's computer draws
  only when it holds no card that may go, plays the drawn card if it fits and else passes; so
  after each draw, every card it then held (and, after a pass, the drawn card too) matched
  neither the suit to follow nor the top card's rank, nor was wild. Of its hand now, at least
  the hand's size less the cards it drew since are such cards; the guess deals those first from
  the unseen cards that fit every fact since, the rest at random. This reads more than a
  seat's view holds (the round's whole story) and assumes the other seat plays like today's
  computer: the most a guess could know here, not what the search can use.

``--know P`` runs of ``bench/sees_all.py`` give the score a guess of each quality brings.
A benchmark, not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gameplay.engine import MEDIUM, registry  # noqa: E402
from gameplay.engine.cards import rank, suit  # noqa: E402
from gameplay.engine.games.shedding import search  # noqa: E402
from gameplay.engine.games.shedding.ruleset import effect_of, full_deck  # noqa: E402

GUESSES = 3  # guesses a position, of each kind


class Facts:
    """One seat's draws this round: [suit to follow, top rank, cards drawn since] each."""

    def __init__(self):
        self.facts: list[list] = []
        self.drew_on: tuple[str, str] | None = None

    def seen(self, action: dict, follow: str, top: str, drawn: int) -> None:
        for fact in self.facts:
            fact[2] += drawn
        kind = action["type"]
        if kind == "draw":
            self.drew_on = (follow, rank(top))
        elif self.drew_on and kind in ("pass", "play"):
            # After a pass the drawn card is one of them; after a play, the card played may
            # have been the one drawn, so only the hand before the draw is.
            self.facts.append([*self.drew_on, 0 if kind == "pass" else 1])
            self.drew_on = None

    def guess(self, rules: dict, unseen: list[str], size: int, rng: random.Random) -> list[str]:
        pool = list(unseen)
        rng.shuffle(pool)
        guess: list[str] = []
        for i, (_, _, since) in enumerate(self.facts):
            need = max(0, size - since) - len(guess)
            if need <= 0:
                continue
            later = self.facts[i:]
            fitting = [
                c
                for c in pool
                if effect_of(rules["effects"], c) != ("wish", 0)
                and all(suit(c) != s and rank(c) != r for s, r, _ in later)
            ]
            for card in fitting[:need]:
                pool.remove(card)
                guess.append(card)
        return guess + pool[: size - len(guess)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kind", default="crazy8", choices=["crazy8", "american8"])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", default="guess")
    args = parser.parse_args()
    engine = registry.get(args.kind)
    totals = {"uniform": 0.0, "search": 0.0, "reads": 0.0, "every fact": 0.0}
    by_suit = dict.fromkeys(totals, 0.0)
    positions = 0
    for g in range(args.games):
        state = engine.new_game(2, f"{args.seed}/{g}")
        facts, round_no = Facts(), state["round"]
        while not engine.is_over(state):
            if state["round"] != round_no:
                facts, round_no = Facts(), state["round"]
            seat = engine.to_act(state)[0]
            rules, other = state["ruleset"], state["hands"][1]
            if seat == 0 and other:
                held, size = set(other), len(other)
                seen = set(state["hands"][0]) | set(state["discards"])
                unseen = [c for c in full_deck(rules) if c not in seen]
                view = engine.view(state, 0)
                rng = random.Random(f"{args.seed}/{g}/{positions}")
                held_suits = Counter(suit(c) for c in held)
                base = search.rebuild(view)
                clue = search.Reads.read(engine, base, view)
                for _ in range(GUESSES):
                    guesses = {
                        "uniform": rng.sample(unseen, size),
                        "search": search.determinize(base, view, rng)["hands"][1],
                        "reads": search.determinize(base, view, rng, clue)["hands"][1],
                        "every fact": facts.guess(rules, unseen, size, rng),
                    }
                    for name, guess in guesses.items():
                        totals[name] += sum(c in held for c in guess) / size / GUESSES
                        guessed = Counter(suit(c) for c in guess)
                        same = sum(min(n, held_suits[x]) for x, n in guessed.items())
                        by_suit[name] += same / size / GUESSES
                positions += 1
            action = engine.bot_action(state, seat, MEDIUM)
            follow, top, before = state["suit"], state["discards"][-1], len(state["hands"][seat])
            engine.apply(state, seat, action)
            if seat == 1 and state["round"] == round_no:
                drawn = len(state["hands"][1]) - before + (action["type"] == "play")
                facts.seen(action, follow, top, drawn)
    print(f"{args.kind}: {args.games} games, {positions} positions of seat 0")
    print("share of a guess's cards that the other seat holds:")
    for name, total in totals.items():
        print(f"  {name:<11} {total / positions:.3f}   suits {by_suit[name] / positions:.3f}")


if __name__ == "__main__":
    main()
