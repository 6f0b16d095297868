"""The Kudos economy a new player meets: what casual, regular and keen players earn over 30 days
with today's rules, and the day each shop item becomes affordable.

    .venv/bin/python bench/economy.py [--days 30]

Each player spends a number of minutes a day at the tables against the computer (casual 20,
regular 60, keen 180), trying every game in turn at the length its tile offers first (Quick
where there is one), and finishes the game they are in when the time is up. Their games are the
computer-only games bench/durations.py played and timed (cubiccards/lengths.json: each game's
minutes at a table, the person's credited seconds, and whether their seat won), taken in turn.

What a game pays comes from kudos.rules and kudos.badges as they stand, in the order
kudos.services pays it: a game counts (gameplay.play: the game's ``real_game`` decisions and
seconds) and pays its credited minutes at the table's rate, a win WIN_MULTIPLIER times that,
the first win of the day at each game doubled, carried hundredths, at most PLAY_DAILY_CAP a UTC
day; the day's streak reward once DAY_PLAYED_MINUTES are credited; and each badge of the
catalogue once its goal is reached (those that count games, wins and streak days; badges of a
game's own facts, ratings and Daily Challenges are left out). Sponsor spots, the Daily
Challenge, weekly prizes and referrals are left out: a player chooses them besides play.

Nothing is bought on the way: "affordable" is the first day the Kudos earned so far reach the
item's price. This is a benchmark, not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cubiccards.settings")

import django  # noqa: E402

django.setup()

from cubiccards.lengths import _measured  # noqa: E402
from gameplay.engine import registry  # noqa: E402
from gameplay.play import THINK_CAP  # noqa: E402
from kudos import badges, rules, shop  # noqa: E402

PLAYERS = {"casual": 20, "regular": 60, "keen": 180}  # minutes at the tables a day


class History:
    """What kudos.badges asks of a player's history, kept as the simulation goes (the
    measures call these by the names kudos.badges.History gives them)."""

    def __init__(self):
        self.stats: dict[str, list[int]] = {}
        self.best_streak = 0
        self.best_rating = 0

    def played(self, kind: str = "") -> int:
        return sum(p for k, (p, _) in self.stats.items() if not kind or k == kind)

    def wins(self, kind: str = "") -> int:
        return sum(w for k, (_, w) in self.stats.items() if not kind or k == kind)

    def fact(self, kind: str, name: str, how: str) -> int:
        return 0  # a game's own facts are not simulated

    def fast_wins(self, kind: str, seconds: int) -> int:
        return 0

    def challenges(self, won: bool) -> int:
        return 0

    @property
    def arena_podiums(self) -> int:
        return 0  # arenas are not simulated


class Player:
    def __init__(self, minutes: int, games: list[tuple[str, dict]]):
        self.minutes = minutes
        self.games = games  # (kind, measured length) in the order they are tried
        self.turn = 0
        self.history = History()
        self.earned = 0  # Kudos so far
        self.owed = 0  # hundredths carried to the next game
        self.streak = 0
        self.badges: set[str] = set()

    def day(self) -> int:
        """One day at the tables; the Kudos it earned."""
        left = self.minutes * 60
        play_today = credited_today = 0
        first_wins: set[str] = set()
        paid_streak = False
        while left > 0:
            kind, length = self.games[self.turn % len(self.games)]
            seconds, credited, won = length["games"][
                (self.turn // len(self.games)) % len(length["games"])
            ]
            self.turn += 1
            left -= seconds
            engine = registry.get(kind)
            if not _counts(engine, credited):
                continue
            won = bool(won)
            stats = self.history.stats.setdefault(kind, [0, 0])
            stats[0] += 1
            stats[1] += won
            earned = rules.hundredths(credited, rules.play_rate(engine.min_players), won)
            parts = [earned]
            if won and earned and kind not in first_wins:
                first_wins.add(kind)
                parts.append(earned * (rules.FIRST_WIN_MULTIPLIER - 1))
            for hundredths in parts:
                self.owed += hundredths
                amount, self.owed = divmod(self.owed, 100)
                room = rules.PLAY_DAILY_CAP - play_today
                if amount > room:  # the day's cap: what is over it, and the carry, are lost
                    amount, self.owed = room, 0
                play_today += max(amount, 0)
            credited_today += credited
            streak = 0
            if not paid_streak and credited_today >= rules.DAY_PLAYED_MINUTES * 60:
                paid_streak = True
                self.streak += 1
                self.history.best_streak = max(self.history.best_streak, self.streak)
                streak = rules.streak_reward(self.streak)
            self.earned += streak
            self.earned += self._badges()
        if not paid_streak:
            self.streak = 0
        self.earned += play_today
        return play_today

    def _badges(self) -> int:
        paid = 0
        for badge in badges.CATALOGUE:
            if badge.slug not in self.badges and badge.measure.of(self.history) >= badge.goal:
                self.badges.add(badge.slug)
                paid += badge.reward
        return paid


def _counts(engine, credited: float) -> bool:
    """gameplay.play's test for a counted game, from the person's credited seconds."""
    real = engine.real_game
    decisions = credited / min(real.pace, THINK_CAP.total_seconds())
    return (real.natural_end or decisions >= real.decisions) and credited >= real.least_seconds


def tried_in_turn() -> list[tuple[str, dict]]:
    """Every game that was measured, at the length its tile offers first."""
    measured = _measured()
    games = []
    for kind in registry.kinds():
        lengths = measured.get(kind, {}).get("lengths", {})
        first = lengths.get("quick") or lengths.get("classic")
        if first:
            games.append((kind, first))
    return games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--days", type=int, default=30)
    args = parser.parse_args()
    games = tried_in_turn()
    if not games:
        sys.exit("No measured games: run bench/durations.py --write first.")
    players = {name: Player(minutes, games) for name, minutes in PLAYERS.items()}
    totals: dict[str, list[int]] = {name: [] for name in players}
    print(f"Games tried in turn: {', '.join(kind for kind, _ in games)}")
    print(f"{'day':>4}" + "".join(f"{f'{n} ({m} min)':>22}" for n, m in PLAYERS.items()))
    print(f"{'':>4}" + f"{'a day':>11}{'so far':>11}" * len(players))
    for day in range(1, args.days + 1):
        row = f"{day:>4}"
        for name, player in players.items():
            before = player.earned
            player.day()
            totals[name].append(player.earned)
            row += f"{player.earned - before:>11}{player.earned:>11}"
        print(row)
    print()
    print(f"{'shop item':<26}{'price':>6}" + "".join(f"{n:>9}" for n in players))
    for item in sorted(shop.CATALOGUE, key=lambda i: (i.price, i.slug)):
        days = "".join(f"{_day_reached(totals[n], item.price):>9}" for n in players)
        print(f"{item.name:<26}{item.price:>6}{days}")


def _day_reached(so_far: list[int], price: int) -> str:
    day = next((d for d, total in enumerate(so_far, start=1) if total >= price), None)
    return f"day {day}" if day else "—"


if __name__ == "__main__":
    main()
