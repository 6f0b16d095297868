"""The Klondike layout and its rules as functions of the state, shared by the engine and
the solver (rules.md §1-§4, §8).

Piles: ``stock`` (index 0 is the top), ``waste`` (bottom -> top), seven columns ``t1``..``t7``
(each a face-down part and a face-up part, both bottom -> top) and four foundations ``fS``,
``fH``, ``fD``, ``fC`` (bottom -> top). Every action except ``undo``, ``finish`` and
``resign`` leaves an undo record in ``history``; ``undo`` pops one and reverses it.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from ...cards import HIDDEN, SUIT_SYMBOLS, deck, label, rank_number, shuffled, suit
from ...core import Action, Event, State
from ...text import say, say_n

COLUMNS = [f"t{i}" for i in range(1, 8)]
FOUNDATIONS = ["fS", "fH", "fD", "fC"]
PILES = ["stock", "waste", *COLUMNS, *FOUNDATIONS]
SEAT = 0

# Limit of the "no more moves" search (positions); beyond it the view says moves remain.
STUCK_SEARCH_LIMIT = 3000


# ---- deal ------------------------------------------------------------------------------------


def deal(seed: str, draw: int) -> State:
    """The board dealt from the seed's shuffle (rules.md §2)."""
    return deal_state(shuffled(deck(), seed, "deal", 1), draw)


def deal_state(cards: list[str], draw: int = 1) -> State:
    """The board dealt from ``cards`` (index 0 is dealt first), rules.md §2."""
    columns = {name: {"down": [], "up": []} for name in COLUMNS}
    i = 0
    for p in range(7):
        for c in range(p, 7):
            pile = columns[COLUMNS[c]]
            (pile["up"] if c == p else pile["down"]).append(cards[i])
            i += 1
    stock = list(cards[i:])
    return {
        "draw": draw,
        "stock": stock,
        "waste": [],
        "columns": columns,
        "foundations": {f: [] for f in FOUNDATIONS},
        "history": [],
        "moves": 0,
        "recycles_since_progress": 0,
        # The bottom ``stock_unseen`` stock cards have never been turned face up.
        "stock_unseen": len(stock),
        # How many waste cards are fanned (the cards of the last draw still on the waste).
        "waste_fan": 0,
        "won": False,
        "resigned": False,
    }


# ---- small rules helpers ---------------------------------------------------------------------

RANK_OF = {c: rank_number(c) for c in deck()}
RED = {c: suit(c) in "HD" for c in deck()}
RANK_LETTERS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def fits_column(card: str, top: str | None) -> bool:
    """Can ``card`` (a group's bottom card) go onto a column whose top card is ``top``?"""
    if top is None:
        return RANK_OF[card] == 13
    return RANK_OF[card] == RANK_OF[top] - 1 and RED[card] != RED[top]


def fits_foundation(card: str, foundation: str, pile: list[str]) -> bool:
    return card[-1] == foundation[1] and RANK_OF[card] == len(pile) + 1


def foundation_of(card: str) -> str:
    return "f" + card[-1]


def next_card(foundation: str, pile: list[str]) -> str:
    return RANK_LETTERS[len(pile)] + foundation[1]


def column_top(state: State, name: str) -> str | None:
    up = state["columns"][name]["up"]
    return up[-1] if up else None


def cards_home(state: State) -> int:
    return sum(len(state["foundations"][f]) for f in FOUNDATIONS)


def movable_sources(state: State) -> list[tuple[str, str, int]]:
    """Every (pile, card, position) that may be picked up: the waste top, each face-up
    column card (with what lies on it) and each foundation's top card."""
    out = []
    if state["waste"]:
        out.append(("waste", state["waste"][-1], len(state["waste"]) - 1))
    for name in COLUMNS:
        for i, card in enumerate(state["columns"][name]["up"]):
            out.append((name, card, i))
    for f in FOUNDATIONS:
        pile = state["foundations"][f]
        if pile:
            out.append((f, pile[-1], len(pile) - 1))
    return out


def pickup_problem(state: State, pile: str, card: str) -> str | None:
    """Why ``card`` can't be picked up from ``pile`` (a pile name, a card of the deck), or
    None when it can."""
    if pile == "stock":
        return say("Cards in the stock can't be moved: draw them first.")
    if pile == "waste":
        if not (state["waste"] and state["waste"][-1] == card):
            return say("The {card} is not the top card of the waste.", card=label(card))
        return None
    if pile in FOUNDATIONS:
        f = state["foundations"][pile]
        if card not in f:
            return say("The {card} is not on that foundation.", card=label(card))
        if f[-1] != card:
            return say("Only the top card of a foundation can move.")
        return None
    col = state["columns"][pile]
    if card in col["down"]:
        return say("The {card} is face down.", card=label(card))
    if card not in col["up"]:
        return say("The {card} is not in that column.", card=label(card))
    return None


def position_of(state: State, pile: str, card: str) -> int:
    """Where a card that may be picked up lies in ``pile``'s movable part."""
    if pile == "waste":
        return len(state["waste"]) - 1
    if pile in FOUNDATIONS:
        return len(state["foundations"][pile]) - 1
    return state["columns"][pile]["up"].index(card)


def find_card(state: State, card: str) -> str | None:
    """The pile ``card`` may be picked up from, or None."""
    if state["waste"] and state["waste"][-1] == card:
        return "waste"
    for name in COLUMNS:
        if card in state["columns"][name]["up"]:
            return name
    for f in FOUNDATIONS:
        if state["foundations"][f][-1:] == [card]:
            return f
    return None


def move_allowed(state: State, frm: str, card: str, index: int, to: str) -> bool:
    """The move rules (rules.md §3) for a card already located at ``index`` of ``frm``. The one
    predicate behind the moves' why-not checks, the view and ``auto``."""
    if to == frm:
        return False
    if to in FOUNDATIONS:
        if frm in COLUMNS and len(state["columns"][frm]["up"]) - index != 1:
            return False
        return fits_foundation(card, to, state["foundations"][to])
    if to in COLUMNS:
        return fits_column(card, column_top(state, to))
    return False


def move_problem(state: State, frm: str, card: str, to: str) -> str | None:
    """Why moving ``card`` from ``frm`` to ``to`` (pile names, a card of the deck) breaks the
    rules (rules.md §3), or None."""
    problem = pickup_problem(state, frm, card)
    if problem:
        return problem
    index = position_of(state, frm, card)
    if move_allowed(state, frm, card, index, to):
        return None
    # Only the explanation is worked out here.
    if to == frm:
        return say("A card can't move onto its own pile.")
    if to not in COLUMNS and to not in FOUNDATIONS:
        return say("Cards can't be put back on the stock or the waste.")
    if to in FOUNDATIONS:
        if frm in COLUMNS and len(state["columns"][frm]["up"]) - index != 1:
            return say("Only one card at a time can go to a foundation.")
        if suit(card) != to[1]:
            return say(
                "The {card} doesn't belong on the {suit} foundation.",
                card=label(card),
                suit=SUIT_SYMBOLS[to[1]],
            )
        pile = state["foundations"][to]
        if not pile:
            return say("A foundation starts with its Ace.")
        return say("That foundation needs the {card} next.", card=label(next_card(to, pile)))
    top = column_top(state, to)
    if top is None:
        return say("Only a King can go into an empty column.")
    return say(
        "The {card} doesn't fit on the {onto}: build down by one rank in alternating colours.",
        card=label(card),
        onto=label(top),
    )


def legal_destinations(state: State, frm: str, card: str, index: int) -> list[str]:
    # Only the card's own foundation can ever take it.
    targets = [foundation_of(card), *COLUMNS]
    return [to for to in targets if move_allowed(state, frm, card, index, to)]


def auto_destination(state: State, frm: str, card: str, index: int) -> str | None:
    """Where a double-tap sends ``card`` (rules.md §3 ``auto``), or None."""
    f = foundation_of(card)
    if move_allowed(state, frm, card, index, f):
        return f
    empty = [c for c in COLUMNS if not state["columns"][c]["up"]]
    filled = [c for c in COLUMNS if c not in empty]
    for to in filled + empty:
        if move_allowed(state, frm, card, index, to):
            return to
    return None


# ---- state changes (used by the moves, undo, finish and the solver's checks) ----------------


def take(state: State, frm: str, index: int) -> list[str]:
    """Remove and return the cards from ``index`` upwards of ``frm``'s movable part."""
    if frm == "waste":
        pile = state["waste"]
    elif frm in FOUNDATIONS:
        pile = state["foundations"][frm]
    else:
        pile = state["columns"][frm]["up"]
    group = pile[index:]
    del pile[index:]
    return group


def put(state: State, to: str, group: list[str]) -> None:
    if to in FOUNDATIONS:
        state["foundations"][to].extend(group)
    else:
        state["columns"][to]["up"].extend(group)


def flip_if_needed(state: State, pile: str) -> str | None:
    if pile not in COLUMNS:
        return None
    col = state["columns"][pile]
    if not col["up"] and col["down"]:
        col["up"].append(col["down"].pop())
        return col["up"][-1]
    return None


# Undo records are short strings (cheap to copy): "draw n fan rsp", "recycle fan rsp" or
# "move from to n flipped fan rsp", where fan and rsp are the waste fan and the
# recycles-since-progress counter before the action.


def do_move(state: State, frm: str, card: str, to: str, index: int, **extra: Any) -> list[Event]:
    """Move a checked group and record it for undo."""
    before = f"{state['waste_fan']} {state['recycles_since_progress']}"
    group = take(state, frm, index)
    put(state, to, group)
    if frm == "waste":
        state["waste_fan"] = max(state["waste_fan"] - 1, 1 if state["waste"] else 0)
    flipped = flip_if_needed(state, frm)
    state["history"].append(f"move {frm} {to} {len(group)} {int(bool(flipped))} {before}")
    state["recycles_since_progress"] = 0
    events = [
        {"type": "card_moved", "seat": SEAT, "card": card, "cards": group, "from": frm, "to": to}
        | extra
    ]
    if flipped:
        events.append({"type": "card_turned", "seat": SEAT, "pile": frm, "card": flipped})
    return events


def do_draw(state: State) -> list[Event]:
    n = min(state["draw"], len(state["stock"]))
    drawn = state["stock"][:n]
    del state["stock"][:n]
    state["waste"].extend(drawn)
    state["history"].append(f"draw {n} {state['waste_fan']} {state['recycles_since_progress']}")
    state["waste_fan"] = n
    state["stock_unseen"] = min(state["stock_unseen"], len(state["stock"]))
    return [{"type": "cards_drawn", "seat": SEAT, "cards": drawn}]


def do_recycle(state: State) -> list[Event]:
    state["history"].append(f"recycle {state['waste_fan']} {state['recycles_since_progress']}")
    state["stock"] = state["waste"]
    state["waste"] = []
    state["waste_fan"] = 0
    state["recycles_since_progress"] += 1
    return [{"type": "waste_recycled", "seat": SEAT, "count": len(state["stock"])}]


def undo_last(state: State) -> list[Event]:
    undone, *fields = state["history"].pop().split()
    state["waste_fan"], state["recycles_since_progress"] = int(fields[-2]), int(fields[-1])
    event: Event = {"type": "action_undone", "seat": SEAT, "undone": undone}
    if undone == "draw":
        n = int(fields[0])
        cards = state["waste"][len(state["waste"]) - n :]
        del state["waste"][len(state["waste"]) - n :]
        state["stock"][:0] = cards
        event["cards"] = cards
    elif undone == "recycle":
        state["waste"] = state["stock"]
        state["stock"] = []
        event["count"] = len(state["waste"])
    else:
        frm, to, n, flipped = fields[0], fields[1], int(fields[2]), fields[3] == "1"
        if flipped:
            col = state["columns"][frm]
            col["down"].append(col["up"].pop())
            event["turned_down"] = frm
        source = state["foundations"][to] if to in FOUNDATIONS else state["columns"][to]["up"]
        group = source[len(source) - n :]
        del source[len(source) - n :]
        if frm == "waste":
            state["waste"].extend(group)
        else:
            put(state, frm, group)
        event.update(cards=group, card=group[0], **{"from": to, "to": frm})
    return [event]


def finish_run(state: State) -> tuple[bool, list[Event]]:
    """The auto-finish procedure (rules.md §4) on ``state`` in place: (won?, one event per step)."""
    events: list[Event] = []
    recycled_idle = False
    while True:
        best = None
        candidates = [("waste", state["waste"][-1])] if state["waste"] else []
        candidates += [
            (c, state["columns"][c]["up"][-1]) for c in COLUMNS if state["columns"][c]["up"]
        ]
        for pile, card in candidates:
            f = foundation_of(card)
            if fits_foundation(card, f, state["foundations"][f]):
                if best is None or RANK_OF[card] < RANK_OF[best[1]]:
                    best = (pile, card)
        if best is not None:
            pile, card = best
            group = take(state, pile, len(state["waste"]) - 1 if pile == "waste" else -1)
            put(state, foundation_of(card), group)
            if pile == "waste":
                state["waste_fan"] = max(state["waste_fan"] - 1, 1 if state["waste"] else 0)
            events.append(
                {
                    "type": "card_moved",
                    "seat": SEAT,
                    "card": card,
                    "cards": [card],
                    "from": pile,
                    "to": foundation_of(card),
                    "finish": True,
                }
            )
            recycled_idle = False
            continue
        if state["stock"]:
            n = min(state["draw"], len(state["stock"]))
            drawn = state["stock"][:n]
            del state["stock"][:n]
            state["waste"].extend(drawn)
            state["waste_fan"] = n
            events.append({"type": "cards_drawn", "seat": SEAT, "cards": drawn, "finish": True})
            continue
        if not state["waste"]:
            return cards_home(state) == 52, events
        if recycled_idle:
            return False, events
        state["stock"], state["waste"] = state["waste"], []
        state["waste_fan"] = 0
        recycled_idle = True
        events.append(
            {"type": "waste_recycled", "seat": SEAT, "count": len(state["stock"]), "finish": True}
        )


def _board_copy(state: State) -> State:
    return {
        "draw": state["draw"],
        "stock": list(state["stock"]),
        "waste": list(state["waste"]),
        "columns": {
            c: {"down": list(v["down"]), "up": list(v["up"])} for c, v in state["columns"].items()
        },
        "foundations": {f: list(v) for f, v in state["foundations"].items()},
        "waste_fan": state["waste_fan"],
    }


def can_finish(state: State) -> bool:
    if state["won"] or state["resigned"] or state["stock"]:
        return False
    if any(state["columns"][c]["down"] for c in COLUMNS):
        return False
    return finish_run(_board_copy(state))[0]


# ---- "no more moves" ----------------------------------------------------------------------------


def talon_reach(length: int, pos: int, draw: int) -> list[int]:
    """Indices of the talon (waste bottom -> top, then stock top -> bottom; the waste is the
    first ``pos`` cards) that can become the waste's top card by drawing and recycling only."""
    if draw == 1:
        return list(range(length))
    seen = []
    if pos > 0:
        seen.append(pos - 1)
    p = pos
    for _ in range(2):
        while p < length:
            p = min(p + draw, length)
            seen.append(p - 1)
        p = 0
    return sorted(set(seen))


def is_stuck(state: State) -> bool:
    """True when no useful move exists, judged only on what the player knows.

    Useful = a face-down card gets turned over, a stock/waste card leaves the talon, or the
    foundations get more cards than now, after any number of moves. The search uses only face-up
    cards and stock cards the player has already seen (while the stock holds unseen cards,
    drawing is useful, so the answer is False). It is exact within ``STUCK_SEARCH_LIMIT``
    positions and answers False beyond it.
    """
    if state["won"] or state["resigned"] or state["stock_unseen"] > 0:
        return False
    talon = state["waste"] + state["stock"]
    reach = talon_reach(len(talon), len(state["waste"]), state["draw"])
    talon_cards = [talon[i] for i in reach]
    home = cards_home(state)
    start = (
        tuple(
            (len(state["columns"][c]["down"]), tuple(state["columns"][c]["up"])) for c in COLUMNS
        ),
        tuple(len(state["foundations"][f]) for f in FOUNDATIONS),
    )
    seen = {start}
    queue = deque([start])
    while queue:
        cols, found = queue.popleft()
        tops = [up[-1] if up else None for _, up in cols]

        def foundation_ok(card: str, found=found) -> bool:
            return RANK_OF[card] == found["SHDC".index(suit(card))] + 1

        for card in talon_cards:
            # (a King fits an empty column, whose top is None)
            if foundation_ok(card) or any(fits_column(card, t) for t in tops):
                return False
        children = []
        for i, (down, up) in enumerate(cols):
            for j, card in enumerate(up):
                reveals = j == 0 and down > 0
                if j == len(up) - 1 and foundation_ok(card) and (reveals or sum(found) + 1 > home):
                    return False
                for k, (_, up2) in enumerate(cols):
                    if k == i or not fits_column(card, up2[-1] if up2 else None):
                        continue
                    if reveals:
                        return False
                    if j == 0 and not up2:
                        continue  # a whole column onto an empty one changes nothing
                    new = list(cols)
                    new[i] = (down, up[:j])
                    new[k] = (cols[k][0], up2 + up[j:])
                    children.append((tuple(new), found))
                if j == len(up) - 1 and foundation_ok(card):
                    s = "SHDC".index(suit(card))
                    new = list(cols)
                    new[i] = (down, up[:j])
                    f2 = list(found)
                    f2[s] += 1
                    children.append((tuple(new), tuple(f2)))
        for s, n in enumerate(found):
            if n == 0:
                continue
            card = RANK_LETTERS[n - 1] + "SHDC"[s]
            for k, (down2, up2) in enumerate(cols):
                if fits_column(card, up2[-1] if up2 else None):
                    new = list(cols)
                    new[k] = (down2, up2 + (card,))
                    f2 = list(found)
                    f2[s] -= 1
                    children.append((tuple(new), tuple(f2)))
        for child in children:
            if child not in seen:
                if len(seen) >= STUCK_SEARCH_LIMIT:
                    return False
                seen.add(child)
                queue.append(child)
    return True


# ---- the bot / heuristic -----------------------------------------------------------------------


def _view_down(view: dict[str, Any], pile: str) -> int:
    return sum(1 for c in view["columns"][pile] if c == HIDDEN)


def _view_found_rank(view: dict[str, Any], s: str) -> int:
    top = view["foundations"]["f" + s]
    return RANK_OF[top] if top else 0


def heuristic_action(view: dict[str, Any], legal: list[Action]) -> Action:
    """The computer player (rules.md §8), from the view and legal actions only (plus
    ``finish`` first)."""
    kinds = {a["type"]: a for a in legal}
    if "finish" in kinds:
        return kinds["finish"]
    moves = [a for a in legal if a["type"] == "move"]

    def reveals(a: Action) -> bool:
        if a["from"] not in COLUMNS:
            return False
        col = view["columns"][a["from"]]
        down = _view_down(view, a["from"])
        return down > 0 and col[down] == a["card"]

    def first(pred, key=None):
        found = [a for a in moves if pred(a)]
        if key:
            found.sort(key=key)
        return found[0] if found else None

    def safe(card: str) -> bool:
        r = RANK_OF[card]
        opposite = "SC" if suit(card) in "HD" else "HD"
        return all(_view_found_rank(view, s) >= r - 1 for s in opposite)

    steps = [
        # 1. an A or 2 to a foundation
        lambda: first(lambda a: a["to"] in FOUNDATIONS and RANK_OF[a["card"]] <= 2),
        # 2. turn over a face-down card, the column with the most face-down cards first
        lambda: first(
            reveals,
            key=lambda a: (-_view_down(view, a["from"]), a["to"] not in FOUNDATIONS),
        ),
        # 3. a safe foundation move
        lambda: first(
            lambda a: a["to"] in FOUNDATIONS and a["from"] not in FOUNDATIONS and safe(a["card"])
        ),
        # 4. a King into an empty column, from the waste (from a column: step 2 covered it)
        lambda: first(
            lambda a: (
                a["from"] == "waste"
                and a["to"] in COLUMNS
                and not view["columns"][a["to"]]
                and RANK_OF[a["card"]] == 13
            )
        ),
        # 5. the waste's top card to a column
        lambda: first(lambda a: a["from"] == "waste" and a["to"] in COLUMNS),
    ]
    for step in steps:
        action = step()
        if action:
            return action
    if "draw" in kinds:
        return kinds["draw"]
    if "recycle" in kinds and view["recycles_since_progress"] < 2:
        return kinds["recycle"]
    # 7. two full passes through the stock with no move: no moves
    return kinds.get("resign", legal[0])


# ---- hints in words ----------------------------------------------------------------------------


def hint_words(state: State, action: Action | None) -> str:
    """An action as a sentence ("Move 7♥ onto 8♠."), naming only face-up cards."""
    if action is None:
        return ""
    action_type = action["type"]
    if action_type == "draw":
        return say("Draw from the stock.")
    if action_type == "recycle":
        return say("Turn the waste over to make a new stock.")
    if action_type == "finish":
        return say("Every card is face up: press Finish.")
    if action_type == "undo":
        return say("Undo the last move.")
    if action_type not in ("move", "auto"):
        return ""
    card = action["card"]
    frm = find_card(state, card) if action_type == "auto" else action["from"]
    index = position_of(state, frm, card)
    to = action["to"] if action_type == "move" else auto_destination(state, frm, card, index)
    # The sentence in three parts (what moves, from where, to where), each said on its own.
    where = ""
    if frm in COLUMNS:
        above = len(state["columns"][frm]["up"]) - index - 1
        if above:
            where = say_n(" (with the {n} card on it)", " (with the {n} cards on it)", above)
    elif frm == "waste":
        where = say(" from the waste")
    else:
        where = say(" back from its foundation")
    top = None if to in FOUNDATIONS else column_top(state, to)
    if to in FOUNDATIONS:
        dest = say(" to its foundation.")
    elif top is None:
        dest = say(" to the empty column {column}.", column=to[1:])
    else:
        dest = say(" onto {card}.", card=label(top))
    return say("Move {card}{where}{dest}", card=label(card), where=where, dest=dest)
