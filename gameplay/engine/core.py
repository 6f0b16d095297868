"""The engine contract's shared machinery: validation order, atomic apply, bots, redaction.

A game subclasses ``Engine`` and writes only its rules: ``setup``, ``play``, ``to_act``,
``legal_actions``, ``view``, ``visible_cards``, ``is_over``, ``result`` and ``bot``. The
checks every game shares (game over? which seat? is it a well-formed action? your turn?) run
here once, in the same order for every game, so each game's ``play`` starts from an action
that is at least well-formed and in turn.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

from .cards import HIDDEN, bot_rng

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]


class IllegalAction(Exception):
    """An action the rules don't allow. The message is a sentence for the player."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def require(condition: object, message: str) -> None:
    """Raise IllegalAction(message) unless condition holds."""
    if not condition:
        raise IllegalAction(message)


class Engine:
    kind: str = ""
    title: str = ""
    min_players: int = 1
    max_players: int = 1
    version: int = 1
    # Rule options: name -> allowed values; the first value is the default.
    rule_choices: dict[str, list[Any]] = {}
    # The action types this game knows; anything else is "unknown".
    action_types: tuple[str, ...] = ()

    # ---- the contract -------------------------------------------------------------------

    def default_rules(self) -> dict[str, Any]:
        return {name: values[0] for name, values in self.rule_choices.items()}

    def new_game(self, players: int, seed: str, rules: dict[str, Any] | None = None) -> State:
        require(
            isinstance(players, int) and not isinstance(players, bool),
            "The number of players must be a whole number.",
        )
        require(
            self.min_players <= players <= self.max_players,
            f"{self.title} is for {self._players_text()}.",
        )
        require(isinstance(seed, str) and seed, "A game needs a seed.")
        rules = self.check_rules(rules)
        state = self.setup(players, seed, rules)
        state.update(kind=self.kind, players=players, seed=seed, rules=rules, applied=0)
        return state

    def apply(self, state: State, seat: int, action: Action) -> list[Event]:
        """Validate and apply one action. On IllegalAction the state is left unchanged."""
        self.check_turn(state, seat, action)
        work = clone(state)
        events = self.play(work, seat, action)
        work["applied"] += 1
        state.clear()
        state.update(work)
        return events

    def bot_action(self, state: State, seat: int) -> Action:
        """A legal action for a computer player, chosen from what that seat may see."""
        legal = self.legal_actions(state, seat)
        require(legal, "This seat has nothing to do right now.")
        rng = bot_rng(state["seed"], seat, state["applied"])
        return self.bot(self.view(state, seat), legal, rng)

    def to_act(self, state: State) -> list[int]:
        raise NotImplementedError

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        raise NotImplementedError

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        raise NotImplementedError

    def is_over(self, state: State) -> bool:
        raise NotImplementedError

    def result(self, state: State) -> dict[str, Any]:
        raise NotImplementedError

    # ---- what each game writes ------------------------------------------------------------

    def setup(self, players: int, seed: str, rules: dict[str, Any]) -> State:
        """A fresh state: shuffle with cards.shuffled(seed, purpose, n) and deal."""
        raise NotImplementedError

    def play(self, state: State, seat: int, action: Action) -> list[Event]:
        """Check the game's own preconditions (raise IllegalAction before mutating anything
        you want kept; the caller works on a copy), mutate ``state``, return events."""
        raise NotImplementedError

    def visible_cards(self, state: State, seat: int | None) -> Counter[str]:
        """The multiset of cards ``seat`` may see now, computed from the state's zones
        (never from ``view``). The conformance suite checks every view against it."""
        raise NotImplementedError

    def choose_seed(self, seed: str, rules: dict[str, Any]) -> str:
        """The seed to deal from. A game may pick one derived from ``seed`` (Klondike's
        "winnable deals only" picks the first the solver proves winnable). The platform
        stores the chosen seed, so replays never run this again."""
        return seed

    def hint(self, state: State, seat: int) -> dict[str, Any] | None:
        """Optional advice for a seat: {"action": {...} or None, "message": "..."}. It must
        reveal nothing that seat may not see. None: this game gives no hints."""
        return None

    def bot(self, view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        """The computer player. It sees only the seat's view and legal actions."""
        return rng.choice(legal)

    # ---- shared checks --------------------------------------------------------------------

    def check_rules(self, rules: dict[str, Any] | None) -> dict[str, Any]:
        merged = self.default_rules()
        if rules is None:
            return merged
        require(isinstance(rules, dict), "Rule options must be given as name: value pairs.")
        for name, value in rules.items():
            require(name in self.rule_choices, f"{self.title} has no rule option '{name}'.")
            allowed = self.rule_choices[name]
            require(
                value in allowed and type(value) is type(allowed[0]),
                f"'{name}' must be one of: {', '.join(str(v) for v in allowed)}.",
            )
            merged[name] = value
        return merged

    def check_turn(self, state: State, seat: int, action: Action) -> None:
        """The checks every game shares, in this order."""
        require(not self.is_over(state), "The game is over.")
        require(
            isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < state["players"],
            "There is no such seat at this table.",
        )
        require(
            isinstance(action, dict) and isinstance(action.get("type"), str),
            'An action must be an object with a "type".',
        )
        require(
            action["type"] in self.action_types,
            f"{self.title} has no action '{str(action['type'])[:40]}'.",
        )
        require(seat in self.to_act(state), "It is not your turn.")

    def _players_text(self) -> str:
        if self.min_players == self.max_players:
            n = self.min_players
            return "1 player" if n == 1 else f"{n} players"
        return f"{self.min_players} to {self.max_players} players"


def clone(value: Any) -> Any:
    """A deep copy, fast for JSON data (dicts and lists); anything else via copy.deepcopy."""
    if isinstance(value, dict):
        return {k: clone(v) for k, v in value.items()}
    if isinstance(value, list):
        return [clone(v) for v in value]
    if value is None or isinstance(value, str | int | float):
        return value
    return copy.deepcopy(value)


# ---- simultaneous actions (War flips, Blackjack bets) -------------------------------------


def waiting(state: State, seats: list[int]) -> list[int]:
    """Seats of a simultaneous stage that have not acted yet."""
    submitted = state.get("submitted", {})
    return [s for s in seats if str(s) not in submitted]


def submit(state: State, seat: int, action: Action, seats: list[int]) -> list[tuple[int, Action]]:
    """Record ``seat``'s action in a simultaneous stage among ``seats``.

    Returns [] while others still have to act; once the last seat acts, returns every
    (seat, action) in seat order (never arrival order) and clears the stage.
    """
    submitted = state.setdefault("submitted", {})
    submitted[str(seat)] = action
    if waiting(state, seats):
        return []
    state["submitted"] = {}
    return [(s, submitted[str(s)]) for s in sorted(seats)]


# ---- redaction -----------------------------------------------------------------------------


def hidden(cards: list[str]) -> list[str]:
    """A face-down pile as the viewer sees it: only how many."""
    return [HIDDEN] * len(cards)


def redact_event(event: Event, viewer: int | None, over: bool = False) -> Event:
    """Events may name fields in ``"private"`` that only ``event["seat"]`` sees until the
    game is over; everyone else gets "??" there."""
    private = event.get("private")
    if not private or over or (viewer is not None and viewer == event.get("seat")):
        return event
    out = {k: v for k, v in event.items()}
    for field in private:
        value = out.get(field)
        out[field] = hidden(value) if isinstance(value, list) else HIDDEN
    return out


# ---- results -------------------------------------------------------------------------------


def ranking_by(scores: list[int], seats: list[int] | None = None, higher_is_better: bool = True):
    """Group seats by score, best first: [[seats with the best score], ...]."""
    seats = list(range(len(scores))) if seats is None else seats
    order = sorted({scores[s] for s in seats}, reverse=higher_is_better)
    return [[s for s in seats if scores[s] == value] for value in order]
