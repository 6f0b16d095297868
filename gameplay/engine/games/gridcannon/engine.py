"""Gridcannon, Tom Francis's solitaire (rules.md: the designer's Version 2).

Number cards form a 3x3 grid of stacks; the 12 royals sit in the spots around it. A card
placed on the grid fires through the two grid cards opposite it at the royal beyond them.
Aces (Extractions) and jokers (Reassignments) are Ploys. Kill all 12 royals to win.

Layout names (rules.md §1)::

          T0     T1     T2
   L0   r0c0   r0c1   r0c2   R0
   L1   r1c0   r1c1   r1c2   R1
   L2   r2c0   r2c1   r2c2   R2
          B0     B1     B2
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from ...cards import card_name, deck, is_joker, label, rank, shuffled, suit
from ...core import MEDIUM, Action, Engine, Event, Option, Record, State, move, why_not

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
_ROWS, _COLS = ("top", "middle", "bottom"), ("left", "middle", "right")
PLACE_NAME = {
    f"r{r}c{c}": "the centre" if (r, c) == (1, 1) else f"the {_ROWS[r]} {_COLS[c]}"
    for r in range(3)
    for c in range(3)
}
PLACE_NAME.update(
    {
        **{f"T{x}": f"above {PLACE_NAME[f'r0c{x}']}" for x in range(3)},
        **{f"B{x}": f"below {PLACE_NAME[f'r2c{x}']}" for x in range(3)},
        **{f"L{y}": f"left of {PLACE_NAME[f'r{y}c0']}" for y in range(3)},
        **{f"R{y}": f"right of {PLACE_NAME[f'r{y}c2']}" for y in range(3)},
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


# ---- action fields --------------------------------------------------------------------------

POS_WHAT = "a grid position from r0c0 to r2c2"
SPOT_WHAT = "a spot beside the grid (T0-T2, L0-L2, R0-R2, B0-B2)"


def field_problem(action: Action, key: str, allowed: list[str], what: str) -> str | None:
    raw = action.get(key)
    return None if isinstance(raw, str) and raw in allowed else f"Choose {what}."


def _royal_name(card: str) -> str:
    return card_name(card)


# Actions that change the grid before play begins; every other (but placing a royal and
# resigning) waits until play begins (rules.md §2).
SETUP_ACTIONS = ("replace", "keep")


class Gridcannon(Engine):
    kind = "gridcannon"
    title = "Gridcannon"
    blurb = "A solitaire battle: build a 3×3 grid and take down twelve royals."
    showcase = ("KD", "JC")
    min_players = 1
    max_players = 1
    options = (
        Option(
            "armour",
            (True, False),
            "Armour",
            "Royals gain Armour from the cards that fit nowhere.",
            ("On", "Off"),
        ),
    )
    records = (Record("royals_killed", "Most royals killed", "max"),)

    # ---- setup (rules.md §2) -----------------------------------------------------------------

    def setup(self, players: int, seed: str, rules: dict[str, Any]) -> State:
        return deal(shuffled(deck(jokers=2), seed, "deal", 1), rules)

    # ---- turn order ---------------------------------------------------------------------

    def to_act(self, state: State) -> list[int]:
        return [] if state["phase"] == "over" else [0]

    def is_over(self, state: State) -> bool:
        return state["phase"] == "over"

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """Candidates from the layout, each passed by its why-not check."""
        if seat != 0 or state["phase"] == "over":
            return []
        grid, spots, card = state["grid"], state["spots"], state["waiting"]
        out: list[Action] = []
        if card is not None and is_royal(card):
            out += [
                {"type": "place_royal", "spot": s} for s in royal_spots(tops_of(grid), spots, card)
            ]
        elif state["phase"] == "setup":
            out += [{"type": "replace", "pos": p} for p in POSITIONS]
            out.append({"type": "keep"})
        elif card is not None:
            out += [{"type": "place", "pos": p} for p in placements(tops_of(grid), card)]
            if state["rules"]["armour"] and must_armour(state):
                out += [{"type": "armour", "spot": s} for s in armour_targets(spots, card)]
        elif state["pile"] and living(spots):
            out.append({"type": "draw"})
        out += [{"type": "extract", "pos": p} for p in extract_options(state)]
        out += [{"type": "reassign", "from": f, "to": t} for f, t in reassign_options(state)]
        out.append({"type": "resign"})
        return self.allowed(state, seat, out)

    # ---- why not: the one place a refusal is explained -------------------------------------

    @staticmethod
    def _phase_problem(state: State, action_type: str) -> str | None:
        if state["phase"] == "setup":
            if action_type not in SETUP_ACTIONS:
                return "Ploys and drawing wait until the grid is set up and play begins."
            if state["stage"] != "replace":
                return "Place the royal beside the grid first."
        elif action_type in SETUP_ACTIONS:
            return "The grid can only be changed before play begins."
        return None

    @why_not("place_royal")
    def place_royal_problem(self, state: State, seat: int, action: Action) -> str | None:
        card = state["waiting"]
        if card is None or not is_royal(card):
            return "There is no royal waiting to be placed."
        problem = field_problem(action, "spot", SPOTS, SPOT_WHAT)
        if problem:
            return problem
        legal = royal_spots(tops_of(state["grid"]), state["spots"], card)
        if action["spot"] not in legal:
            return (
                f"The {_royal_name(card)} must go beside the card it is most like: "
                f"{', '.join(legal)}."
            )
        return None

    @why_not("replace")
    @why_not("keep")
    def setup_problem(self, state: State, seat: int, action: Action) -> str | None:
        problem = self._phase_problem(state, action["type"])
        if problem or action["type"] == "keep":
            return problem
        return field_problem(action, "pos", POSITIONS, POS_WHAT)

    @why_not("draw")
    def draw_problem(self, state: State, seat: int, action: Action) -> str | None:
        problem = self._phase_problem(state, "draw")
        if problem:
            return problem
        if state["waiting"] is not None:
            return f"Place the {label(state['waiting'])} first."
        if not state["pile"]:
            return "The draw pile is empty."
        if not living(state["spots"]):
            return "There is no living royal to draw against."
        return None

    @why_not("place")
    def place_problem(self, state: State, seat: int, action: Action) -> str | None:
        problem = self._phase_problem(state, "place")
        if problem:
            return problem
        card = waiting_number(state)
        if card is None:
            return "There is no number card waiting to be placed."
        problem = field_problem(action, "pos", POSITIONS, POS_WHAT)
        if problem:
            return problem
        if VALUE[top(state["grid"], action["pos"])] > VALUE[card]:
            return f"{label(card)} can only go on a card of the same or lower value."
        return None

    @why_not("armour")
    def armour_problem(self, state: State, seat: int, action: Action) -> str | None:
        problem = self._phase_problem(state, "armour")
        if problem:
            return problem
        if not state["rules"]["armour"]:
            return "This table plays without Armour."
        card = waiting_number(state)
        if card is None:
            return "There is no number card waiting."
        if not must_armour(state):
            return f"{label(card)} can still be placed, by itself or with a Ploy."
        problem = field_problem(action, "spot", SPOTS, SPOT_WHAT)
        if problem:
            return problem
        targets = armour_targets(state["spots"], card)
        if action["spot"] not in targets:
            return f"Armour goes on the royal most like {label(card)}: {', '.join(targets)}."
        return None

    @why_not("extract")
    def extract_problem(self, state: State, seat: int, action: Action) -> str | None:
        problem = self._phase_problem(state, "extract")
        if problem:
            return problem
        if unspent(state, "A") is None:
            return "You have no unspent ace for an Extraction."
        problem = field_problem(action, "pos", POSITIONS, POS_WHAT)
        if problem:
            return problem
        if not state["grid"][action["pos"]]:
            return "That position is empty: there is no stack to extract."
        return None

    @why_not("reassign")
    def reassign_problem(self, state: State, seat: int, action: Action) -> str | None:
        problem = self._phase_problem(state, "reassign")
        if problem:
            return problem
        if unspent(state, "JK") is None:
            return "You have no unspent joker for a Reassignment."
        problem = field_problem(action, "from", POSITIONS, POS_WHAT) or field_problem(
            action, "to", POSITIONS, POS_WHAT
        )
        if problem:
            return problem
        frm, to = action["from"], action["to"]
        if to == frm:
            return "Move the card to a different position."
        grid = state["grid"]
        if not grid[frm]:
            return "That position is empty: there is no card to move."
        moved = grid[frm][-1]
        if VALUE[top(grid, to)] > VALUE[moved]:
            return f"{label(moved)} can only move onto a card of the same or lower value."
        return None

    # ---- moves: each one ends with what the rules then do by themselves ---------------------

    def _then(self, state: State, events: list[Event]) -> list[Event]:
        advance(state, events)
        state["last"] = [s for s in (describe(e) for e in events) if s]
        return events

    @move("resign")
    def resign(self, state: State, seat: int, action: Action) -> list[Event]:
        events: list[Event] = [{"type": "resigned", "seat": seat}]
        finish(state, "lost", "You resigned.", events)
        return self._then(state, events)

    @move("place_royal", "spot")
    def place_royal(self, state: State, seat: int, action: Action) -> list[Event]:
        events: list[Event] = []
        put_royal(state, action["spot"], events, auto=False)
        return self._then(state, events)

    @move("keep")
    def keep(self, state: State, seat: int, action: Action) -> list[Event]:
        events: list[Event] = [{"type": "grid_kept", "seat": 0}]
        start_play(state)
        return self._then(state, events)

    @move("replace", "pos")
    def replace(self, state: State, seat: int, action: Action) -> list[Event]:
        pos = action["pos"]
        card = state["grid"][pos].pop()
        state["pile"].append(card)
        state["stage"] = "refill"
        state["refill"] = pos
        events: list[Event] = [{"type": "card_replaced", "seat": 0, "pos": pos, "card": card}]
        return self._then(state, events)

    @move("draw")
    def draw(self, state: State, seat: int, action: Action) -> list[Event]:
        card = state["pile"].pop(0)
        events: list[Event] = [{"type": "card_drawn", "seat": 0, "card": card}]
        if is_ploy(card):
            gain_ploy(state, card, events)
        else:
            state["waiting"] = card
        return self._then(state, events)

    @move("place", "pos")
    def place(self, state: State, seat: int, action: Action) -> list[Event]:
        card = state["waiting"]
        state["waiting"] = None
        events: list[Event] = []
        land(state, action["pos"], card, events, "card_placed")
        return self._then(state, events)

    @move("armour", "spot")
    def armour(self, state: State, seat: int, action: Action) -> list[Event]:
        card = state["waiting"]
        spot = action["spot"]
        entry = state["spots"][spot]
        entry["armour"].append(card)
        state["waiting"] = None
        events: list[Event] = [
            {
                "type": "armour_added",
                "seat": 0,
                "card": card,
                "spot": spot,
                "royal": entry["royal"],
                "health": health(entry),
            }
        ]
        if health(entry) > MAX_ATTACK[rank(entry["royal"])]:
            finish(
                state,
                "lost",
                f"The {_royal_name(entry['royal'])} has {health(entry)} health: "
                "no Attack can kill it any more.",
                events,
            )
        return self._then(state, events)

    @move("extract", "pos")
    def extract(self, state: State, seat: int, action: Action) -> list[Event]:
        i = unspent(state, "A")
        pos = action["pos"]
        stack = state["grid"][pos]
        state["pile"].extend(stack)
        state["grid"][pos] = []
        state["ploys"][i]["spent"] = True
        events: list[Event] = [
            {
                "type": "stack_extracted",
                "seat": 0,
                "ploy": state["ploys"][i]["card"],
                "pos": pos,
                "cards": stack,
            }
        ]
        return self._then(state, events)

    @move("reassign", "from", "to")
    def reassign(self, state: State, seat: int, action: Action) -> list[Event]:
        i = unspent(state, "JK")
        frm, to = action["from"], action["to"]
        moved = state["grid"][frm].pop()
        state["ploys"][i]["spent"] = True
        events: list[Event] = [
            {
                "type": "ploy_used",
                "seat": 0,
                "ploy": state["ploys"][i]["card"],
                "ploy_kind": "reassignment",
            }
        ]
        land(state, to, moved, events, "card_reassigned", frm=frm)
        return self._then(state, events)

    # ---- what a seat sees -----------------------------------------------------------------

    def visible_cards(self, state: State, seat: int | None) -> Counter[str]:
        """Everything on the table is face up (rules.md §1): stack tops, royals with their armour,
        Ploys, the drawn card and royals set aside. Covered stack cards and the pile are not."""
        seen: Counter[str] = Counter()
        for p in POSITIONS:
            if state["grid"][p]:
                seen[state["grid"][p][-1]] += 1
        for s in SPOTS:
            entry = state["spots"][s]
            if entry is not None:
                seen[entry["royal"]] += 1
                seen.update(entry["armour"])
        seen.update(p["card"] for p in state["ploys"])
        seen.update(state["set_aside"])
        if state["waiting"] is not None:
            seen[state["waiting"]] += 1
        return seen

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        grid, spots, card = state["grid"], state["spots"], state["waiting"]
        tops = tops_of(grid)
        over = state["phase"] == "over"
        grid_view = {
            p: {"top": tops[p], "size": len(grid[p]), "value": VALUE[tops[p]]} for p in POSITIONS
        }
        spot_view: dict[str, Any] = {}
        for s in SPOTS:
            entry = spots[s]
            fire_from, near, far = LINES[s]
            if entry is None:
                spot_view[s] = None
                continue
            attack = attack_on(tops, spots, s)
            needs = {"K": "suit", "Q": "colour", "J": "any"}[rank(entry["royal"])]
            spot_view[s] = {
                "royal": entry["royal"],
                "dead": entry["dead"],
                "base": BASE_HEALTH[rank(entry["royal"])],
                "armour": list(entry["armour"]),
                "armour_values": [value(c) for c in entry["armour"]],
                "health": health(entry),
                "needs": needs,
                "tip": spot_tip(entry, needs, attack),
                "fire_from": fire_from,
                "attackers": [near, far],
                "attack": attack["payload"],
                "attack_complete": attack["complete"],
                "in_danger": attack["kills"],
            }
        view: dict[str, Any] = {
            "kind": self.kind,
            "rules": dict(state["rules"]),
            "phase": state["phase"],
            "stage": state["stage"],
            "to_act": self.to_act(state),
            "grid": grid_view,
            "spots": spot_view,
            "waiting": card,
            "waiting_kind": None if card is None else "royal" if is_royal(card) else "number",
            "set_aside": list(state["set_aside"]),
            "refill": state["refill"],
            "ploys": [dict(p) for p in state["ploys"]],
            "aces_left": sum(
                1 for p in state["ploys"] if not p["spent"] and not is_joker(p["card"])
            ),
            "jokers_left": sum(1 for p in state["ploys"] if not p["spent"] and is_joker(p["card"])),
            "ploys_left": sum(1 for p in state["ploys"] if not p["spent"]),
            "pile_count": len(state["pile"]),
            "dead_royals": dead_count(spots),
            "living_royals": len(living(spots)),
            "score": score(state),
            "outcome": state["outcome"],
            "reason": state["reason"],
            "last": list(state["last"]),
            "placements": [],
            "royal_spots": [],
            "armour_targets": [],
            "must_armour": False,
            "reassigns": [],
        }
        if over:
            return view
        if card is not None and is_royal(card):
            view["royal_spots"] = royal_spots(tops, spots, card)
        number = waiting_number(state)
        if number is not None:
            view["placements"] = [
                {"pos": p, "kills": kills_from(tops, spots, p)} for p in placements(tops, number)
            ]
            if must_armour(state):
                view["must_armour"] = True
                view["armour_targets"] = [
                    {
                        "spot": s,
                        "health_after": health(spots[s]) + value(number),
                        "fatal": health(spots[s]) + value(number)
                        > MAX_ATTACK[rank(spots[s]["royal"])],
                    }
                    for s in armour_targets(spots, number)
                ]
        for frm, to in reassign_options(state):
            after = reassigned(grid, tops, frm, to)
            view["reassigns"].append(
                {
                    "from": frm,
                    "to": to,
                    "kills": kills_from(after, spots, to),
                    "makes_placeable": number is not None
                    and not view["placements"]
                    and bool(placements(after, number)),
                }
            )
        return view

    def result(self, state: State) -> dict[str, Any]:
        won = state["outcome"] == "won"
        return {
            "scores": [score(state)],
            "winners": [0] if won else [],
            "ranking": [[0]],
            "stats": {"dead_royals": dead_count(state["spots"])},
        }

    def facts(self, state: State, seat: int) -> dict[str, int]:
        return {"royals_killed": dead_count(state["spots"]), "score": score(state)}

    # ---- the computer player (rules.md §8) ---------------------------------------------------

    def bot(
        self, view: dict[str, Any], legal: list[Action], rng: random.Random, strength: str = MEDIUM
    ) -> Action:
        return choose(view, legal, rng)


# ---- state changes shared by setup and play ---------------------------------------------------


def deal(pile: list[str], rules: dict[str, Any]) -> State:
    """Lay out the grid from ``pile`` (index 0 = top), begin setup (rules.md §2). Tests call this
    with a stacked deck."""
    state: State = {
        "phase": "setup",
        "stage": "royals",
        "rules": dict(rules),
        "grid": {p: [] for p in POSITIONS},
        "spots": {s: None for s in SPOTS},
        "pile": list(pile),
        "ploys": [],
        "set_aside": [],
        "waiting": None,
        "refill": None,
        "outcome": None,
        "reason": None,
        "last": [],
    }
    filled = 0
    while filled < 9:
        card = state["pile"].pop(0)
        if is_number(card):
            state["grid"][POSITIONS[filled]].append(card)
            filled += 1
        elif is_royal(card):
            state["set_aside"].append(card)
        else:
            state["ploys"].append({"card": card, "spent": False})
    advance(state, [])
    return state


def start_play(state: State) -> None:
    state["phase"] = "play"
    state["stage"] = None
    state["refill"] = None


def gain_ploy(state: State, card: str, events: list[Event]) -> None:
    state["ploys"].append({"card": card, "spent": False})
    events.append({"type": "ploy_gained", "seat": 0, "card": card})


def put_royal(state: State, spot: str, events: list[Event], auto: bool) -> None:
    card = state["waiting"]
    state["spots"][spot] = {"royal": card, "armour": [], "dead": False}
    state["waiting"] = None
    events.append({"type": "royal_placed", "seat": 0, "card": card, "spot": spot, "auto": auto})


def land(
    state: State, pos: str, card: str, events: list[Event], event_type: str, frm: str | None = None
) -> None:
    """Put ``card`` on ``pos`` and resolve the Attacks it fires (rules.md §3.3)."""
    grid, spots = state["grid"], state["spots"]
    grid[pos].append(card)
    event: Event = {"type": event_type, "seat": 0, "card": card, "pos": pos}
    if frm is not None:
        event["from"] = frm
    events.append(event)
    for s in FIRES[pos]:
        entry = spots[s]
        if entry is None or entry["dead"]:
            continue
        attack = attack_on(tops_of(grid), spots, s)
        if not attack["complete"]:
            continue
        _, near, far = LINES[s]
        events.append(
            {
                "type": "royal_attacked",
                "seat": 0,
                "spot": s,
                "royal": entry["royal"],
                "attackers": [top(grid, near), top(grid, far)],
                "attack": attack["payload"],
                "health": health(entry),
                "killed": attack["kills"],
            }
        )
        if attack["kills"]:
            entry["dead"] = True
            events.append({"type": "royal_killed", "seat": 0, "spot": s, "royal": entry["royal"]})


def finish(state: State, outcome: str, reason: str, events: list[Event]) -> None:
    state["phase"] = "over"
    state["stage"] = None
    state["outcome"] = outcome
    state["reason"] = reason
    events.append({"type": f"game_{outcome}", "seat": 0, "reason": reason, "score": score(state)})


def score(state: State) -> int:
    """Unspent Ploys if won, else 0 (rules.md §6)."""
    if state["outcome"] != "won":
        return 0
    return sum(1 for p in state["ploys"] if not p["spent"])


def cycle(state: State, events: list[Event]) -> None:
    """No living royal: draw until a royal turns up; number cards go back to the bottom in the
    order drawn, aces and jokers become Ploys (rules.md §4)."""
    if not any(is_royal(c) for c in state["pile"]):
        # Cannot happen in a dealt game (an unplaced royal is always still in the pile);
        # kept so a hand-built table can never loop.
        finish(state, "lost", "No royal is left to draw.", events)
        return
    cycled = []
    while True:
        card = state["pile"].pop(0)
        if is_royal(card):
            break
        if is_ploy(card):
            gain_ploy(state, card, events)
        else:
            cycled.append(card)
    state["pile"].extend(cycled)
    state["waiting"] = card
    events.append({"type": "cards_cycled", "seat": 0, "cards": cycled, "royal": card})


def advance(state: State, events: list[Event]) -> None:
    """Do everything the rules do without a choice, until the player has one to make: place a
    royal with one legal spot, the setup steps, the win, cycling and the automatic losses."""
    while state["phase"] != "over":
        grid, spots, card = state["grid"], state["spots"], state["waiting"]
        if dead_count(spots) == 12:
            finish(state, "won", "All 12 royals are dead.", events)
            return
        if card is not None and is_royal(card):
            legal = royal_spots(tops_of(grid), spots, card)
            if len(legal) != 1:
                return
            put_royal(state, legal[0], events, auto=True)
            continue
        if state["phase"] == "setup":
            if state["stage"] == "royals":
                if not state["set_aside"]:
                    state["stage"] = "replace"
                    return
                state["waiting"] = state["set_aside"].pop(0)
                continue
            if state["stage"] == "replace":
                return
            # refill: draw until a number card fills the replaced position
            drawn = state["pile"].pop(0)
            events.append({"type": "card_drawn", "seat": 0, "card": drawn})
            if is_number(drawn):
                grid[state["refill"]].append(drawn)
                events.append(
                    {"type": "grid_refilled", "seat": 0, "pos": state["refill"], "card": drawn}
                )
                start_play(state)
            elif is_royal(drawn):
                state["waiting"] = drawn
            else:
                gain_ploy(state, drawn, events)
            continue
        if card is not None:
            if placements(tops_of(grid), card) or ploy_can_help(state, card):
                return
            if not living(spots):
                state["pile"].append(card)
                state["waiting"] = None
                events.append({"type": "card_returned", "seat": 0, "card": card})
                continue
            if not state["rules"]["armour"]:
                finish(
                    state, "lost", f"{label(card)} cannot be placed and no Ploy can help.", events
                )
            return
        if not living(spots):
            cycle(state, events)
            continue
        if not state["pile"] and not extract_options(state) and not reassign_options(state):
            finish(state, "lost", "The draw pile is empty and no Ploy is left.", events)
        return


# ---- sentences for the table ---------------------------------------------------------------------


def spot_tip(entry: dict[str, Any], needs: str, attack: dict[str, Any]) -> str:
    """What a royal's spot says when pointed at: its health, what counts, the Attack now."""
    text = f"health {health(entry)}"
    if entry["armour"]:
        text += f" (base {BASE_HEALTH[rank(entry['royal'])]} + armour)"
    counts_text = {
        "suit": "Only its own suit counts.",
        "colour": "Only its own colour counts.",
        "any": "Any suit counts.",
    }[needs]
    incomplete = "" if attack["complete"] else " (incomplete)"
    return f"{text}. {counts_text} Attack now {attack['payload']}{incomplete}."


def describe(event: Event) -> str | None:
    event_type = event["type"]
    if event_type == "card_drawn":
        return f"You drew {label(event['card'])}."
    if event_type == "ploy_gained":
        what = "Reassignment" if is_joker(event["card"]) else "Extraction"
        return f"{label(event['card'])} joins your Ploys ({what})."
    if event_type == "royal_placed":
        return f"The {_royal_name(event['card'])} takes its place {PLACE_NAME[event['spot']]}."
    if event_type in ("card_placed", "card_reassigned"):
        verb = f"moved from {PLACE_NAME[event['from']]} to" if "from" in event else "placed on"
        return f"{label(event['card'])} {verb} {PLACE_NAME[event['pos']]}."
    if event_type == "royal_attacked" and not event["killed"]:
        return f"Attack of {event['attack']} on the {_royal_name(event['royal'])} ({event['health']}) fails."
    if event_type == "royal_killed":
        return f"The {_royal_name(event['royal'])} {PLACE_NAME[event['spot']]} dies."
    if event_type == "armour_added":
        return f"{label(event['card'])} armours the {_royal_name(event['royal'])}: health {event['health']}."
    if event_type == "stack_extracted":
        return f"Extraction: the stack on {PLACE_NAME[event['pos']]} goes under the pile."
    if event_type == "cards_cycled":
        return f"No living royal: {len(event['cards'])} cards cycled to the bottom."
    if event_type == "card_returned":
        return f"{label(event['card'])} cannot be placed and goes under the pile."
    if event_type == "card_replaced":
        return f"{label(event['card'])} on {PLACE_NAME[event['pos']]} goes under the pile."
    if event_type in ("game_won", "game_lost"):
        return event["reason"]
    return None


# ---- the bot (rules.md §8) -------------------------------------------------------------------


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


ENGINE = Gridcannon()
