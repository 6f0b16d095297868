"""War has no decisions: the baseline flips, as the computer does (a sanity check: ~50%)."""

METRIC = "games won"


def baseline(view, legal, rng):
    return legal[0]


def success(engine, state, seats) -> float:
    winners = engine.result(state)["winners"]
    return 1.0 if any(s in winners for s in seats) and len(winners) == 1 else 0.0
