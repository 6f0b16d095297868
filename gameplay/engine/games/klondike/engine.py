"""Klondike (Solitaire): build four foundations from Ace to King (rules.md).

The layout and what fits where are functions of the state in ``board.py``, shared with the
solver (``solver.py``), which gives the Hint button its advice and deals "winnable deals
only". Every action except ``undo``, ``finish`` and ``resign`` leaves an undo record in the
state's ``history``; ``undo`` pops one and reverses it.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from ...cards import HIDDEN, label
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
from ...text import say
from . import board, solver
from .board import (
    COLUMNS,
    FOUNDATIONS,
    PILES,
    RANK_OF,
    SEAT,
    auto_destination,
    can_finish,
    cards_home,
    deal,
    do_draw,
    do_move,
    do_recycle,
    find_card,
    finish_run,
    heuristic_action,
    hint_words,
    is_stuck,
    legal_destinations,
    movable_sources,
    position_of,
    undo_last,
)

# The Hint button's thinking time (CPU seconds of the thread that asks).
HINT_SECONDS = 1.0


def pile_problem(action: Action, field: str) -> str | None:
    value = action.get(field)
    if not isinstance(value, str):
        return say('A move needs a "{field}" pile.', field=field)
    if value not in PILES:
        return say("There is no pile called '{value}'.", value=value[:20])
    return None


def card_problem(action: Action) -> str | None:
    card = action.get("card")
    if not isinstance(card, str) or card not in RANK_OF:
        return say("That is not a card of this deck.")
    return None


class Klondike(Engine):
    kind = "klondike"
    title = say("Klondike")
    first_win_card = "3S"
    real_game = RealGame(
        decisions=15, pace=4.0
    )  # 15 of the player's own moves (draws, moves, undos; a resign is none)
    milestones = (
        Milestone(
            "klondike-fast",
            say("Three-minute Klondike"),
            say("Win a game of Klondike in under 3 minutes."),
            75,
            "fast_wins",
            1,
            "9S",
            "gold",
            "< 3:00",
            seconds=180,
        ),
    )
    daily = Daily({"draw": 1}, say("Draw 1, a deal the solver proved winnable"))
    blurb = say("The classic solitaire: build four foundations from Ace to King.")
    showcase = ("KS", "QH")
    min_players = 1
    max_players = 1
    options = (
        Option(
            "draw",
            (1, 3),
            say("Draw"),
            say("Cards turned from the stock at a time."),
            (say("Draw 1"), say("Draw 3")),
        ),
        Option(
            "winnable",
            (False, True),
            say("Winnable deals only"),
            say("Deal only deals the solver proves winnable."),
            (say("No"), say("Yes")),
        ),
    )
    records = (Record("winning_moves", say("Fewest moves to a win"), "min"),)
    WINNABLE_SECONDS = 2.0  # the solver's budget per candidate seed (CPU seconds)

    def choose_seed(self, seed: str, rules: dict[str, Any]) -> str:
        """With "winnable", the first seed f"{seed}/{i}" the solver proves winnable (the
        platform stores it, so a replay deals the same cards without searching again)."""
        if not rules.get("winnable"):
            return seed
        found = solver.winnable_seed(
            seed, draw=rules["draw"], seconds=self.WINNABLE_SECONDS, max_tries=40
        )
        return found or seed

    def daily_seed(self, base: str) -> str | None:
        """A Draw 1 deal the solver proves winnable, or None after 40 tries."""
        return solver.winnable_seed(base, draw=1, seconds=self.WINNABLE_SECONDS, max_tries=40)

    def setup(self, players: int, seed: str, rules: dict[str, Any]) -> State:
        return deal(seed, rules["draw"])

    def to_act(self, state: State) -> list[int]:
        return [] if self.is_over(state) else [SEAT]

    def is_over(self, state: State) -> bool:
        return bool(state["won"] or state["resigned"])

    def result(self, state: State) -> dict[str, Any]:
        return {
            "scores": [cards_home(state)],
            "winners": [SEAT] if state["won"] else [],
            "ranking": [[SEAT]],
        }

    def facts(self, state: State, seat: int) -> dict[str, int]:
        facts = {"cards_home": cards_home(state), "moves": state["moves"]}
        if state["won"]:
            facts["winning_moves"] = state["moves"]
        return facts

    # ---- why not: the one place a refusal is explained -------------------------------------

    @why_not("draw")
    def draw_problem(self, state: State, seat: int, action: Action) -> str | None:
        if not state["stock"]:
            return say("The stock is empty: turn the waste over instead.")
        return None

    @why_not("recycle")
    def recycle_problem(self, state: State, seat: int, action: Action) -> str | None:
        if state["stock"]:
            return say("You can turn the waste over only when the stock is empty.")
        if not state["waste"]:
            return say("The stock and the waste are both empty.")
        return None

    @why_not("move")
    def move_problem(self, state: State, seat: int, action: Action) -> str | None:
        problem = pile_problem(action, "from") or card_problem(action) or pile_problem(action, "to")
        if problem:
            return problem
        return board.move_problem(state, action["from"], action["card"], action["to"])

    @why_not("auto")
    def auto_problem(self, state: State, seat: int, action: Action) -> str | None:
        problem = card_problem(action)
        if problem:
            return problem
        card = action["card"]
        frm = find_card(state, card)
        if frm is None:
            return say("The {card} can't be picked up right now.", card=label(card))
        if auto_destination(state, frm, card, position_of(state, frm, card)) is None:
            return say("The {card} has nowhere to go.", card=label(card))
        return None

    @why_not("undo")
    def undo_problem(self, state: State, seat: int, action: Action) -> str | None:
        return None if state["history"] else say("There is nothing to undo.")

    @why_not("finish")
    def finish_problem(self, state: State, seat: int, action: Action) -> str | None:
        if not can_finish(state):
            return say("Finish is possible only when every card is face up.")
        return None

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """What the layout allows, each passed by its why-not check."""
        if self.is_over(state) or seat != SEAT:
            return []
        candidates: list[Action] = [{"type": "draw"}, {"type": "recycle"}]
        for frm, card, index in movable_sources(state):
            for to in legal_destinations(state, frm, card, index):
                candidates.append({"type": "move", "from": frm, "card": card, "to": to})
            candidates.append({"type": "auto", "card": card})
        candidates += [{"type": "finish"}, {"type": "undo"}, {"type": "resign"}]
        return self.allowed(state, seat, candidates)

    # ---- moves ----------------------------------------------------------------------------

    def _counted(self, state: State, seat: int, events: list[Event]) -> list[Event]:
        """A move that counts; the last card home wins."""
        state["moves"] += 1
        if cards_home(state) == 52:
            state["won"] = True
            events.append({"type": "game_won", "seat": seat, "moves": state["moves"]})
        return events

    @move("draw")
    def draw(self, state: State, seat: int, action: Action) -> list[Event]:
        return self._counted(state, seat, do_draw(state))

    @move("recycle")
    def recycle(self, state: State, seat: int, action: Action) -> list[Event]:
        return self._counted(state, seat, do_recycle(state))

    @move("move", "from", "card", "to")
    def move_card(self, state: State, seat: int, action: Action) -> list[Event]:
        frm, card, to = action["from"], action["card"], action["to"]
        events = do_move(state, frm, card, to, position_of(state, frm, card))
        return self._counted(state, seat, events)

    @move("auto", "card")
    def auto(self, state: State, seat: int, action: Action) -> list[Event]:
        card = action["card"]
        frm = find_card(state, card)
        index = position_of(state, frm, card)
        to = auto_destination(state, frm, card, index)
        return self._counted(state, seat, do_move(state, frm, card, to, index, auto=True))

    @move("finish")
    def finish(self, state: State, seat: int, action: Action) -> list[Event]:
        _, events = finish_run(state)
        return self._counted(state, seat, events)

    @move("undo")
    def undo(self, state: State, seat: int, action: Action) -> list[Event]:
        return undo_last(state)

    @move("resign")
    def resign(self, state: State, seat: int, action: Action) -> list[Event]:
        state["resigned"] = True
        return [{"type": "game_resigned", "seat": seat}]

    # ---- what may be seen ------------------------------------------------------------------

    def visible_cards(self, state: State, seat: int | None) -> Counter[str]:
        seen: Counter[str] = Counter(state["waste"])
        for name in COLUMNS:
            seen.update(state["columns"][name]["up"])
        for f in FOUNDATIONS:
            seen.update(state["foundations"][f])
        return seen

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        over = self.is_over(state)
        fan = state["waste_fan"] if state["draw"] == 3 else 1
        fan = min(max(fan, 1), len(state["waste"]))
        # What may be picked up, without repeating card strings (each card shows once in a
        # view): the card is the ``count``-th from the top of ``from`` (1 = its top card),
        # ``to`` lists every legal destination and ``auto`` where a double-tap sends it.
        movable = []
        if not over:
            for frm, card, index in movable_sources(state):
                size = len(state["columns"][frm]["up"]) if frm in COLUMNS else index + 1
                movable.append(
                    {
                        "from": frm,
                        "count": size - index,
                        "to": legal_destinations(state, frm, card, index),
                        "auto": auto_destination(state, frm, card, index),
                    }
                )
        return {
            "kind": self.kind,
            "draw": state["draw"],
            "columns": {
                name: [HIDDEN] * len(state["columns"][name]["down"])
                + list(state["columns"][name]["up"])
                for name in COLUMNS
            },
            "stock_count": len(state["stock"]),
            "waste": state["waste"][len(state["waste"]) - fan :] if fan else [],
            "waste_count": len(state["waste"]),
            "foundations": {
                f: (state["foundations"][f][-1] if state["foundations"][f] else None)
                for f in FOUNDATIONS
            },
            "cards_home": cards_home(state),
            "moves": state["moves"],
            "movable": movable,
            "can_draw": not over and bool(state["stock"]),
            "can_recycle": not over and not state["stock"] and bool(state["waste"]),
            "can_undo": not over and bool(state["history"]),
            "can_finish": not over and can_finish(state),
            "no_moves": not over and is_stuck(state),
            "recycles_since_progress": state["recycles_since_progress"],
            "to_act": self.to_act(state),
            "won": state["won"],
            "resigned": state["resigned"],
            "over": over,
        }

    def bot(
        self, view: dict[str, Any], legal: list[Action], rng: random.Random, strength: str = MEDIUM
    ) -> Action:
        return heuristic_action(view, legal)

    def hint(
        self, state: State, seat: int, seconds: float = HINT_SECONDS, max_nodes: int | None = None
    ) -> dict[str, Any] | None:
        """The Hint button: the solver's advice (solver.hint), told in words.

        The solver never looks at a face-down card or an unseen stock card: while any is
        hidden it solves deals that look the same to the player (the hidden cards dealt at
        random, seeded only from what the player sees) and votes; only a fully known position
        is solved exactly. The words below use only face-up cards."""
        if seat != SEAT or self.is_over(state):
            return None
        view, legal = self.view(state, seat), self.legal_actions(state, seat)
        advice = solver.hint(state, view, legal, seconds=seconds, max_nodes=max_nodes)
        action = advice.get("action")
        move = hint_words(state, action)
        if advice.get("winnable") is False:
            why = say("This position can no longer be won: undo to an earlier point or deal again.")
            message = say("{why} {move}", why=why, move=move) if action else why
        elif action is None:
            message = say("No useful move is left: undo some moves or deal again.")
        elif advice.get("proven"):
            message = say("{move} It starts a winning line the solver found from here.", move=move)
        elif action["type"] == "finish":
            message = move
        elif "wins" in advice:
            message = say(
                "{move} It starts a winning line in {wins} of {tried} deals that look like yours "
                "(the solver can't see the face-down cards either).",
                move=move,
                wins=advice["wins"],
                tried=advice["tried"],
            )
        else:
            message = say(
                "{move} A best guess: the solver found no winning line in time.", move=move
            )
        return {"action": action, "message": message, "source": advice.get("source")}


ENGINE = Klondike()
