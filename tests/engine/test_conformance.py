"""The engine contract, checked the same way for every registered game.

Each kind plays seeded games by its bots and by random legal actions, with player counts
spread from min_players to max_players and rule combinations in turn. At sampled positions
it checks views (JSON, no seed, no leaked card), states, events, legal actions (each one
applies) and illegal input (refused, state unchanged). Every game must end (random play hands
over to the bots after conformance.RANDOM_ACTIONS actions); a replay of its log gives
identical events, states and views. The check functions live in conformance.py.
"""

from __future__ import annotations

import ast
import copy
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from gameplay.engine import IllegalAction, registry
from gameplay.engine.cards import is_card
from gameplay.engine.core import Engine, redact_event

from . import conformance as cf

ROOT = Path(__file__).resolve().parents[2]
ENGINE_DIR = ROOT / "gameplay" / "engine"
KINDS = registry.kinds()

# Games per kind and test, while each kind stays within a few seconds. The bot and random
# playouts add games until every player count is played with every option value it allows.
BOT_GAMES = 4
RANDOM_GAMES = 4
ILLEGAL_GAMES = 2
REPLAY_GAMES = 1


@pytest.fixture(params=KINDS)
def engine(request) -> Engine:
    return registry.get(request.param)


def full_checks(sampler: cf.Sampler, legal: bool = True):
    def check(engine: Engine, state: dict, step: int) -> None:
        over = engine.is_over(state)
        if not (over or sampler(step)):
            return
        cf.check_state(engine, state)
        cf.check_views(engine, state)
        cf.check_result(engine, state)
        if legal and not over:
            cf.check_legal_actions(engine, state)

    return check


# ---- the engine object and its rules ------------------------------------------------------


def test_engine_attributes(engine):
    assert isinstance(engine.kind, str) and engine.kind and registry.get(engine.kind) is engine
    assert isinstance(engine.title, str) and engine.title
    assert 1 <= engine.min_players <= engine.max_players
    assert engine.moves and all(isinstance(t, str) for t in engine.moves)
    for action_type, found in engine.moves.items():
        assert callable(getattr(engine, found.handler)), f"{engine.kind}: {action_type}"
        assert found.problem is None or callable(getattr(engine, found.problem))
        assert "type" not in found.fields, f"{engine.kind}: {action_type} declares 'type'"
    with pytest.raises(KeyError):
        registry.get(engine.kind + "-nope")


def test_who_the_game_is(engine):
    """What the home page, the rules pages, the options forms and the profiles read."""
    assert isinstance(engine.blurb, str) and engine.blurb.endswith("."), engine.kind
    assert len(engine.showcase) == 2 and all(is_card(c) for c in engine.showcase)
    assert isinstance(engine.rated, bool) and isinstance(engine.version, int)
    names = [o.name for o in engine.options]
    assert len(set(names)) == len(names), f"{engine.kind}: an option is declared twice"
    for option in engine.options:
        assert option.label and option.values, f"{engine.kind}: {option.name}"
        assert not option.labels or len(option.labels) == len(option.values), option.name
        labels = [option.value_label(v) for v in option.values]
        assert len(set(labels)) == len(labels), f"{engine.kind}: {option.name} labels repeat"
        for other, value in option.shown_when.items():
            assert other in names and other != option.name, f"{option.name}: {other}?"
            by_name = {o.name: o for o in engine.options}
            assert value in by_name[other].values, f"{option.name}: {other}={value!r}?"
    for record in engine.records:
        assert record.best in ("max", "min", "sum") and record.label, record


def test_default_rules_are_json(engine):
    rules = engine.default_rules()
    assert isinstance(rules, dict)
    cf.json_round_trip(rules, f"{engine.kind}: default_rules()")
    cf.json_round_trip(
        [[o.name, list(o.values)] for o in engine.options], f"{engine.kind}: options"
    )


def test_every_rule_combination_starts_a_game(engine):
    for players in sorted({engine.min_players, engine.max_players}):
        for rules in cf.rule_combinations(engine, players):
            state = engine.new_game(players, f"rules-{engine.kind}-{players}", rules)
            assert state["rules"] == {**engine.default_rules(), **rules}
            cf.check_state(engine, state)
            cf.check_views(engine, state)
            cf.check_legal_actions(engine, state)


@pytest.mark.parametrize("bad", ["low", "high", "str", "bool", "none"])
def test_new_game_refuses_bad_player_counts(engine, bad):
    players = {
        "low": engine.min_players - 1,
        "high": engine.max_players + 1,
        "str": str(engine.min_players),
        "bool": True,
        "none": None,
    }[bad]
    if bad == "bool" and engine.min_players == 1:
        players = False  # True == 1 would be a valid count if it were accepted as an int
    with pytest.raises(IllegalAction):
        engine.new_game(players, "bad-players")


def test_new_game_refuses_unknown_rules(engine):
    with pytest.raises(IllegalAction):
        engine.new_game(engine.min_players, "bad-rules", {"no_such_rule_zz": 1})
    with pytest.raises(IllegalAction):
        engine.new_game(engine.min_players, "bad-rules", ["not", "a", "dict"])


# ---- playouts ------------------------------------------------------------------------------


def test_bot_playouts(engine):
    for players, seed, rules in cf.setups(engine, BOT_GAMES, "bot", cover=True):
        check = full_checks(cf.Sampler(seed))
        game = cf.playout(engine, players, seed, rules, "bot", check=check)
        cf.check_after_end(engine, game.state)


def test_random_playouts(engine):
    for players, seed, rules in cf.setups(engine, RANDOM_GAMES, "random", cover=True):
        check = full_checks(cf.Sampler(seed))
        game = cf.playout(engine, players, seed, rules, "random", check=check)
        cf.check_after_end(engine, game.state)


def test_illegal_input_is_refused_and_changes_nothing(engine):
    tried = 0
    for players, seed, rules in cf.setups(engine, ILLEGAL_GAMES, "illegal"):
        sampler = cf.Sampler(seed, first=6, rate=0.02)
        rng = random.Random(seed)

        def check(engine, state, step, sampler=sampler, rng=rng):
            nonlocal tried
            if not engine.is_over(state) and sampler(step):
                tried += cf.check_illegal_input(engine, state, rng)

        game = cf.playout(engine, players, seed, rules, "random", check=check)
        cf.check_after_end(engine, game.state)
    assert tried > 0


def test_replay_gives_identical_events_states_and_views(engine):
    """A bot game and a random game replay identically; every event of them is JSON, also
    as redacted for each seat and the spectator."""
    for policy in ("bot", "random"):
        for players, seed, rules in cf.setups(engine, REPLAY_GAMES, f"replay-{policy}"):
            game = cf.playout(engine, players, seed, rules, policy, record_states=True)
            cf.replay(engine, game)
            for (seat, action), events in zip(game.log, game.events, strict=True):
                cf.check_events(engine, game.state, events, seat, action)
                for event in events:
                    for viewer in cf.seats_of(game.state):
                        cf.json_round_trip(redact_event(event, viewer), f"{engine.kind}: {event}")


# ---- the checks themselves catch what they should ------------------------------------------


def war_in_a_war():
    """A 4-player War game stopped in a war: face-down cards in the pot, 2 set aside."""
    eng = registry.get("war")
    state = eng.new_game(4, "leak-proof")
    state["piles"] = [
        ["9H", "2D", "JS", "3S", "8S", "AS"],
        ["9S", "3H", "JD", "4S", "8D", "AD"],
        ["5C", "6C"],
        ["4C", "7C"],
    ]
    state["set_aside"] = ["JK1", "JK2"]
    for seat in range(4):
        eng.apply(state, seat, {"type": "flip"})
    for seat in (0, 1):
        eng.apply(state, seat, {"type": "flip"})
    assert eng.to_act(state) == [0, 1] and state["stage"] == 2
    assert state["pot"][4] == {"seat": 0, "card": "2D", "up": False, "stage": 1}
    return eng, state


def test_leak_check_passes_on_the_honest_view():
    eng, state = war_in_a_war()
    cf.check_views(eng, state)


@pytest.mark.parametrize(
    "peek",
    [
        lambda s: s["piles"][1][0],  # the top of another seat's pile
        lambda s: s["piles"][0][-1],  # the bottom of one's own face-down pile
        lambda s: s["pot"][4]["card"],  # a face-down war card in the pot
        lambda s: s["set_aside"][0],  # a card set aside face down
        lambda s: s["pot"][0]["card"],  # a second copy of a face-up card
    ],
    ids=["other-pile", "own-pile", "face-down-pot", "set-aside", "extra-copy"],
)
def test_leak_check_catches_a_broken_view(monkeypatch, peek):
    eng, state = war_in_a_war()
    honest = type(eng).view

    def broken(self, state, seat):
        view = honest(self, state, seat)
        view["debug"] = {"note": [peek(state)]}
        return view

    monkeypatch.setattr(type(eng), "view", broken)
    with pytest.raises(AssertionError, match="leaks cards"):
        cf.check_view(eng, state, 0)


def test_leak_check_fails_a_whole_playout_with_a_peeking_view(monkeypatch):
    eng = registry.get("war")
    honest = type(eng).view

    def peeking(self, state, seat):
        view = honest(self, state, seat)
        other = (0 if seat is None else seat + 1) % len(state["piles"])
        view["next_card"] = state["piles"][other][:1]
        return view

    monkeypatch.setattr(type(eng), "view", peeking)
    check = full_checks(cf.Sampler("peek", first=10_000), legal=False)
    with pytest.raises(AssertionError, match="leaks cards"):
        cf.playout(eng, 4, "leak-playout", None, "bot", check=check)


def test_seed_check_catches_a_view_with_the_seed(monkeypatch):
    eng, state = war_in_a_war()
    honest = type(eng).view
    monkeypatch.setattr(
        type(eng), "view", lambda self, s, seat: {**honest(self, s, seat), "s": s["seed"]}
    )
    with pytest.raises(AssertionError, match="contains the seed"):
        cf.check_view(eng, state, None)


def test_json_check_catches_tuples_and_int_keys():
    with pytest.raises(AssertionError):
        cf.json_round_trip({"pile": ("AS", "KD")}, "tuple")
    with pytest.raises(AssertionError):
        cf.json_round_trip({1: "AS"}, "int key")
    with pytest.raises(AssertionError):
        cf.json_round_trip({"x": {1, 2}}, "set")


def test_illegal_check_catches_an_engine_that_accepts_anything(monkeypatch):
    eng, state = war_in_a_war()
    monkeypatch.setattr(type(eng), "check_turn", lambda self, state, seat, action: None)
    monkeypatch.setattr(type(eng), "play", lambda self, state, seat, action: [])
    with pytest.raises(AssertionError, match="was accepted"):
        cf.check_illegal_input(eng, state, random.Random(1))


def test_illegal_check_catches_a_refusal_that_is_not_its_why_not(monkeypatch):
    eng, state = war_in_a_war()  # seats 2 and 3 wait for the war between 0 and 1

    def vague(self, state, seat, action):
        raise IllegalAction("No.")

    monkeypatch.setattr(type(eng), "check_turn", vague)
    with pytest.raises(AssertionError, match="why-not check says 'You are not in this war"):
        cf.expect_illegal(eng, state, 2, {"type": "flip"}, "a seat outside the war")


def test_illegal_check_catches_a_crash(monkeypatch):
    eng, state = war_in_a_war()

    def crashing(self, state, seat, action):
        return action["card"]["oops"]  # KeyError without a card, TypeError with a str one

    def listing(self, state, seat):
        return [{"type": "flip", "card": "JS"}] if seat in self.to_act(state) else []

    monkeypatch.setattr(type(eng), "play", crashing)
    monkeypatch.setattr(type(eng), "legal_actions", listing)
    with pytest.raises(AssertionError, match="raised (KeyError|TypeError)"):
        cf.check_illegal_input(eng, state, random.Random(1))


def test_random_play_hands_over_to_the_bots():
    eng = registry.get("gin")
    game = cf.playout(eng, 2, "handover", None, "random", random_actions=6)
    assert eng.is_over(game.state) and len(game.log) > 6
    state = eng.new_game(2, "handover")
    for i, (seat, action) in enumerate(game.log):
        if i >= 6:
            assert action == eng.bot_action(state, seat), f"action {i} is not the bot's"
        eng.apply(state, seat, copy.deepcopy(action))


def test_playout_reports_a_game_that_never_ends(monkeypatch):
    eng = registry.get("war")
    monkeypatch.setattr(type(eng), "is_over", lambda self, state: False)
    monkeypatch.setattr(type(eng), "to_act", lambda self, state: [0])
    monkeypatch.setattr(type(eng), "play", lambda self, state, seat, action: [])
    monkeypatch.setattr(type(eng), "legal_actions", lambda self, state, seat: [{"type": "flip"}])
    with pytest.raises(AssertionError, match="did not end within 50 actions"):
        cf.playout(eng, 2, "forever", None, "random", max_actions=50)


# ---- no Django under gameplay/engine --------------------------------------------------------


def engine_modules() -> list[Path]:
    return sorted(ENGINE_DIR.rglob("*.py"))


def test_no_engine_module_imports_django_in_its_source():
    offenders = []
    for path in engine_modules():
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") in (
                "import_module",
                "__import__",
            ):
                names = [a.value for a in node.args if isinstance(a, ast.Constant)]
            offenders += [
                f"{path.relative_to(ROOT)}:{node.lineno} {n}"
                for n in names
                if isinstance(n, str) and n.split(".")[0] == "django"
            ]
    assert not offenders, f"gameplay/engine must not import Django: {offenders}"


BLOCK_DJANGO = """
import importlib, json, pkgutil, sys

class BlockDjango:
    def find_spec(self, name, path=None, target=None):
        if name == "django" or name.startswith("django."):
            raise ImportError("Django is blocked for the engine: " + name)
        return None

sys.meta_path.insert(0, BlockDjango())
import gameplay.engine as pkg
names = [m.name for m in pkgutil.walk_packages(pkg.__path__, "gameplay.engine.")]
for name in names:
    importlib.import_module(name)
from gameplay.engine import registry
for kind in registry.kinds():
    eng = registry.get(kind)
    state = eng.new_game(eng.min_players, "no-django")
    eng.view(state, None)
    seat = eng.to_act(state)[0]
    eng.apply(state, seat, eng.bot_action(state, seat))
print(json.dumps({"modules": names, "kinds": registry.kinds(),
                  "django": any(m.split(".")[0] == "django" for m in sys.modules)}))
"""


def test_engine_imports_and_plays_with_django_blocked():
    done = subprocess.run(
        [sys.executable, "-c", BLOCK_DJANGO],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["kinds"] == KINDS
    assert "gameplay.engine.core" in report["modules"]
    assert report["django"] is False


def test_the_sampler_is_deterministic():
    a = cf.Sampler("s")
    b = cf.Sampler("s")
    assert [a(i) for i in range(500)] == [b(i) for i in range(500)]


def test_state_is_not_shared_between_new_games(engine):
    a = engine.new_game(engine.min_players, "shared")
    b = engine.new_game(engine.min_players, "shared")
    snapshot = copy.deepcopy(b)
    seat = engine.to_act(a)[0]
    engine.apply(a, seat, engine.bot_action(a, seat))
    assert b == snapshot


# ---- simulate: bot-vs-bot games through the contract -------------------------------------


def test_simulate_plays_bot_games(engine):
    from gameplay.engine.simulate import simulate

    report = simulate(engine.kind, 2, "sim")
    cf.json_round_trip(report, f"{engine.kind}: simulate report")
    players = engine.min_players
    assert report["kind"] == engine.kind and report["players"] == players
    assert report["games"] == 2 and report["actions"] >= 2 and report["seconds"] > 0
    assert len(report["wins"]) == players and len(report["mean_scores"]) == players
    decided = 2 - report["draws"]
    assert report["shared"] <= decided <= sum(report["wins"])
    assert sum(report["first_place"]) >= 2


def test_simulate_is_deterministic_apart_from_timing():
    from gameplay.engine.simulate import play_bot_game, simulate

    timing = {"seconds", "games_per_second", "actions_per_second"}
    a = simulate("war", 2, "same", players=4)
    b = simulate("war", 2, "same", players=4)
    assert {k: v for k, v in a.items() if k not in timing} == {
        k: v for k, v in b.items() if k not in timing
    }
    one = play_bot_game("war", 4, "same/1")
    assert one["actions"] <= a["max_actions"] and one["result"]["ranking"]
    assert simulate("war", 0, "none")["games"] == 0
