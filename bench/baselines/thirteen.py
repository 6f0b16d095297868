"""Thirteen's baseline: a random legal action. The figure: games won outright (a tie for the
lowest total wins nothing) by the computer player at a 2-seat table."""

METRIC = "games won"


def baseline(view, legal, rng):
    return rng.choice(legal)


def success(engine, state, seats) -> float:
    return 1.0 if engine.result(state)["winners"] == [seats[0]] else 0.0
