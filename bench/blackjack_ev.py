"""Return per unit bet of the computed blackjack strategy, beside the exact expectation.

    .venv/bin/python bench/blackjack_ev.py --rounds 2000000

What is simulated (say which with --mode):

- ``shoe`` (default): a fast single-seat simulator of the real game: the 2-deck shoe shuffled
  with the engine's seeded shuffles (cards.shuffled(seed, "shoe", n)), reshuffled when fewer
  than 26 cards are left at the start of a round, the discard tray reshuffled if the shoe ever
  runs dry mid-round. It shares the rules code with the engine: hand_total, is_blackjack,
  peeks, dealer_must_draw, showdown, returned_chips, blackjack_winnings come from
  gameplay/engine/games/blackjack/engine.py, and every decision is strategy.decide, the
  call the engine's bot makes. tests/engine/test_blackjack.py checks that this simulator
  and the engine give identical results round for round on the same seed.
- ``infinite``: the same round code, but every card is drawn with replacement from 52 cards:
  the model the exact computation assumes, so the two figures must agree within the error.
- ``engine``: the engine itself, ENGINE.apply with ENGINE.bot_action choosing every play
  (bets fixed at 10); slow, for a few thousand rounds.

Every round bets 10 chips (3:2 pays exactly 15) with an unlimited bankroll, so every double
the strategy asks for is made. Return per unit bet = net chips / chips bet before doubling.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gameplay.engine.cards import deck, shuffled  # noqa: E402
from gameplay.engine.games.blackjack import engine as bj  # noqa: E402
from gameplay.engine.games.blackjack import strategy  # noqa: E402

BET = 10
SHOE = deck(copies=bj.DECKS)


class Shoe:
    """The engine's shoe procedure: index 0 of the shuffled list is dealt first."""

    def __init__(self, seed: str):
        self.seed = seed
        self.shuffles = 1
        self.cards = shuffled(SHOE, seed, "shoe", 1)
        self.pos = 0
        self.discard: list[str] = []

    def start_round(self) -> None:
        if len(self.cards) - self.pos < bj.RESHUFFLE_BELOW:
            self.shuffles += 1
            self.cards = shuffled(SHOE, self.seed, "shoe", self.shuffles)
            self.pos = 0
            self.discard = []

    def draw(self) -> str:
        if self.pos == len(self.cards):
            self.shuffles += 1
            self.cards = shuffled(self.discard, self.seed, "shoe", self.shuffles)
            self.pos = 0
            self.discard = []
        card = self.cards[self.pos]
        self.pos += 1
        return card

    def finish_round(self, table: list[str]) -> None:
        self.discard.extend(table)


class InfiniteShoe:
    """Every card drawn with replacement: 1/13 each rank, so 4/13 a 10-value card."""

    def __init__(self, seed: str):
        self.choice = random.Random(f"{seed}/infinite").choice
        self.one_deck = deck()

    def start_round(self) -> None:
        pass

    def draw(self) -> str:
        return self.choice(self.one_deck)

    def finish_round(self, table: list[str]) -> None:
        pass


def play_round(shoe) -> int:
    """One single-seat round with the engine's rules; the net chips won on a bet of BET."""
    shoe.start_round()
    draw = shoe.draw
    player = [draw()]
    dealer = [draw()]
    player.append(draw())
    dealer.append(draw())
    up = bj.card_value(dealer[0])
    stake = BET
    if bj.peeks(dealer[0]) and bj.is_blackjack(dealer):
        outcome = bj.PUSH if bj.is_blackjack(player) else bj.LOSE
    elif bj.is_blackjack(player):
        outcome = bj.BLACKJACK
    else:
        bust = False
        while True:
            total, soft = bj.hand_total(player)
            if total > 21:
                bust = True
                break
            if total == 21:
                break
            action = strategy.decide(total, soft, up, can_double=len(player) == 2)
            if action == strategy.STAND:
                break
            player.append(draw())
            if action == strategy.DOUBLE:
                stake *= 2
                if bj.hand_total(player)[0] > 21:
                    bust = True
                break
        if bust:
            outcome = bj.LOSE
        else:
            while bj.dealer_must_draw(dealer):
                dealer.append(draw())
            outcome = bj.showdown(bj.hand_total(player)[0], dealer)
    shoe.finish_round(player[:1] + dealer[:1] + player[1:2] + dealer[1:2] + player[2:] + dealer[2:])
    return bj.returned_chips(outcome, stake) - stake


def simulated_rounds(seed: str, rounds: int, infinite: bool = False) -> list[int]:
    shoe = InfiniteShoe(seed) if infinite else Shoe(seed)
    return [play_round(shoe) for _ in range(rounds)]


def engine_rounds(seed: str, rounds: int) -> list[int]:
    """The same, through the engine: one seat, bets of 10, the bot's plays."""
    engine = bj.ENGINE
    state = engine.new_game(1, seed)
    state["seats"][0]["chips"] = 10**12  # an unlimited bankroll: every double is possible
    nets = []
    for _ in range(rounds):
        before = state["seats"][0]["chips"]
        engine.apply(state, 0, {"type": "bet", "amount": BET})
        while state["phase"] == "play":
            engine.apply(state, 0, engine.bot_action(state, 0))
        nets.append(state["seats"][0]["chips"] - before)
    return nets


def _chunk(job: tuple[str, str, int]) -> tuple[int, int, int]:
    """(rounds, sum of nets, sum of squared nets) for one seed."""
    mode, seed, rounds = job
    if mode == "engine":
        nets = engine_rounds(seed, rounds)
        return rounds, sum(nets), sum(n * n for n in nets)
    shoe = InfiniteShoe(seed) if mode == "infinite" else Shoe(seed)
    total = squares = 0
    for _ in range(rounds):
        net = play_round(shoe)
        total += net
        squares += net * net
    return rounds, total, squares


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=2_000_000)
    parser.add_argument("--mode", choices=["shoe", "infinite", "engine"], default="shoe")
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--table", action="store_true", help="print the strategy table")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    exact = strategy.expected_return()
    computed_in = time.perf_counter() - started
    if args.table:
        print(strategy.summary())
        print()

    # one shoe sequence per chunk, so the work splits across processes the same way each time
    chunks = max(args.workers, 1) * 4
    size, extra = divmod(args.rounds, chunks)
    jobs = [
        (args.mode, f"{args.seed}-{i}", size + (1 if i < extra else 0))
        for i in range(chunks)
        if size + (1 if i < extra else 0) > 0
    ]
    started = time.perf_counter()
    if args.workers > 1:
        with Pool(args.workers) as pool:
            parts = pool.map(_chunk, jobs)
    else:
        parts = [_chunk(job) for job in jobs]
    elapsed = time.perf_counter() - started

    n = sum(p[0] for p in parts)
    mean = sum(p[1] for p in parts) / n / BET
    var = sum(p[2] for p in parts) / n / BET**2 - mean**2
    se = math.sqrt(var / n)
    print(f"strategy computation : {strategy.METHOD}")
    print(
        f"exact expected return: {exact:+.5f} per unit bet ({exact:+.3%}), in {computed_in:.3f} s"
    )
    print(f"simulation mode      : {args.mode}")
    print(f"rounds               : {n:,} in {elapsed:.1f} s ({n / elapsed:,.0f} rounds/s)")
    print(f"simulated return     : {mean:+.5f} per unit bet ({mean:+.3%}), std error {se:.5f}")
    print(f"95% interval         : [{mean - 1.96 * se:+.5f}, {mean + 1.96 * se:+.5f}]")
    print(f"simulated - exact    : {mean - exact:+.5f} = {(mean - exact) / se:+.2f} std errors")


if __name__ == "__main__":
    main()
