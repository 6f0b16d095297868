"""Gridcannon's table: the grid and the spots around it, each card's role, and reading
what a card placed where would do. Shared by the rules (engine.py) and the computer player
(strategy.py)."""

from __future__ import annotations

from typing import Any

from ...cards import deck, is_joker, rank, suit
from ...core import State
from ...text import say

# ---- geometry -------------------------------------------------------------------------------

POSITIONS = [f"r{r}c{c}" for r in range(3) for c in range(3)]
SPOTS = [f"{side}{i}" for side in "TLRB" for i in range(3)]

# The grid position each spot sits beside.
SPOT_POSITION = {
    **{f"T{x}": f"r0c{x}" for x in range(3)},
    **{f"B{x}": f"r2c{x}" for x in range(3)},
    **{f"L{y}": f"r{y}c0" for y in range(3)},
    **{f"R{y}": f"r{y}c2" for y in range(3)},
}
# What a player calls each place ("the top left", "above the top left"), for the log.
_ROWS, _COLS = (
    (say("top"), say("middle"), say("bottom")),
    (say("left"), say("middle"), say("right")),
)
PLACE_NAME = {
    f"r{r}c{c}": say("the centre")
    if (r, c) == (1, 1)
    else say("the {row} {column}", row=_ROWS[r], column=_COLS[c])
    for r in range(3)
    for c in range(3)
}
PLACE_NAME.update(
    {
        **{f"T{x}": say("above {place}", place=PLACE_NAME[f"r0c{x}"]) for x in range(3)},
        **{f"B{x}": say("below {place}", place=PLACE_NAME[f"r2c{x}"]) for x in range(3)},
        **{f"L{y}": say("left of {place}", place=PLACE_NAME[f"r{y}c0"]) for y in range(3)},
        **{f"R{y}": say("right of {place}", place=PLACE_NAME[f"r{y}c2"]) for y in range(3)},
    }
)
# The spots each position touches: 2 for a corner, 1 for an edge, none for the centre.
POSITION_SPOTS = {p: [s for s in SPOTS if SPOT_POSITION[s] == p] for p in POSITIONS}

# Each spot's line: the position a card must land on to fire at it, then the two positions
# whose cards Attack (rules.md §3.3).
LINES: dict[str, tuple[str, str, str]] = {}
for _x in range(3):
    LINES[f"T{_x}"] = (f"r2c{_x}", f"r1c{_x}", f"r0c{_x}")
    LINES[f"B{_x}"] = (f"r0c{_x}", f"r1c{_x}", f"r2c{_x}")
    LINES[f"L{_x}"] = (f"r{_x}c2", f"r{_x}c1", f"r{_x}c0")
    LINES[f"R{_x}"] = (f"r{_x}c0", f"r{_x}c1", f"r{_x}c2")
# The spots a card landing on a position fires at.
FIRES = {p: [s for s in SPOTS if LINES[s][0] == p] for p in POSITIONS}

BASE_HEALTH = {"J": 11, "Q": 12, "K": 13}
# The strongest Attack each royal can ever take (rules.md §4, too tough to kill): two 10s, two
# same-colour 10s, and 10 + 9 of one suit.
MAX_ATTACK = {"J": 20, "Q": 20, "K": 19}


ALL_CARDS = deck(jokers=2)
# Each card's role (rules.md §1), looked up rather than parsed: the bot and the view ask often.
ROLE = {
    c: "ploy" if is_joker(c) or rank(c) == "A" else "royal" if rank(c) in BASE_HEALTH else "number"
    for c in ALL_CARDS
}
VALUE: dict[str | None, int] = {c: int(rank(c)) for c in ALL_CARDS if ROLE[c] == "number"}
VALUE[None] = 0
SUIT = {c: suit(c) for c in ALL_CARDS}
COLOUR = {c: ("red" if SUIT[c] in ("H", "D") else "black") for c in ALL_CARDS if not is_joker(c)}


def is_royal(card: str) -> bool:
    return ROLE[card] == "royal"


def is_ploy(card: str) -> bool:
    return ROLE[card] == "ploy"


def is_number(card: str) -> bool:
    return ROLE[card] == "number"


def value(card: str | None) -> int:
    """A number card's value; an empty position counts as 0 (rules.md §3.1)."""
    return VALUE[card]


def counts(royal: str, card: str) -> bool:
    """Whether ``card`` may Attack ``royal``: K needs its suit, Q its colour, J anything."""
    r = royal[0]
    if r == "K":
        return SUIT[card] == SUIT[royal]
    if r == "Q":
        return COLOUR[card] == COLOUR[royal]
    return True


# ---- reading the table ----------------------------------------------------------------------


Grid = dict[str, list[str]]
Tops = dict[str, str | None]


def top(grid: Grid, pos: str) -> str | None:
    stack = grid[pos]
    return stack[-1] if stack else None


def tops_of(grid: Grid) -> Tops:
    """Each position's top card (None when empty): all that placing and Attacks look at."""
    return {p: (s[-1] if s else None) for p, s in grid.items()}


def can_take(tops: Tops, pos: str, card: str) -> bool:
    return VALUE[tops[pos]] <= VALUE[card]


def placements(tops: Tops, card: str) -> list[str]:
    """Positions a number card may go on: empty, or a top card of the same or lower value."""
    v = VALUE[card]
    return [p for p in POSITIONS if VALUE[tops[p]] <= v]


def health(entry: dict[str, Any]) -> int:
    return BASE_HEALTH[rank(entry["royal"])] + sum(value(c) for c in entry["armour"])


def living(spots: dict[str, Any]) -> list[str]:
    return [s for s in SPOTS if spots[s] is not None and not spots[s]["dead"]]


def dead_count(spots: dict[str, Any]) -> int:
    return sum(1 for s in SPOTS if spots[s] is not None and spots[s]["dead"])


def attack_on(tops: Tops, spots: dict[str, Any], spot: str) -> dict[str, Any]:
    """The Attack a card landing opposite ``spot`` would make now (rules.md §3.3).

    ``payload`` adds the two Attacking tops that count against this royal; ``complete`` says
    both are there and count; ``kills`` says the Attack would kill.
    """
    entry = spots[spot]
    _, near, far = LINES[spot]
    good = [c for c in (tops[near], tops[far]) if c is not None and counts(entry["royal"], c)]
    payload = sum(VALUE[c] for c in good)
    complete = len(good) == 2
    return {
        "payload": payload,
        "complete": complete,
        "kills": complete and not entry["dead"] and payload >= health(entry),
    }


def kills_from(tops: Tops, spots: dict[str, Any], pos: str) -> list[str]:
    """The living royals a card landing on ``pos`` would kill. The landing card itself is not
    part of the Attack, so this does not depend on which card lands."""
    return [
        s
        for s in FIRES[pos]
        if spots[s] is not None and not spots[s]["dead"] and attack_on(tops, spots, s)["kills"]
    ]


def royal_spots(tops: Tops, spots: dict[str, Any], royal: str) -> list[str]:
    """Legal spots for a royal by "most similar" (rules.md §3.2)."""
    free = [s for s in SPOTS if spots[s] is None]
    candidates = [
        p
        for p in POSITIONS
        if p != "r1c1" and tops[p] is not None and any(spots[s] is None for s in POSITION_SPOTS[p])
    ]
    if not candidates:
        return free
    tiers = (
        [p for p in candidates if SUIT[tops[p]] == SUIT[royal]],
        [p for p in candidates if COLOUR[tops[p]] == COLOUR[royal]],
        candidates,
    )
    tier = next(t for t in tiers if t)
    best = max(VALUE[tops[p]] for p in tier)
    chosen = {p for p in tier if VALUE[tops[p]] == best}
    return [s for s in free if SPOT_POSITION[s] in chosen]


def armour_targets(spots: dict[str, Any], card: str) -> list[str]:
    """The living royals a card must armour (rules.md §4): the lowest base value among same suit,
    failing that same colour, failing that any."""
    alive = living(spots)
    tiers = (
        [s for s in alive if SUIT[spots[s]["royal"]] == SUIT[card]],
        [s for s in alive if COLOUR[spots[s]["royal"]] == COLOUR[card]],
        alive,
    )
    tier = next((t for t in tiers if t), [])
    if not tier:
        return []
    low = min(BASE_HEALTH[rank(spots[s]["royal"])] for s in tier)
    return [s for s in tier if BASE_HEALTH[rank(spots[s]["royal"])] == low]


def unspent(state: State, which: str) -> int | None:
    """Index of the first unspent ace ("A") or joker ("JK") among the Ploys, or None."""
    for i, ploy in enumerate(state["ploys"]):
        if not ploy["spent"] and (
            is_joker(ploy["card"]) if which == "JK" else not is_joker(ploy["card"])
        ):
            return i
    return None


def extract_options(state: State) -> list[str]:
    if state["phase"] != "play" or unspent(state, "A") is None:
        return []
    return [p for p in POSITIONS if state["grid"][p]]


def reassigned(grid: Grid, tops: Tops, frm: str, to: str) -> Tops:
    """The tops after moving the top card of ``frm`` to ``to``."""
    below = grid[frm][-2] if len(grid[frm]) > 1 else None
    return {**tops, frm: below, to: tops[frm]}


def reassign_options(state: State) -> list[tuple[str, str]]:
    """Legal (from, to) moves for a Reassignment: ``to`` must take the moved card once it
    has been lifted off ``from``."""
    if state["phase"] != "play" or unspent(state, "JK") is None:
        return []
    tops = tops_of(state["grid"])
    out = []
    for frm in POSITIONS:
        moved = tops[frm]
        if moved is None:
            continue
        for to in POSITIONS:
            if to != frm and can_take(tops, to, moved):
                out.append((frm, to))
    return out


def ploy_can_help(state: State, card: str) -> bool:
    """Whether an unspent Ploy could make ``card`` placeable (rules.md §4). An Extraction
    always can: the extracted position is empty and takes any card."""
    if extract_options(state):
        return True
    grid = state["grid"]
    tops = tops_of(grid)
    return any(placements(reassigned(grid, tops, f, t), card) for f, t in reassign_options(state))


def waiting_number(state: State) -> str | None:
    card = state["waiting"]
    return card if state["phase"] == "play" and card is not None and is_number(card) else None


def must_armour(state: State) -> bool:
    """A number card waits, no position takes it and no Ploy could change that."""
    card = waiting_number(state)
    return (
        card is not None
        and not placements(tops_of(state["grid"]), card)
        and not ploy_can_help(state, card)
        and bool(living(state["spots"]))
    )
