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

from ...cards import card_name, deck, is_joker, label, rank, shuffled
from ...core import (
    MEDIUM,
    Action,
    Daily,
    Engine,
    Event,
    Milestone,
    Option,
    RealGame,
    Record,
    State,
    move,
    why_not,
)
from ...text import restored, say, say_n, stored
from .grid import (  # noqa: F401  (the rest of the table's names, for those who read the engine)
    BASE_HEALTH,
    COLOUR,
    FIRES,
    LINES,
    MAX_ATTACK,
    PLACE_NAME,
    POSITION_SPOTS,
    POSITIONS,
    ROLE,
    SPOT_POSITION,
    SPOTS,
    VALUE,
    armour_targets,
    attack_on,
    counts,
    dead_count,
    extract_options,
    health,
    is_number,
    is_ploy,
    is_royal,
    kills_from,
    living,
    must_armour,
    placements,
    ploy_can_help,
    reassign_options,
    reassigned,
    royal_spots,
    top,
    tops_of,
    unspent,
    value,
    waiting_number,
)
from .strategy import choose

# ---- action fields --------------------------------------------------------------------------

POS_WHAT = say("a grid position from r0c0 to r2c2")
SPOT_WHAT = say("a spot beside the grid (T0-T2, L0-L2, R0-R2, B0-B2)")


def field_problem(action: Action, key: str, allowed: list[str], what: str) -> str | None:
    raw = action.get(key)
    return None if isinstance(raw, str) and raw in allowed else say("Choose {what}.", what=what)


def _royal_name(card: str) -> str:
    return card_name(card)


# Actions that change the grid before play begins; every other (but placing a royal and
# resigning) waits until play begins (rules.md §2).
SETUP_ACTIONS = ("replace", "keep")


class Gridcannon(Engine):
    kind = "gridcannon"
    title = say("Gridcannon")
    first_win_card = "QC"
    real_game = RealGame(decisions=8, pace=5.0)  # eight placements
    milestones = (
        Milestone(
            "gridcannon-royals",
            say("Royal hunter"),
            say("Kill 100 royals at Gridcannon."),
            50,
            "fact_total",
            100,
            "KS",
            "silver",
            "100",
            fact="royals_killed",
        ),
    )
    daily = Daily({})
    blurb = say("A solitaire battle: build a 3×3 grid and take down twelve royals.")
    showcase = ("KD", "JC")
    min_players = 1
    max_players = 1
    options = (
        Option(
            "armour",
            (True, False),
            say("Armour"),
            say("Royals gain Armour from the cards that fit nowhere."),
            (say("On"), say("Off")),
        ),
    )
    records = (Record("royals_killed", say("Most royals killed"), "max"),)

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
                return say("Ploys and drawing wait until the grid is set up and play begins.")
            if state["stage"] != "replace":
                return say("Place the royal beside the grid first.")
        elif action_type in SETUP_ACTIONS:
            return say("The grid can only be changed before play begins.")
        return None

    @why_not("place_royal")
    def place_royal_problem(self, state: State, seat: int, action: Action) -> str | None:
        card = state["waiting"]
        if card is None or not is_royal(card):
            return say("There is no royal waiting to be placed.")
        problem = field_problem(action, "spot", SPOTS, SPOT_WHAT)
        if problem:
            return problem
        legal = royal_spots(tops_of(state["grid"]), state["spots"], card)
        if action["spot"] not in legal:
            return say(
                "The {royal} must go beside the card it is most like: {spots}.",
                royal=_royal_name(card),
                spots=", ".join(legal),
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
            return say("Place the {card} first.", card=label(state["waiting"]))
        if not state["pile"]:
            return say("The draw pile is empty.")
        if not living(state["spots"]):
            return say("There is no living royal to draw against.")
        return None

    @why_not("place")
    def place_problem(self, state: State, seat: int, action: Action) -> str | None:
        problem = self._phase_problem(state, "place")
        if problem:
            return problem
        card = waiting_number(state)
        if card is None:
            return say("There is no number card waiting to be placed.")
        problem = field_problem(action, "pos", POSITIONS, POS_WHAT)
        if problem:
            return problem
        if VALUE[top(state["grid"], action["pos"])] > VALUE[card]:
            return say("{card} can only go on a card of the same or lower value.", card=label(card))
        return None

    @why_not("armour")
    def armour_problem(self, state: State, seat: int, action: Action) -> str | None:
        problem = self._phase_problem(state, "armour")
        if problem:
            return problem
        if not state["rules"]["armour"]:
            return say("This table plays without Armour.")
        card = waiting_number(state)
        if card is None:
            return say("There is no number card waiting.")
        if not must_armour(state):
            return say("{card} can still be placed, by itself or with a Ploy.", card=label(card))
        problem = field_problem(action, "spot", SPOTS, SPOT_WHAT)
        if problem:
            return problem
        targets = armour_targets(state["spots"], card)
        if action["spot"] not in targets:
            return say(
                "Armour goes on the royal most like {card}: {spots}.",
                card=label(card),
                spots=", ".join(targets),
            )
        return None

    @why_not("extract")
    def extract_problem(self, state: State, seat: int, action: Action) -> str | None:
        problem = self._phase_problem(state, "extract")
        if problem:
            return problem
        if unspent(state, "A") is None:
            return say("You have no unspent ace for an Extraction.")
        problem = field_problem(action, "pos", POSITIONS, POS_WHAT)
        if problem:
            return problem
        if not state["grid"][action["pos"]]:
            return say("That position is empty: there is no stack to extract.")
        return None

    @why_not("reassign")
    def reassign_problem(self, state: State, seat: int, action: Action) -> str | None:
        problem = self._phase_problem(state, "reassign")
        if problem:
            return problem
        if unspent(state, "JK") is None:
            return say("You have no unspent joker for a Reassignment.")
        problem = field_problem(action, "from", POSITIONS, POS_WHAT) or field_problem(
            action, "to", POSITIONS, POS_WHAT
        )
        if problem:
            return problem
        frm, to = action["from"], action["to"]
        if to == frm:
            return say("Move the card to a different position.")
        grid = state["grid"]
        if not grid[frm]:
            return say("That position is empty: there is no card to move.")
        moved = grid[frm][-1]
        if VALUE[top(grid, to)] > VALUE[moved]:
            return say(
                "{card} can only move onto a card of the same or lower value.", card=label(moved)
            )
        return None

    # ---- moves: each one ends with what the rules then do by themselves ---------------------

    def _then(self, state: State, events: list[Event]) -> list[Event]:
        advance(state, events)
        state["last"] = [stored(s) for s in (describe(e) for e in events) if s]
        return events

    @move("resign")
    def resign(self, state: State, seat: int, action: Action) -> list[Event]:
        events: list[Event] = [{"type": "resigned", "seat": seat}]
        finish(state, "lost", say("You resigned."), events)
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
                say(
                    "The {royal} has {health} health: no Attack can kill it any more.",
                    royal=_royal_name(entry["royal"]),
                    health=health(entry),
                ),
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
            "reason": restored(state["reason"]),
            "last": [restored(s) for s in state["last"]],
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
    state["reason"] = stored(reason)
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
        finish(state, "lost", say("No royal is left to draw."), events)
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
            finish(state, "won", say("All 12 royals are dead."), events)
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
                    state,
                    "lost",
                    say("{card} cannot be placed and no Ploy can help.", card=label(card)),
                    events,
                )
            return
        if not living(spots):
            cycle(state, events)
            continue
        if not state["pile"] and not extract_options(state) and not reassign_options(state):
            finish(state, "lost", say("The draw pile is empty and no Ploy is left."), events)
        return


# ---- sentences for the table ---------------------------------------------------------------------


def spot_tip(entry: dict[str, Any], needs: str, attack: dict[str, Any]) -> str:
    """What a royal's spot says when pointed at: its health, what counts, the Attack now."""
    if entry["armour"]:
        text = say(
            "health {health} (base {base} + armour)",
            health=health(entry),
            base=BASE_HEALTH[rank(entry["royal"])],
        )
    else:
        text = say("health {health}", health=health(entry))
    counts_text = {
        "suit": say("Only its own suit counts."),
        "colour": say("Only its own colour counts."),
        "any": say("Any suit counts."),
    }[needs]
    if attack["complete"]:
        return say(
            "{health}. {counts} Attack now {attack}.",
            health=text,
            counts=counts_text,
            attack=attack["payload"],
        )
    return say(
        "{health}. {counts} Attack now {attack} (incomplete).",
        health=text,
        counts=counts_text,
        attack=attack["payload"],
    )


def describe(event: Event) -> str | None:
    event_type = event["type"]
    if event_type == "card_drawn":
        return say("You drew {card}.", card=label(event["card"]))
    if event_type == "ploy_gained":
        what = say("Reassignment") if is_joker(event["card"]) else say("Extraction")
        return say("{card} joins your Ploys ({ploy}).", card=label(event["card"]), ploy=what)
    if event_type == "royal_placed":
        return say(
            "The {royal} takes its place {place}.",
            royal=_royal_name(event["card"]),
            place=PLACE_NAME[event["spot"]],
        )
    if event_type in ("card_placed", "card_reassigned"):
        if "from" in event:
            return say(
                "{card} moved from {place} to {to}.",
                card=label(event["card"]),
                place=PLACE_NAME[event["from"]],
                to=PLACE_NAME[event["pos"]],
            )
        return say("{card} placed on {to}.", card=label(event["card"]), to=PLACE_NAME[event["pos"]])
    if event_type == "royal_attacked" and not event["killed"]:
        return say(
            "Attack of {attack} on the {royal} ({health}) fails.",
            attack=event["attack"],
            royal=_royal_name(event["royal"]),
            health=event["health"],
        )
    if event_type == "royal_killed":
        return say(
            "The {royal} {place} dies.",
            royal=_royal_name(event["royal"]),
            place=PLACE_NAME[event["spot"]],
        )
    if event_type == "armour_added":
        return say(
            "{card} armours the {royal}: health {health}.",
            card=label(event["card"]),
            royal=_royal_name(event["royal"]),
            health=event["health"],
        )
    if event_type == "stack_extracted":
        return say(
            "Extraction: the stack on {place} goes under the pile.", place=PLACE_NAME[event["pos"]]
        )
    if event_type == "cards_cycled":
        return say_n(
            "No living royal: {n} card cycled to the bottom.",
            "No living royal: {n} cards cycled to the bottom.",
            len(event["cards"]),
        )
    if event_type == "card_returned":
        return say("{card} cannot be placed and goes under the pile.", card=label(event["card"]))
    if event_type == "card_replaced":
        return say(
            "{card} on {place} goes under the pile.",
            card=label(event["card"]),
            place=PLACE_NAME[event["pos"]],
        )
    if event_type in ("game_won", "game_lost"):
        return event["reason"]
    return None


ENGINE = Gridcannon()
