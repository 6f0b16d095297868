"""The engine contract's shared machinery: validation order, atomic apply, bots, redaction.

A game subclasses ``Engine``, says who it is (title, players, options, records) and writes
only its rules: ``setup``, one ``@move`` method per action type with its ``@why_not`` check,
``to_act``, ``legal_actions``, ``view``, ``visible_cards``, ``is_over``, ``result`` and
``bot``. The checks every game shares (game over? which seat? is it a well-formed action?
your turn?) run here once, in the same order for every game, so each move starts from an
action that is well-formed, in turn and stripped to the fields it declares.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .cards import HIDDEN, bot_rng
from .text import say, say_n

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]

# How well a computer player plays, weakest first. A game that seats computers with choices to
# make lists the ones it plays in ``Engine.strengths``; any other asks for MEDIUM.
STRENGTHS = ("easy", "medium", "hard", "expert")
MEDIUM = "medium"


class IllegalAction(Exception):
    """An action the rules don't allow. The message is a sentence for the player."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def require(condition: object, message: str) -> None:
    """Raise IllegalAction(message) unless condition holds."""
    if not condition:
        raise IllegalAction(message)


@dataclass(frozen=True)
class Option:
    """One rule option a table can set. ``values[0]`` is the default.

    ``labels`` name the values for the options form (same order); ``shown_when`` hides the
    option unless other options have these values (e.g. {"mode": "custom"})."""

    name: str
    values: tuple[Any, ...]
    label: str
    help: str = ""
    labels: tuple[str, ...] = ()
    shown_when: dict[str, Any] = field(default_factory=dict)

    @property
    def default(self) -> Any:
        return self.values[0]

    def value_label(self, value: Any) -> str:
        if self.labels:
            return self.labels[self.values.index(value)]
        if isinstance(value, bool):
            return say("On") if value else say("Off")
        return str(value)


@dataclass(frozen=True)
class Record:
    """A per-game record a profile shows, built from each finished game's ``facts``:
    ``best`` is "max" (biggest pot), "min" (fewest moves) or "sum" (gins made)."""

    fact: str
    label: str
    best: str = "max"


@dataclass(frozen=True)
class Milestone:
    """A badge of the game's own, which the site pays once per player: what it counts over the
    player's finished games of this game ("wins", a fact of ``facts`` added up ("fact_total")
    or at its best in one game ("fact_best"), or wins in under ``seconds`` ("fast_wins")), the
    goal to reach, its reward in Kudos, and its art (a card's creature, a bronze, silver or gold
    ring, the word on its ribbon)."""

    slug: str
    name: str
    about: str  # what earns it, as a profile says it
    reward: int
    counts: str
    goal: int
    card: str
    ring: str
    mark: str
    fact: str = ""
    seconds: int = 0


@dataclass(frozen=True)
class Daily:
    """The game's Daily Challenge (one deal a day for everyone): the rules it is played with,
    and what the page says of the deal. ``Engine.daily_seed`` picks the deal."""

    rules: dict[str, Any]
    note: str = ""


@dataclass(frozen=True)
class RealGame:
    """What a real game of this game is, for everything that rewards play (gameplay.play):
    at least ``decisions`` of the person's own choices (a resign is none), or, for a game with
    no choices (War), the game's natural end reached at the table; and at least ``seconds`` of
    credited play either way. ``pace`` is a person's usual seconds per decision, what the
    rules pages and the farming bench take a game to last."""

    decisions: int
    pace: float = 6.0
    natural_end: bool = False
    seconds: int = 0

    @property
    def what(self) -> str:
        """What a real game takes, as the rules pages say it."""
        if self.natural_end:
            return say("played to its end with you at the table")
        return say_n("{n} of your own decisions", "{n} of your own decisions", self.decisions)

    @property
    def least_seconds(self) -> int:
        # Two seconds a decision: a person who reads the table can't play a real game faster.
        return self.seconds or 2 * self.decisions


@dataclass(frozen=True)
class Move:
    """An action type: the method that applies it, the fields it reads, its why-not check."""

    type: str
    handler: str
    fields: tuple[str, ...]
    problem: str | None = None


def move(action_type: str, *fields: str):
    """Mark an Engine method as the one that applies ``action_type``.

    ``fields`` are the action's keys besides "type"; anything else a client sends is dropped
    before the method sees it, so the logged action is exactly what the engine understood.
    The method gets ``(state, seat, action)`` after the shared checks and the move's why-not
    check passed, mutates ``state`` (the caller works on a copy) and returns the events."""

    def mark(method):
        method._moves = (*getattr(method, "_moves", ()), (action_type, fields))
        return method

    return mark


def why_not(action_type: str):
    """Mark an Engine method as ``action_type``'s why-not check: ``(state, seat, action) ->
    str | None``, the sentence saying why that seat may not do this now, or None when it may.
    ``legal_actions`` and ``apply`` both ask it, so they can never disagree. Both decorators
    stack: one method may apply, or check, several action types (it reads action["type"])."""

    def mark(method):
        method._why_not = (*getattr(method, "_why_not", ()), action_type)
        return method

    return mark


class Engine:
    """One game. Subclasses declare who the game is (the class attributes) and write its
    rules; the contract methods below that are not overridden are the shared machinery."""

    # ---- who the game is: the lobby, rules pages, home page and profiles read these ---------
    kind: str = ""
    title: str = ""
    blurb: str = ""  # one sentence for the home page
    showcase: tuple[str, str] = ("AS", "KH")  # two cards that show the game on its tile
    min_players: int = 1
    max_players: int = 1
    rated: bool = False  # ranked tables and ratings
    version: int = 1
    options: tuple[Option, ...] = ()
    # The rule options of the game's quick length, where the default is a longer game: the
    # home page offers it first ("Quick", beside "Classic", the default).
    quick: dict[str, Any] | None = None
    strengths: tuple[str, ...] = (MEDIUM,)  # the computer player's levels (STRENGTHS)
    # Where each strength starts on the ratings' scale (shown points of its estimate), from the
    # ladder's results; empty: the platform's defaults (accounts.computers).
    ladder: dict[str, int] = {}
    records: tuple[Record, ...] = ()
    first_win_card: str = ""  # the creature on the game's "First win" badge
    milestones: tuple[Milestone, ...] = ()  # the game's own badges
    daily: Daily | None = None  # a Daily Challenge of this game, if it has one
    real_game: RealGame = RealGame(decisions=4)  # what counts as play (gameplay.play)
    rules_file: str = "rules.md"  # the game's written rules, beside its engine module

    moves: dict[str, Move] = {}  # action type -> Move, collected from @move / @why_not

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        found: dict[str, tuple[str, tuple[str, ...]]] = {}
        checks: dict[str, str] = {}
        for klass in reversed(cls.__mro__):
            for name, value in vars(klass).items():
                for action_type, fields in getattr(value, "_moves", ()):
                    found[action_type] = (name, fields)
                for action_type in getattr(value, "_why_not", ()):
                    checks[action_type] = name
        cls.moves = {
            t: Move(t, handler, fields, checks.get(t)) for t, (handler, fields) in found.items()
        }

    @property
    def solo(self) -> bool:
        return self.max_players == 1

    def players_text(self) -> str:
        """ "1 player", "2 players", "2–4 players"."""
        if self.min_players == self.max_players:
            return say_n("{n} player", "{n} players", self.min_players)
        return say("{low}–{high} players", low=self.min_players, high=self.max_players)

    # ---- the contract -------------------------------------------------------------------

    def default_rules(self) -> dict[str, Any]:
        return {option.name: option.default for option in self.options}

    def new_game(self, players: int, seed: str, rules: dict[str, Any] | None = None) -> State:
        require(
            isinstance(players, int) and not isinstance(players, bool),
            say("The number of players must be a whole number."),
        )
        require(
            self.min_players <= players <= self.max_players,
            say("{game} is for {players}.", game=self.title, players=self.players_text()),
        )
        require(isinstance(seed, str) and seed, say("A game needs a seed."))
        rules = self.check_rules(rules, players)
        state = self.setup(players, seed, rules)
        state.update(kind=self.kind, players=players, seed=seed, rules=rules, applied=0)
        return state

    def apply(self, state: State, seat: int, action: Action) -> list[Event]:
        """Validate and apply one action. On IllegalAction the state is left unchanged."""
        self.check_turn(state, seat, action)
        action = self.canonical(action)
        work = clone(state)
        events = self.play(work, seat, action)
        work["applied"] += 1
        state.clear()
        state.update(work)
        return events

    def bot_action(self, state: State, seat: int, strength: str = MEDIUM) -> Action:
        """A legal action for a computer player of that strength (one of ``strengths``; any
        other plays as MEDIUM), chosen from what that seat may see."""
        legal = self.legal_actions(state, seat)
        require(legal, say("This seat has nothing to do right now."))
        rng = bot_rng(state["seed"], seat, state["applied"])
        if strength not in self.strengths:
            strength = MEDIUM
        return self.bot(self.view(state, seat), legal, rng, strength)

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

    def visible_cards(self, state: State, seat: int | None) -> Counter[str]:
        """The multiset of cards ``seat`` may see now, computed from the state's zones
        (never from ``view``). The conformance suite checks every view against it."""
        raise NotImplementedError

    def validate_rules(self, rules: dict[str, Any], players: int) -> None:
        """Refuse option combinations that don't make a game (IllegalAction with the reason).
        Runs after every option was checked on its own."""

    def choose_seed(self, seed: str, rules: dict[str, Any]) -> str:
        """The seed to deal from. A game may pick one derived from ``seed`` (Klondike's
        "winnable deals only" picks the first the solver proves winnable). The platform
        stores the chosen seed, so replays never run this again."""
        return seed

    def daily_seed(self, base: str) -> str | None:
        """The Daily Challenge's deal from a random ``base`` seed (None: none found, try another
        base). Klondike's is one its solver proves winnable."""
        return base

    def hint(self, state: State, seat: int) -> dict[str, Any] | None:
        """Optional advice for a seat: {"action": {...} or None, "message": "..."}. It must
        reveal nothing that seat may not see. None: this game gives no hints."""
        return None

    def pause(self, state: State) -> float:
        """How long the table lets this moment be seen before a computer player moves, in
        units of the table's computer pace (0: no more than usual). Poker leaves a showdown
        on the table before the next hand's first move."""
        return 0.0

    def facts(self, state: State, seat: int) -> dict[str, int]:
        """What a finished game says about one seat, for profile records (``records``) and
        badges: name -> whole number ({"biggest_pot": 340, "gins": 1}). Names are the game's
        own words; only what that seat could see at the end."""
        return {}

    def teams(self, rules: dict[str, Any], players: int) -> list[list[int]]:
        """The sides of a game with these rules: partners who win or lose together share one
        (ratings rate them as a team; ``result``'s ranking puts them in one group). By
        default every seat plays for itself."""
        return [[seat] for seat in range(players)]

    def bot(
        self, view: dict[str, Any], legal: list[Action], rng: random.Random, strength: str = MEDIUM
    ) -> Action:
        """The computer player at ``strength``. It sees only the seat's view and legal actions."""
        return rng.choice(legal)

    def warm_up(self) -> None:
        """Build what the computer player keeps for the life of a process (tables of hands),
        so that no move pays for it. Nothing by default."""

    # ---- shared machinery -----------------------------------------------------------------

    def play(self, state: State, seat: int, action: Action) -> list[Event]:
        """Run the move's why-not check, then the method that applies it."""
        problem = self.problem(state, seat, action)
        if problem:
            raise IllegalAction(problem)
        return getattr(self, self.moves[action["type"]].handler)(state, seat, action)

    def allowed(self, state: State, seat: int, candidates: list[Action]) -> list[Action]:
        """The candidates whose why-not check says None: how ``legal_actions`` is built, so
        the list and ``apply`` can never disagree."""
        return [a for a in candidates if self.problem(state, seat, a) is None]

    def problem(self, state: State, seat: int, action: Action) -> str | None:
        """Why ``seat`` may not take ``action`` now, or None: the move's why-not check."""
        found = self.moves.get(action["type"])
        return (
            getattr(self, found.problem)(state, seat, action) if found and found.problem else None
        )

    def canonical(self, action: Any) -> Any:
        """The action as the engine reads it: its type and declared fields, nothing else.
        Anything that isn't an action of this game is returned as it is (and refused)."""
        if not isinstance(action, dict) or action.get("type") not in self.moves:
            return action
        fields = self.moves[action["type"]].fields
        return {"type": action["type"], **{f: action[f] for f in fields if f in action}}

    def check_rules(self, rules: dict[str, Any] | None, players: int | None = None) -> dict:
        """The defaults with ``rules`` merged in, each option checked, then the game's own
        ``validate_rules``. IllegalAction says what is wrong."""
        merged = self.default_rules()
        if rules is not None:
            require(
                isinstance(rules, dict), say("Rule options must be given as name: value pairs.")
            )
            by_name = {option.name: option for option in self.options}
            for name, value in rules.items():
                option = by_name.get(name)
                require(
                    option is not None,
                    say(
                        "{game} has no rule option '{name}'.", game=self.title, name=str(name)[:40]
                    ),
                )
                require(
                    any(value == v and type(value) is type(v) for v in option.values),
                    say(
                        "{option} must be one of: {values}.",
                        option=option.label,
                        values=_listed([option.value_label(v) for v in option.values]),
                    ),
                )
                merged[name] = value
        self.validate_rules(merged, self.min_players if players is None else players)
        return merged

    def check_turn(self, state: State, seat: int, action: Action) -> None:
        """The checks every game shares, in this order. A seat that is not awaited is told
        why by the move's own check where it has one."""
        require(not self.is_over(state), say("The game is over."))
        require(
            isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < state["players"],
            say("There is no such seat at this table."),
        )
        require(
            isinstance(action, dict) and isinstance(action.get("type"), str),
            say('An action must be an object with a "type".'),
        )
        require(
            action["type"] in self.moves,
            say("{game} has no action '{name}'.", game=self.title, name=str(action["type"])[:40]),
        )
        if seat not in self.to_act(state):
            raise IllegalAction(
                self.problem(state, seat, self.canonical(action)) or say("It is not your turn.")
            )


def _listed(items: list[str]) -> str:
    """Items joined with commas, each said in the reader's language."""
    if not items:
        return ""
    out = items[0]
    for item in items[1:]:
        out = say("{list}, {item}", list=out, item=item)
    return out


_ATOMS = frozenset({str, int, float, bool, type(None)})


def clone(value: Any) -> Any:
    """A deep copy, fast for JSON data (dicts and lists); anything else via copy.deepcopy.
    Strings and numbers are shared, not visited one call each: a state is mostly cards."""
    kind = type(value)
    if kind is dict:
        return {k: v if type(v) in _ATOMS else clone(v) for k, v in value.items()}
    if kind is list:
        return [v if type(v) in _ATOMS else clone(v) for v in value]
    if kind in _ATOMS:
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
    for name in private:
        value = out.get(name)
        out[name] = hidden(value) if isinstance(value, list) else HIDDEN
    return out


# ---- results -------------------------------------------------------------------------------


def ranking_by(scores: list[int], seats: list[int] | None = None, higher_is_better: bool = True):
    """Group seats by score, best first: [[seats with the best score], ...]."""
    seats = list(range(len(scores))) if seats is None else seats
    order = sorted({scores[s] for s in seats}, reverse=higher_is_better)
    return [[s for s in seats if scores[s] == value] for value in order]
