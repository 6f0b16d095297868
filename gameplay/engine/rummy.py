"""The draw-and-discard turn that Gin Rummy and Thirteen share: draw from the stock or take
the top of the discard pile, then discard, or end the hand with that discard (Gin's knock,
Thirteen's going out). The card just taken from the discard pile can't be thrown back."""

from __future__ import annotations

from types import ModuleType
from typing import Any

from .cards import is_card, label
from .core import Action, Engine, State, why_not
from .text import say

SOURCES = ("stock", "discard")


def begin_turn(state: State, seat: int, source: str) -> None:
    """Start ``seat``'s entry in ``turns``, replacing its previous one: the table tells what
    the others did since your last turn."""
    turns = [t for t in state["turns"] if t["seat"] != seat]
    turns.append({"seat": seat, "drew": source, "took": None, "discarded": None})
    state["turns"] = turns


class DrawDiscard(Engine):
    """An engine whose state has ``over``, ``turn``, ``step`` ("draw" or "discard"), ``hands``,
    ``discard``, ``taken`` and ``turns``."""

    strategy: ModuleType  # the computer player: choose(view, legal) and describe(action, view)
    not_your_turn = say("It is not your turn.")
    already_drawn = say("You have already drawn: discard a card.")

    def is_over(self, state: State) -> bool:
        return state["over"]

    def to_act(self, state: State) -> list[int]:
        return [] if state["over"] else [state["turn"]]

    def _turn_problem(self, state: State, seat: Any, step: str) -> str | None:
        if state["over"]:
            return say("The game is over.")
        if seat != state["turn"]:
            return self.not_your_turn
        if state["step"] != step:
            if step == "draw":
                return self.already_drawn
            return say("Draw a card first, from the stock or the discard pile.")
        return None

    @why_not("draw")
    def draw_problem(self, state: State, seat: int, action: Action) -> str | None:
        problem = self._turn_problem(state, seat, "draw")
        if problem:
            return problem
        source = action.get("from")
        if source not in SOURCES:
            return say('Draw from "stock" or "discard".')
        if source == "discard" and not state["discard"]:
            return say("The discard pile is empty: draw from the stock.")
        return None

    def _card_problem(self, state: State, seat: int, action: Action) -> str | None:
        problem = self._turn_problem(state, seat, "discard")
        if problem:
            return problem
        card = action.get("card")
        if not is_card(card):
            return say("Name a card from your hand.")
        if card not in state["hands"][seat]:
            return say("You don't hold the {card}.", card=label(card))
        if card == state["taken"]:
            return say("You can't throw back the card you just took from the discard pile.")
        return None

    @why_not("discard")
    def discard_problem(self, state: State, seat: int, action: Action) -> str | None:
        return self._card_problem(state, seat, action)

    # ---- the computer player --------------------------------------------------------------

    def hint(self, state: State, seat: int) -> dict[str, Any] | None:
        """The computer player's choice for this seat, told in words."""
        legal = self.legal_actions(state, seat)
        if not legal:
            return None
        view = self.view(state, seat)
        action = self.strategy.choose(view, legal)
        return {"action": action, "message": self.strategy.describe(action, view)}
