"""The baseline plays a random legal card (naming a random suit, always calling its last
card); with nothing to play it draws, takes or passes as it must."""

METRIC = "games won (a shared win counts half)"


def baseline(view, legal, rng):
    plays = [a for a in legal if a["type"] == "play"]
    if not plays:
        return rng.choice(legal)
    card = rng.choice(sorted({a["card"] for a in plays}))
    variants = [a for a in plays if a["card"] == card]
    called = [a for a in variants if a.get("knock")]
    return rng.choice(called or variants)


def success(engine, state, seats) -> float:
    winners = engine.result(state)["winners"]
    ours = [s for s in winners if s in seats]
    return len(ours) / len(winners) if winners else 0.0
