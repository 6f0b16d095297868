"""The Gridcannon computer player (rules.md §8), from the seat's view and legal actions only."""

from __future__ import annotations

import random
from typing import Any

from ...cards import rank
from ...core import Action
from .grid import ALL_CARDS, BASE_HEALTH, LINES, POSITIONS, ROLE, SPOTS, VALUE, counts, is_number

# Weights of the bot's placement score. The bot weighs each legal placement by its kills plus
# the change in an "outlook" of the grid: living royals whose Attack is ready (both cards
# there, counting, strong enough) and how easily a card can still land on the position that
# fires at them, partial payloads, and how much room there is to place any card at all (a
# card that fits nowhere costs a Ploy or becomes Armour). Tuned on bot-only games with
# seeds "tune<i>" (bench/gridcannon_bot.py uses other seeds).
BOT = {
    "kill": 100.0,  # per royal killed now (rules.md §8)
    "king": 20.0,  # extra for a King
    "ready": 10.0,  # a living royal whose Attack is ready
    "land": 10.0,  # ... times the chance a card can land on its firing position
    "partial": 8.0,  # a royal not ready: times payload / health
    "min": 10.0,  # the chance the next card fits the easiest position
    "flex": 2.0,  # the sum of those chances over the nine positions
    "replace": 0.0,  # replace a grid card at setup when the expected gain exceeds this
}


def _land(top_card: str | None) -> float:
    """The chance a random number card (2-10) can land on this top card."""
    return (11 - max(VALUE[top_card], 2)) / 9


def _outlook(tops: dict[str, str | None], spots: dict[str, Any], killed) -> float:
    """How promising the grid looks: royals close to death, and room to place cards."""
    total = 0.0
    for s in SPOTS:
        entry = spots[s]
        if entry is None or entry["dead"] or s in killed:
            continue
        fire, near, far = LINES[s]
        good = [c for c in (tops[near], tops[far]) if c is not None and counts(entry["royal"], c)]
        payload = sum(VALUE[c] for c in good)
        if len(good) == 2 and payload >= entry["health"]:
            total += BOT["ready"] + BOT["land"] * _land(tops[fire])
        else:
            total += BOT["partial"] * min(payload / entry["health"], 1)
    lands = [_land(tops[p]) for p in POSITIONS]
    return total + BOT["min"] * max(lands) + BOT["flex"] * sum(lands)


def _best_extract(
    view: dict[str, Any], options: list[Action], tops: dict[str, str | None], rng: random.Random
) -> Action:
    """The Extraction that leaves the best grid behind."""

    def gain(a: Action) -> tuple[float, float]:
        pos = a["pos"]
        after = dict(tops, **{pos: None})
        return (
            _outlook(after, view["spots"], ()),
            rng.random(),
        )

    return max(options, key=gain)


def _replace_or_keep(view: dict[str, Any], tops: dict[str, str | None]) -> Action:
    """Replace the grid card whose replacement by an unseen number card promises the most,
    if that beats keeping the grid (rules.md §2 step 4)."""
    seen = {c for c in tops.values() if c is not None}
    unseen = [c for c in ALL_CARDS if ROLE[c] == "number" and c not in seen]
    keep = _outlook(tops, view["spots"], ())
    best, best_gain = None, BOT["replace"]
    for pos in POSITIONS:
        mean = sum(_outlook(dict(tops, **{pos: c}), view["spots"], ()) for c in unseen) / len(
            unseen
        )
        if mean - keep > best_gain:
            best, best_gain = pos, mean - keep
    return {"type": "keep"} if best is None else {"type": "replace", "pos": best}


def choose(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    by_type: dict[str, list[Action]] = {}
    for a in legal:
        by_type.setdefault(a["type"], []).append(a)
    tops = {p: view["grid"][p]["top"] for p in POSITIONS}
    spots = view["spots"]
    reassigns = view["reassigns"]

    # Ploys are kept for emergencies: a Reassignment is spent when it rescues an unplaceable
    # card, or, killing, once the pile is empty (rules.md §8). Spending one to kill earlier
    # won no more games and left fewer Ploys to score.
    killing = [r for r in reassigns if r["kills"]]
    if "place_royal" in by_type:
        royal = view["waiting"]

        def royal_score(a: Action) -> tuple[float, float]:
            entry = {"royal": royal, "dead": False, "health": BASE_HEALTH[rank(royal)]}
            return (_outlook(tops, dict(spots, **{a["spot"]: entry}), ()), rng.random())

        return max(by_type["place_royal"], key=royal_score)
    if "replace" in by_type:
        return _replace_or_keep(view, tops)
    if "draw" in by_type:
        return by_type["draw"][0]
    if "place" in by_type:
        kills = {p["pos"]: p["kills"] for p in view["placements"]}
        card = view["waiting"]

        before = _outlook(tops, spots, ())

        def place_score(a: Action) -> tuple[float, float]:
            pos = a["pos"]
            gain = 0.0
            for s in kills[pos]:
                gain += BOT["kill"] + (BOT["king"] if rank(spots[s]["royal"]) == "K" else 0)
            after = dict(tops, **{pos: card})
            gain += _outlook(after, spots, kills[pos]) - before
            return (gain, rng.random())

        return max(by_type["place"], key=place_score)
    card = view["waiting"]
    if card is not None and is_number(card):
        helping = [r for r in reassigns if r["makes_placeable"] or r["kills"]]
        if helping:
            best = max(helping, key=lambda r: (len(r["kills"]), r["makes_placeable"], rng.random()))
            return {"type": "reassign", "from": best["from"], "to": best["to"]}
        if "extract" in by_type:
            return _best_extract(view, by_type["extract"], tops, rng)
        if "armour" in by_type:
            safe = {t["spot"]: (not t["fatal"], -t["health_after"]) for t in view["armour_targets"]}
            return max(
                by_type["armour"], key=lambda a: (safe.get(a["spot"], (False, 0)), rng.random())
            )
    # Out of cards with Ploys left: kill with a Reassignment if one does, else refill the pile.
    if killing:
        best = max(killing, key=lambda r: (len(r["kills"]), rng.random()))
        return {"type": "reassign", "from": best["from"], "to": best["to"]}
    if "extract" in by_type:
        return _best_extract(view, by_type["extract"], tops, rng)
    if "reassign" in by_type:
        best = max(reassigns, key=lambda r: (len(r["kills"]), rng.random()))
        return {"type": "reassign", "from": best["from"], "to": best["to"]}
    return by_type.get("resign", legal)[0]
