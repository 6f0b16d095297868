"""Reusable checks of the engine contract (``gameplay/engine/core.py``).

Every check raises AssertionError with a message that names the game, the seat and the
action, so a failure in the parametrised suite (test_conformance.py) says what went wrong
without a debugger. Other tests may import these functions for their own positions.

The checks:
- ``check_views``: every seat's view and the spectator's are JSON (round trip equal), never
  contain the seed, and show no card beyond ``engine.visible_cards(state, seat)``.
- ``check_legal_actions``: only seats in ``to_act`` have actions, each seat in ``to_act`` has
  one, and every listed action applies (on a deep copy).
- ``check_illegal_input``: wrong seats, malformed actions and mutated legal actions raise
  IllegalAction and leave the state unchanged; where the shared checks pass and the move's
  why-not check names a problem, the refusal says exactly that sentence.
- ``check_after_end``: nothing applies once the game is over.
- ``playout`` / ``replay``: a whole game by bots or random legal actions, and its replay.
"""

from __future__ import annotations

import copy
import itertools
import json
import math
import random
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from gameplay.engine import IllegalAction
from gameplay.engine.cards import CARD_RE, HIDDEN, deck
from gameplay.engine.core import Engine, clone

# A game that has not ended after this many actions is reported as never ending.
MAX_ACTIONS = 20_000
# Random play hands over to the bots after this many actions. Uniformly random moves can take
# far longer than a real game to end (random Gin hands almost never reach a knock), while the
# states worth checking come early; the bots then finish the game, so it still ends, replays
# and gets its end-of-game checks. No game that random play ends sooner is affected.
RANDOM_ACTIONS = 5_000
# Every card string any game uses: four suits, Bells, two jokers.
ALL_CARDS = deck(suits="SHDCB", jokers=2)
BOGUS_CARDS = ["ZZ", HIDDEN, "", "1S", "11H", "AX", "JK3", "as"]


# ---- small helpers -----------------------------------------------------------------------


def canon(value: Any) -> str:
    """A strict text form: 1, 1.0 and True differ; key order does not matter."""
    return json.dumps(value, sort_keys=True, allow_nan=False)


def json_round_trip(value: Any, what: str) -> str:
    """Assert ``value`` is plain JSON (str keys, lists not tuples, no NaN); return its text."""
    try:
        text = json.dumps(value, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise AssertionError(f"{what} is not JSON-serialisable: {exc}") from None
    back = json.loads(text)
    assert back == value and canon(back) == canon(value), (
        f"{what} changes in a JSON round trip (tuples, non-str keys or sets?): {value!r}"
    )
    return text


def cards_in(value: Any) -> Counter[str]:
    """Every card string in a JSON-like value (dict keys included)."""
    found: Counter[str] = Counter()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if CARD_RE.match(item):
                found[item] += 1
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return found


def seats_of(state: dict) -> list[int | None]:
    return [None, *range(state["players"])]


def describe(engine: Engine, state: dict) -> str:
    return f"{engine.kind} ({state['players']} players, seed {state['seed']!r}, " + (
        f"after {state['applied']} actions)"
    )


# ---- views, events, results --------------------------------------------------------------


def check_view(engine: Engine, state: dict, seat: int | None) -> dict:
    """One seat's view: JSON, no seed, and no card the seat may not see."""
    where = f"{describe(engine, state)}: view for seat {seat}"
    view = engine.view(state, seat)
    assert isinstance(view, dict), f"{where} is not a dict"
    text = json_round_trip(view, where)
    assert state["seed"] not in text, f"{where} contains the seed"
    allowed = engine.visible_cards(state, seat)
    assert isinstance(allowed, Counter), f"{describe(engine, state)}: visible_cards is no Counter"
    extra = cards_in(view) - allowed
    assert not extra, (
        f"{where} leaks cards it may not show: {dict(extra)} (visible_cards allows {dict(allowed)})"
    )
    return view


def check_views(engine: Engine, state: dict) -> None:
    """Every seat's view and the spectator's; looking must not change the state."""
    before = canon(state)
    for seat in seats_of(state):
        check_view(engine, state, seat)
    engine.result(state)
    engine.to_act(state)
    for seat in range(state["players"]):
        engine.legal_actions(state, seat)
    assert canon(state) == before, f"{describe(engine, state)}: a view or a query changed the state"


def check_state(engine: Engine, state: dict) -> None:
    where = describe(engine, state)
    json_round_trip(state, f"{where}: the state")
    to_act = engine.to_act(state)
    assert isinstance(to_act, list), f"{where}: to_act is not a list"
    assert len(set(to_act)) == len(to_act), f"{where}: to_act repeats a seat: {to_act}"
    for seat in to_act:
        assert type(seat) is int and 0 <= seat < state["players"], (
            f"{where}: to_act holds {seat!r}, not a seat"
        )
    if engine.is_over(state):
        assert to_act == [], f"{where}: the game is over but to_act is {to_act}"
    else:
        assert to_act, f"{where}: the game is not over but nobody is to act"


def check_events(engine: Engine, state: dict, events: Any, seat: int, action: dict) -> None:
    where = f"{describe(engine, state)}: events of seat {seat} {action}"
    assert isinstance(events, list), f"{where} are not a list"
    json_round_trip(events, where)
    for event in events:
        assert isinstance(event, dict) and isinstance(event.get("type"), str), (
            f"{where}: {event!r} has no type"
        )
        if "seat" in event and event["seat"] is not None:
            assert type(event["seat"]) is int and 0 <= event["seat"] < state["players"], (
                f"{where}: {event!r} names no seat"
            )
        private = event.get("private")
        if private is not None:
            assert isinstance(private, list) and all(isinstance(f, str) for f in private), (
                f"{where}: {event!r} 'private' must list field names"
            )


def check_result(engine: Engine, state: dict) -> dict:
    where = f"{describe(engine, state)}: result"
    result = engine.result(state)
    json_round_trip(result, where)
    players = state["players"]
    assert set(result) >= {"scores", "winners", "ranking"}, f"{where} lacks keys: {result}"
    assert len(result["scores"]) == players, f"{where}: one score per seat: {result}"
    winners = result["winners"]
    assert len(set(winners)) == len(winners), f"{where}: winners repeat: {result}"
    assert all(type(s) is int and 0 <= s < players for s in winners), f"{where}: {result}"
    ranked = [s for group in result["ranking"] for s in group]
    assert sorted(ranked) == list(range(players)), (
        f"{where}: ranking must hold every seat exactly once: {result}"
    )
    if winners and result["ranking"]:
        assert set(winners) <= set(result["ranking"][0]), f"{where}: winners not ranked first"
    return result


# ---- legal actions -----------------------------------------------------------------------


def check_legal_actions(engine: Engine, state: dict, apply_each: bool = True) -> None:
    """Seats not in to_act have nothing to do; each seat in to_act has something; every
    listed action is well-formed and applies."""
    where = describe(engine, state)
    to_act = engine.to_act(state)
    for seat in range(state["players"]):
        legal = engine.legal_actions(state, seat)
        json_round_trip(legal, f"{where}: legal_actions({seat})")
        if seat not in to_act:
            assert legal == [], f"{where}: seat {seat} is not to act but has {legal}"
            continue
        assert legal, f"{where}: seat {seat} is to act but has no legal action"
        texts = [canon(a) for a in legal]
        assert len(set(texts)) == len(texts), f"{where}: seat {seat} lists an action twice"
        for action in legal:
            assert isinstance(action, dict) and action.get("type") in engine.moves, (
                f"{where}: seat {seat} lists {action!r}, not one of {list(engine.moves)}"
            )
            assert engine.canonical(action) == action, (
                f"{where}: seat {seat} lists {action!r} with fields its move doesn't declare"
            )
            assert engine.problem(state, seat, action) is None, (
                f"{where}: seat {seat} lists {action!r}, which its why-not check refuses: "
                f"{engine.problem(state, seat, action)}"
            )
            if apply_each:
                work = clone(state)
                try:
                    events = engine.apply(work, seat, clone(action))
                except IllegalAction as exc:
                    raise AssertionError(
                        f"{where}: seat {seat}'s listed action {action} was refused: {exc}"
                    ) from None
                check_events(engine, work, events, seat, action)


def why_not_message(engine: Engine, state: dict, seat: Any, action: Any) -> str | None:
    """The sentence a refusal must give: the move's why-not check, asked about the action as
    the engine reads it, once the shared checks (game on, a seat, a known type) pass."""
    if engine.is_over(state) or type(seat) is not int or not 0 <= seat < state["players"]:
        return None
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        return None
    if action["type"] not in engine.moves:
        return None
    where = f"{describe(engine, state)}: seat {seat}, action {action!r}"
    before = clone(state)
    try:
        message = engine.problem(state, seat, engine.canonical(action))
    except Exception as exc:  # noqa: BLE001 - a why-not check must answer, not crash
        name = type(exc).__name__
        raise AssertionError(f"{where}: the why-not check raised {name}: {exc}") from exc
    assert state == before, f"{where}: the why-not check changed the state"
    assert message is None or (isinstance(message, str) and message.strip()), (
        f"{where}: the why-not check gave {message!r}, not a sentence"
    )
    return message


def expect_illegal(engine: Engine, state: dict, seat: Any, action: Any, why: str) -> None:
    """``apply`` must raise IllegalAction with a message and leave the state unchanged; where
    the move's why-not check names the problem, the message is exactly that sentence."""
    before = clone(state)
    where = f"{describe(engine, state)}: {why}: seat {seat!r}, action {action!r}"
    expected = why_not_message(engine, state, seat, action)
    try:
        engine.apply(state, seat, action)
    except IllegalAction as exc:
        assert isinstance(exc.message, str) and exc.message.strip(), f"{where}: empty message"
        assert expected is None or exc.message == expected, (
            f"{where}: refused with {exc.message!r}, but its why-not check says {expected!r}"
        )
    except Exception as exc:  # noqa: BLE001 - any other exception is the failure
        raise AssertionError(f"{where} raised {type(exc).__name__}: {exc}") from exc
    else:
        raise AssertionError(f"{where} was accepted")
    assert state == before, f"{where}: the refused action changed the state"


def unseen_card(engine: Engine, state: dict, seat: int) -> str | None:
    """A real card string that ``seat`` cannot see now (so it cannot hold or name it)."""
    seen = engine.visible_cards(state, seat)
    return next((c for c in ALL_CARDS if c not in seen), None)


def field_mutations(value: Any, not_held: str | None) -> list[Any]:
    """Wrong types and bogus values for one field of a legal action."""
    if isinstance(value, bool):
        return [None, "true", 1, 0, [value]]
    if isinstance(value, int):
        return [None, str(value), 1.5, True, -1, 10**9, [value], {}]
    if isinstance(value, str):
        out: list[Any] = [None, 7, True, [value], {}, "ZZ", ""]
        if CARD_RE.match(value) or value == HIDDEN:
            out += BOGUS_CARDS[1:] + ([not_held] if not_held else [])
        return out
    if isinstance(value, list):
        out = [None, "AS", {}, 3, [None], ["ZZ"], [HIDDEN]]
        if value:
            out += [value[:-1], [value[0], *value], [*value[:-1], "ZZ"]]
            if not_held and all(isinstance(v, str) and CARD_RE.match(v) for v in value):
                out.append([*value[:-1], not_held])
        return out
    if isinstance(value, dict):
        return [None, [], "x", 3]
    return ["ZZ", 7, [], {}]


def action_mutations(
    engine: Engine, action: dict, not_held: str | None
) -> Iterator[tuple[str, Any]]:
    yield "an action that is not a dict", None
    yield "an action that is not a dict", action["type"]
    yield "an action that is not a dict", [action]
    yield "an action that is not a dict", list(action.items())
    yield 'an action without "type"', {k: v for k, v in action.items() if k != "type"}
    for bad in (None, 5, True, "", "no_such_action", ["x"], action["type"].upper() + "!"):
        yield "an unknown action type", {**action, "type": bad}
    for key, value in action.items():
        if key == "type":
            continue
        yield f"a legal action without {key!r}", {k: v for k, v in action.items() if k != key}
        for bad in field_mutations(value, not_held):
            yield f"a legal action with {key}={bad!r}", {**action, key: bad}


def check_illegal_input(engine: Engine, state: dict, rng: random.Random) -> int:
    """Throw malformed and out-of-turn input at ``state``. Returns how many were tried."""
    players = state["players"]
    to_act = engine.to_act(state)
    tried = 0
    if not to_act:
        return tried
    mover = rng.choice(to_act)
    legal = engine.legal_actions(state, mover)
    listed = {canon(a) for s in to_act for a in engine.legal_actions(state, s)}
    sample = legal if len(legal) <= 3 else rng.sample(legal, 3)

    # Wrong seats: not in to_act, out of range, and not an int at all.
    wrong = [s for s in range(players) if s not in to_act]
    wrong += [-1, players, players + 7, "0", str(mover), True, False, None, 0.0, float(mover)]
    for seat in wrong:
        expect_illegal(engine, state, seat, copy.deepcopy(sample[0]), "a wrong seat")
        tried += 1

    # Bare action types: unless listed as they are, they must be refused.
    for action_type in engine.moves:
        bare = {"type": action_type}
        if canon(bare) not in listed:
            expect_illegal(engine, state, mover, bare, "an action type with no fields")
            tried += 1

    not_held = unseen_card(engine, state, mover)
    own = {canon(a) for a in legal}
    for action in sample:
        for why, bad in action_mutations(engine, action, not_held):
            if isinstance(bad, dict) and canon(bad) in own:
                continue  # the mutation happens to be another legal action
            expect_illegal(engine, state, mover, bad, why)
            tried += 1
    return tried


def check_after_end(engine: Engine, state: dict) -> None:
    """A finished game refuses everything and lists nothing."""
    where = describe(engine, state)
    assert engine.is_over(state), f"{where}: not over"
    assert engine.to_act(state) == [], f"{where}: to_act after the end"
    for seat in range(state["players"]):
        assert engine.legal_actions(state, seat) == [], f"{where}: seat {seat} still has actions"
        for action_type in engine.moves:
            expect_illegal(engine, state, seat, {"type": action_type}, "an action after the end")
        facts = engine.facts(state, seat)
        json_round_trip(facts, f"{where}: facts of seat {seat}")
        assert all(isinstance(k, str) and type(v) is int for k, v in facts.items()), (
            f"{where}: facts of seat {seat} must be name -> whole number: {facts}"
        )
    check_result(engine, state)


# ---- whole games ---------------------------------------------------------------------------


@dataclass
class Game:
    """A played game: how it was started, its log and what each step gave."""

    kind: str
    players: int
    seed: str
    rules: dict
    policy: str
    log: list[tuple[int, dict]] = field(default_factory=list)
    events: list[list[dict]] = field(default_factory=list)
    states: list[str] = field(default_factory=list)  # canon(state) after each step
    state: dict = field(default_factory=dict)


Check = Callable[[Engine, dict, int], None]


def playout(
    engine: Engine,
    players: int,
    seed: str,
    rules: dict | None = None,
    policy: str = "bot",
    check: Check | None = None,
    record_states: bool = False,
    max_actions: int = MAX_ACTIONS,
    random_actions: int = RANDOM_ACTIONS,
) -> Game:
    """Play one game to its end: ``policy`` "bot" (bot_action for every seat in to_act) or
    "random" (a random seat in to_act plays a random legal action, for the first
    ``random_actions`` actions; then the bots finish the game). ``check(engine, state,
    step)`` runs before every action and at the end (step = number of actions applied)."""
    state = engine.new_game(players, seed, rules)
    game = Game(engine.kind, players, seed, copy.deepcopy(state["rules"]), policy, state=state)
    rng = random.Random(f"conformance/{seed}/{policy}")
    while True:
        if check:
            check(engine, state, len(game.log))
        if engine.is_over(state):
            return game
        to_act = engine.to_act(state)
        assert to_act, f"{describe(engine, state)}: not over but nobody is to act"
        assert len(game.log) < max_actions, (
            f"{describe(engine, state)}: the game did not end within {max_actions} actions "
            f"({policy} play); last actions: {game.log[-5:]}"
        )
        if policy == "bot" or len(game.log) >= random_actions:
            for seat in to_act:
                if engine.is_over(state) or seat not in engine.to_act(state):
                    continue
                action = engine.bot_action(state, seat)
                _step(engine, state, game, seat, action, record_states)
        else:
            seat = rng.choice(to_act)
            action = rng.choice(engine.legal_actions(state, seat))
            _step(engine, state, game, seat, action, record_states)


def _step(engine, state, game, seat, action, record_states) -> None:
    logged = clone(action)
    try:
        events = engine.apply(state, seat, action)
    except IllegalAction as exc:
        raise AssertionError(
            f"{describe(engine, state)}: the {game.policy} action {logged} of seat {seat} "
            f"was refused: {exc}"
        ) from None
    game.log.append((seat, logged))
    game.events.append(clone(events))
    if record_states:
        game.states.append(canon(state))


def replay(engine: Engine, game: Game, check_views_every: int = 25) -> None:
    """Replay a recorded game with new_game + apply: identical events, states and views."""
    state = engine.new_game(game.players, game.seed, game.rules)
    original = engine.new_game(game.players, game.seed, game.rules)
    assert canon(state) == canon(original), f"{engine.kind}: new_game is not deterministic"
    for i, (seat, action) in enumerate(game.log):
        events = engine.apply(state, seat, copy.deepcopy(action))
        where = f"{describe(engine, state)}: replay step {i} (seat {seat}, {action})"
        assert canon(events) == canon(game.events[i]), f"{where}: events differ"
        if game.states:
            assert canon(state) == game.states[i], f"{where}: state differs"
    assert canon(state) == canon(game.state), f"{engine.kind}: replayed final state differs"
    for seat in seats_of(state):
        assert canon(engine.view(state, seat)) == canon(engine.view(game.state, seat)), (
            f"{engine.kind}: replayed final view for seat {seat} differs"
        )
    assert canon(engine.result(state)) == canon(engine.result(game.state))


# ---- game set-ups to cover ---------------------------------------------------------------


def rule_combinations(engine: Engine, players: int | None = None) -> list[dict]:
    """Every combination of the options when there are few; otherwise the defaults and each
    option's each value on its own. Combinations the game refuses (validate_rules) are left
    out: test_conformance checks that refusals are IllegalAction."""
    names = [option.name for option in engine.options]
    values = [option.values for option in engine.options]
    if math.prod(len(v) for v in values) <= 16:
        combos = [dict(zip(names, c, strict=True)) for c in itertools.product(*values)]
    else:
        combos = [{}] + [{o.name: v} for o in engine.options for v in o.values[1:]]
    out = []
    for combo in combos:
        try:
            engine.check_rules(combo, players)
        except IllegalAction:
            continue
        out.append(combo)
    return out


def setups(
    engine: Engine, games: int, tag: str, cover: bool = False
) -> list[tuple[int, str, dict]]:
    """``games`` (players, seed, rules): player counts spread from min to max, rule
    combinations in turn, distinctive seeds (so a seed in a view is easy to spot).

    ``cover``: add games until every player count is played, and at each count every value
    of every option that count allows (partnerships at 4 and 6 seats, say)."""
    counts = list(range(engine.min_players, engine.max_players + 1))
    combos = {n: rule_combinations(engine, n) for n in counts}
    picks = []
    for i in range(games):
        players = counts[i % len(counts)]
        picks.append((players, combos[players][(i // len(counts)) % len(combos[players])]))
    if cover:
        defaults = engine.default_rules()

        def values(players: int, combo: dict) -> set:
            return {(players, name, repr(v)) for name, v in {**defaults, **combo}.items()}

        needed = set().union(*(values(n, c) | {(n,)} for n in counts for c in combos[n]))
        for players, combo in picks:
            needed -= values(players, combo) | {(players,)}
        for players in counts:
            while needed & (
                {(players,)} | set().union(*(values(players, c) for c in combos[players]))
            ):
                best = max(combos[players], key=lambda c: len(needed & values(players, c)))
                picks.append((players, best))
                needed -= values(players, best) | {(players,)}
    return [
        (players, f"cnf-{engine.kind}-{tag}-{i}-Zq7x", rules)
        for i, (players, rules) in enumerate(picks)
    ]


class Sampler:
    """Which positions get the expensive checks: the first few, then a seeded sample."""

    def __init__(self, seed: str, first: int = 12, rate: float = 0.04):
        self.rng = random.Random(f"conformance-sample/{seed}")
        self.first = first
        self.rate = rate

    def __call__(self, step: int) -> bool:
        return step < self.first or self.rng.random() < self.rate
