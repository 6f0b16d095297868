"""How a rating finds a player's level against the computer players, and where beating Easy
stops paying.

    .venv/bin/python bench/rating_convergence.py [--kind gin] [--games 200] [--plateau 1000]
    .venv/bin/python bench/rating_convergence.py --luck 1000     # part 3 alone

Part 1: a simulated person of known strength, the Medium computer playing as a person, plays
``--games`` ranked two-player games, each against the computer at a strength drawn at random
(seeded) from the game's strengths, through the engine contract (``bot_action``). Each game is
rated as the ratings receiver rates it (``accounts.ratings.rate_sides``): the person starts as
a newcomer, each strength from the game's ladder (``computer_start``), and all of them move
with these results. Printed: the rating path (shown rating and estimate, every tenth of the
run), the person's score against each strength, and at the end the distance between the
person's rating and the Medium computer's own; then the same games rated with every computer
held where it starts (as on a site where many people play it).

Part 2: a person who beats Easy every game, ``--plateau`` games (results only, no cards): the
person's rating and what the last hundred games added, (a) meeting Easy every game (Easy sinks
as it loses), and (b) at ranked tables, which the computer fills with the strength nearest the
person (``accounts.computers.nearest``), the person losing to every strength above Easy.

Part 3 (``--luck RUNS``, instead of parts 1 and 2): how far ``--games`` games' luck alone
takes the person from Medium, with no cards played. Part 1 is run RUNS times, each game's
result drawn (seeded) with the chance Medium measured against each strength on the game's
ladder (``--chances``; Gin's by default: docs/computer-players-rummy-shedding.md), and the
distance at the end is printed as percentiles, with the share of runs within 100 points, for
the computers moving with the person's games (as in part 1) and held where they start (as on
a site where many people play them).

Seat 0 and 1 alternate between the two players. Game ``i`` uses the seed
``f"{seed}/{kind}/{i}"``. A benchmark, not a test: nothing is asserted, and no database is used.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cubiccards.settings")

import django  # noqa: E402

django.setup()

from accounts import computers, ratings  # noqa: E402
from gameplay.engine import MEDIUM, registry  # noqa: E402

PERSON = 0  # the simulated person's id among the rated players; strength i is id i + 1


def play(engine, person_strength: str, opponent: str, seed: str, person_seat: int) -> float:
    """One game: the person's score (1 a win, 0 a loss, ½ a shared win)."""
    state = engine.new_game(2, seed)
    strengths = {person_seat: person_strength, 1 - person_seat: opponent}
    while not engine.is_over(state):
        for seat in engine.to_act(state):
            if seat in engine.to_act(state) and not engine.is_over(state):
                engine.apply(state, seat, engine.bot_action(state, seat, strengths[seat]))
    winners = engine.result(state)["winners"]
    return 1 / len(winners) if person_seat in winners else 0.0


def rate(skills: dict, opponent: int, score: float) -> None:
    """The game rated as the ratings receiver rates it: the winner first, a draw tied."""
    ranks = [0, 0] if score == 0.5 else ([0, 1] if score else [1, 0])
    skills.update(ratings.rate_sides([[PERSON], [opponent]], ranks, skills))


def line(skill) -> str:
    return (
        f"{ratings.shown(skill.mu, skill.sigma):5d} "
        f"(estimate {ratings.shown_skill(skill.mu):5d}, sigma {skill.sigma:4.2f})"
    )


def convergence(engine, games: int, seed: str) -> None:
    strengths = list(engine.strengths)
    ids = {s: i + 1 for i, s in enumerate(strengths)}
    start = {ids[s]: ratings.computer_start(engine.kind, s) for s in strengths}
    skills = {PERSON: ratings.fresh(), **start}
    # The same games rated with every computer held where it starts, as on a site where many
    # people play it and one person's games hardly move it (part 2's (b) holds them too).
    held = {PERSON: ratings.fresh(), **start}
    draw = random.Random(f"{seed}/opponents")
    scores: dict[str, list[float]] = {s: [] for s in strengths}
    medium = ids[MEDIUM]
    started = time.process_time()
    print(f"Part 1: the Medium computer as a person, {games} ranked {engine.title} games")
    print(f"{'games':>6}  {'person':<36} {'Medium computer':<36}")
    print(f"{0:6d}  {line(skills[PERSON]):<36} {line(skills[medium]):<36}")
    for i in range(games):
        opponent = draw.choice(strengths)
        score = play(engine, MEDIUM, opponent, f"{seed}/{engine.kind}/{i}", i % 2)
        scores[opponent].append(score)
        rate(skills, ids[opponent], score)
        rate(held, ids[opponent], score)
        held.update(start)
        if (i + 1) % max(games // 10, 1) == 0 or i + 1 == games:
            print(f"{i + 1:6d}  {line(skills[PERSON]):<36} {line(skills[medium]):<36}")
    print("person's score against each strength, and where each computer ended:")
    for s in strengths:
        got = scores[s]
        mean = f"{sum(got) / len(got):.2f}" if got else "  –"
        print(f"  {s:<7} {len(got):4d} games, score {mean}   {s} now {line(skills[ids[s]])}")
    person, own = skills[PERSON], skills[medium]
    print(
        "distance to Medium's own rating: shown "
        f"{ratings.shown(person.mu, person.sigma) - ratings.shown(own.mu, own.sigma):+d}, "
        f"estimate {ratings.shown_skill(person.mu) - ratings.shown_skill(own.mu):+d}"
    )
    person, own = held[PERSON], held[medium]
    print(
        "the same games, every computer held where it starts: person "
        f"{line(person)}, distance to Medium's own: shown "
        f"{ratings.shown(person.mu, person.sigma) - ratings.shown(own.mu, own.sigma):+d}, "
        f"estimate {ratings.shown_skill(person.mu) - ratings.shown_skill(own.mu):+d}"
    )
    print(f"CPU time: {time.process_time() - started:.1f} s\n")


# Medium's measured score against each strength of Gin: Easy 19.3% and Hard 53.8% against
# Medium (1,000 games each), Expert 67.0% against today's computer, which is Medium move for
# move (200 games).
GIN_CHANCES = {"easy": 0.807, "medium": 0.5, "hard": 0.462, "expert": 0.33}


def luck(engine, games: int, seed: str, runs: int, chances: dict[str, float]) -> None:
    strengths = list(engine.strengths)
    ids = {s: i + 1 for i, s in enumerate(strengths)}
    start = {ids[s]: ratings.computer_start(engine.kind, s) for s in strengths}
    medium = ids[MEDIUM]
    print(
        f"Part 3: {games} games' luck alone, {runs} runs; the person's chance against each "
        "strength: " + ", ".join(f"{s} {chances[s]:.3f}" for s in strengths)
    )
    for held in (False, True):
        distances = []
        for run in range(runs):
            skills = {PERSON: ratings.fresh(), **start}
            rng = random.Random(f"{seed}/luck/{run}")
            for _ in range(games):
                opponent = rng.choice(strengths)
                rate(skills, ids[opponent], 1.0 if rng.random() < chances[opponent] else 0.0)
                if held:
                    skills.update(start)
            person, own = skills[PERSON], skills[medium]
            distances.append(ratings.shown_skill(person.mu) - ratings.shown_skill(own.mu))
        distances.sort()
        at = [distances[min(int(q * runs), runs - 1)] for q in (0.05, 0.25, 0.5, 0.75, 0.95)]
        within = sum(1 for d in distances if abs(d) <= 100) / runs
        print(
            f"  computers {'held' if held else 'moving'}: distance (estimate) p5 / p25 / p50 / "
            f"p75 / p95 {' / '.join(f'{d:+d}' for d in at)}; within 100 points in "
            f"{100 * within:.1f}% of runs"
        )
    print()


def plateau(engine, games: int, seed: str) -> None:
    strengths = list(engine.strengths)
    ids = {s: i + 1 for i, s in enumerate(strengths)}
    start = {ids[s]: ratings.computer_start(engine.kind, s) for s in strengths}
    print(f"Part 2: a person who beats Easy at {engine.title} every game, {games} games")
    print("(a) Easy at every table (a casual table's choice, were it rated):")
    easy = ids["easy"]
    skills = {PERSON: ratings.fresh(), easy: start[easy]}
    shown = [ratings.shown(skills[PERSON].mu, skills[PERSON].sigma)]
    print(f"{'games':>6}  {'person':<36} {'Easy computer':<36} {'gain, last 100':>14}")
    for i in range(games):
        rate(skills, easy, 1.0)
        shown.append(ratings.shown(skills[PERSON].mu, skills[PERSON].sigma))
        n = i + 1
        if n in (1, 10, 50) or n % (100 if games <= 1000 else 500) == 0 or n == games:
            gain = shown[n] - shown[max(n - 100, 0)]
            print(f"{n:6d}  {line(skills[PERSON]):<36} {line(skills[easy]):<36} {gain:+14d}")
    print(
        "(b) ranked, the table filled with the strength nearest the person (ratings.nearest_strength),"
    )
    print("    the person beating Easy and losing to every other strength; each computer held")
    print("    where it starts (many people play it: one person's games hardly move it):")
    skills = {PERSON: ratings.fresh(), **start}
    draw = random.Random(f"{seed}/fill")  # as the matcher draws among strengths as near
    met = {s: 0 for s in strengths}
    shown = [ratings.shown(skills[PERSON].mu, skills[PERSON].sigma)]
    print(f"{'games':>6}  {'person':<36} {'gain, last 100':>14}  met so far")
    for i in range(games):
        levels = {s: ratings.shown_skill(skills[ids[s]].mu) for s in strengths}
        opponent = computers.nearest(levels, ratings.shown_skill(skills[PERSON].mu), draw)
        met[opponent] += 1
        rate(skills, ids[opponent], 1.0 if opponent == "easy" else 0.0)
        skills.update(start)
        shown.append(ratings.shown(skills[PERSON].mu, skills[PERSON].sigma))
        n = i + 1
        if n in (1, 10, 50) or n % (100 if games <= 1000 else 500) == 0 or n == games:
            gain = shown[n] - shown[max(n - 100, 0)]
            seen = ", ".join(f"{s} {k}" for s, k in met.items() if k)
            print(f"{n:6d}  {line(skills[PERSON]):<36} {gain:+14d}  {seen}")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kind", default="gin")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--plateau", type=int, default=1000)
    parser.add_argument("--seed", default="convergence")
    parser.add_argument("--luck", type=int, default=0, metavar="RUNS", help="part 3's runs")
    parser.add_argument(
        "--chances",
        help="part 3: Medium's chance against each strength, as easy=0.8,medium=0.5,... "
        "(Gin's measured chances by default; another game must give its own)",
    )
    args = parser.parse_args()
    engine = registry.get(args.kind)
    if engine.max_players < 2 or len(engine.strengths) < 2:
        parser.error(f"{engine.title} has no computer players at several strengths.")
    if args.luck:
        if args.chances:
            chances = {k: float(v) for k, v in (p.split("=") for p in args.chances.split(","))}
        elif args.kind == "gin":
            chances = GIN_CHANCES
        else:
            parser.error(f"--luck at {engine.title} needs --chances: Gin's are the default")
        if set(chances) != set(engine.strengths):
            parser.error(f"--chances names each of {', '.join(engine.strengths)} once")
        luck(engine, args.games, args.seed, args.luck, chances)
        return
    if args.games:
        convergence(engine, args.games, args.seed)
    if args.plateau:
        plateau(engine, args.plateau, args.seed)


if __name__ == "__main__":
    main()
