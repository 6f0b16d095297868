"""The Klondike solver (gameplay/engine/games/klondike/solver.py): wins it finds replay legally,
"lost" is returned only when no win exists, hints never depend on hidden cards."""

from __future__ import annotations

import copy

import pytest

from gameplay.engine.games.klondike import board as klondike
from gameplay.engine.games.klondike import solver as ks
from gameplay.engine.games.klondike.engine import ENGINE

from .test_klondike import board


def hint(state: dict, **budget) -> dict:
    """The solver's advice from what the player has: the seat's view and legal actions."""
    return ks.hint(state, ENGINE.view(state, 0), ENGINE.legal_actions(state, 0), **budget)


def replay_wins(state: dict, line: list[dict]) -> bool:
    """Apply ``line`` through the engine's full checks; True if it ends in a win."""
    work = copy.deepcopy(state)
    for action in line:
        ENGINE.apply(work, 0, action)
    return work["won"] and ENGINE.result(work)["winners"] == [0]


def easy(draw: int = 1) -> dict:
    """JH lies under KS and JS under QH: QH onto KS (or KS to an empty column) starts it."""
    return board(
        columns={"t1": (["JS"], ["QH"]), "t2": (["JH"], ["KS"])},
        stock=["QS", "KH", "QD", "KD", "QC", "KC"],
        foundations={"fS": "10S", "fH": "10H", "fD": "JD", "fC": "JC"},
        draw=draw,
    )


def doomed() -> dict:
    """2S lies on AS, and both red 3s lie under AS: 2S can never move, AS never comes free."""
    hearts = [r + "H" for r in klondike.RANK_LETTERS[3:]]
    diamonds = [r + "D" for r in klondike.RANK_LETTERS[3:]]
    spades = [r + "S" for r in klondike.RANK_LETTERS[2:]]
    return board(
        columns={"t1": (["3H", "3D", "AS"], ["2S"])},
        stock=spades + hearts + diamonds,
        foundations={"fH": "2H", "fD": "2D", "fC": "KC"},
    )


@pytest.mark.parametrize("draw", [1, 3])
def test_finds_the_win_on_an_easy_position(draw):
    state = easy(draw)
    result = ks.solve(state, seconds=5)
    assert result["status"] == "won"
    assert any(a.get("card") in ("KS", "QH") for a in result["line"])
    assert replay_wins(state, result["line"])


def test_the_line_draws_and_recycles_as_needed():
    state = easy(3)
    result = ks.solve(state, seconds=5)
    kinds = {a["type"] for a in result["line"]}
    assert "draw" in kinds and kinds <= {"draw", "recycle", "move"}


@pytest.mark.parametrize("relaxed_check", [True, False])
def test_lost_on_an_impossible_position(relaxed_check):
    result = ks.solve(doomed(), seconds=20, relaxed_check=relaxed_check)
    assert result["status"] == "lost" and result["line"] == []


def buried_landing_spots(jacks_in_talon: bool = False) -> dict:
    """9C can go only on a red 10, and both red 10s are on their foundations; they could come
    down only onto a black Jack, and both black Jacks lie face down under 9C (or, with
    ``jacks_in_talon``, in the stock, where they could come onto a column only onto a red
    Queen, and both red Queens lie under 9C). 8C lies under 9C too, so 9C can't go up."""
    under = ["QH", "QD", "8C"] if jacks_in_talon else ["JS", "JC", "8C"]
    stock = ["10C", "QC", "KC", "6S", "7S", "8S", "9S", "10S", "QS", "KS"]
    stock += ["JH", "KH", "JD", "KD"] + (["JS", "JC"] if jacks_in_talon else ["QH", "QD"])
    return board(
        columns={"t1": (under, ["9C"])},
        stock=stock,
        foundations={"fS": "5S", "fH": "10H", "fD": "10D", "fC": "7C"},
    )


@pytest.mark.parametrize("jacks_in_talon", [False, True])
def test_dead_end_when_every_landing_spot_is_out_of_reach(jacks_in_talon):
    # A card on a foundation or in the talon is not a landing spot by itself: it must be able
    # to come onto a column first. The relaxed game sees it without searching.
    state = buried_landing_spots(jacks_in_talon)
    search = ks.Search(1, deadline=float("inf"), max_nodes=None)
    assert search.dead(ks.position(state))
    assert ks.solve(state, seconds=5)["status"] == "lost"


@pytest.mark.parametrize("draw", [1, 3])
def test_no_position_on_a_winning_line_is_called_dead(draw):
    """The relaxed game must allow everything the real one does: walk winning lines and ask."""
    checked = 0
    for i in range(4):
        state = ENGINE.new_game(1, f"relaxed/{draw}/{i}", {"draw": draw})
        result = ks.solve(state, seconds=2, max_nodes=20_000)
        if result["status"] != "won":
            continue
        search = ks.Search(draw, deadline=float("inf"), max_nodes=None)
        for action in result["line"]:
            assert not search.dead(ks.position(state)), (i, action)
            ENGINE.apply(state, 0, action)
            checked += 1
    assert checked > 200


def test_unknown_when_the_budget_runs_out():
    state = ENGINE.new_game(1, "bench/1/27")
    assert ks.solve(state, seconds=5, max_nodes=256)["status"] == "unknown"


@pytest.mark.parametrize("draw", [1, 3])
def test_seeded_deals_lines_replay_legally(draw):
    won = 0
    for i in range(6):
        state = ENGINE.new_game(1, f"solver-test/{draw}/{i}", {"draw": draw})
        result = ks.solve(state, seconds=0.5)
        assert result["status"] in ("won", "lost", "unknown")
        if result["status"] == "won":
            won += 1
            assert replay_wins(state, result["line"])
        else:
            assert result["line"] == []
    assert won >= 2


def test_solving_mid_game_after_moves_and_undo():
    state = ENGINE.new_game(1, "mid-game")
    for _ in range(5):
        ENGINE.apply(state, 0, ENGINE.bot_action(state, 0))
    ENGINE.apply(state, 0, {"type": "undo"})
    result = ks.solve(state, seconds=1)
    if result["status"] == "won":
        assert replay_wins(state, result["line"])


def test_winnable_seed_gives_a_deal_the_line_wins():
    seed = ks.winnable_seed("winnable", draw=1, seconds=1, max_nodes=20_000)
    assert seed is not None and seed.startswith("winnable/")
    assert seed == ks.winnable_seed("winnable", draw=1, seconds=1, max_nodes=20_000)
    state = ENGINE.new_game(1, seed, {"draw": 1})
    result = ks.solve(state, seconds=2, max_nodes=20_000)
    assert result["status"] == "won" and replay_wins(state, result["line"])


def test_winnable_seed_draw_three():
    seed = ks.winnable_seed("winnable-3", draw=3, seconds=1, max_nodes=20_000)
    state = ENGINE.new_game(1, seed, {"draw": 3})
    assert replay_wins(state, ks.solve(state, seconds=2, max_nodes=20_000)["line"])


# ---- hints ----------------------------------------------------------------------------------


def shuffle_hidden(state: dict) -> dict:
    """The same position for the player, with the face-down cards and the never-seen stock
    cards dealt differently."""
    other = copy.deepcopy(state)
    unseen = other["stock_unseen"]
    pool = [c for name in klondike.COLUMNS for c in other["columns"][name]["down"]]
    keep = len(other["stock"]) - unseen
    pool += other["stock"][keep:]
    pool.reverse()
    for name in klondike.COLUMNS:
        n = len(other["columns"][name]["down"])
        other["columns"][name]["down"] = pool[:n]
        del pool[:n]
    other["stock"] = other["stock"][:keep] + pool
    return other


def test_hint_does_not_depend_on_hidden_cards():
    state = ENGINE.new_game(1, "hint-privacy")
    for _ in range(3):
        ENGINE.apply(state, 0, ENGINE.bot_action(state, 0))
    twin = shuffle_hidden(state)
    assert twin != state and ENGINE.view(twin, 0) == ENGINE.view(state, 0)
    # A node cap (not the clock) bounds each search, so the hint is a function of its input.
    a = hint(state, seconds=60, samples=3, max_nodes=2000)
    b = hint(twin, seconds=60, samples=3, max_nodes=2000)
    assert a["source"] in ("solver", "heuristic") and a["message"]
    assert a["action"] in ENGINE.legal_actions(state, 0)
    assert a == b  # same knowledge, same hint


def test_hint_on_a_fully_known_position_is_exact():
    state = easy(1)
    state["stock_unseen"] = 0
    state["columns"]["t1"] = {"down": [], "up": ["JS"]}
    state["columns"]["t4"] = {"down": [], "up": ["QH"]}
    state["columns"]["t2"] = {"down": [], "up": ["JH"]}
    state["columns"]["t3"] = {"down": [], "up": ["KS"]}
    h = hint(state, seconds=2)
    assert h["source"] == "solver" and h["proven"] is True
    assert h["action"] in ENGINE.legal_actions(state, 0)


def known_lost_draw_three() -> dict:
    """Draw 3, nothing hidden: AS lies in the talon's first group of three under 3S, and no
    card can ever move, so AS is never reached."""
    state = board(
        columns={
            name: [r + "S"]
            for name, r in zip(klondike.COLUMNS, "K Q J 10 9 8 7".split(), strict=True)
        },
        stock=["2S", "AS", "3S", "4S", "5S", "6S"],
        foundations={"fH": "KH", "fD": "KD", "fC": "KC"},
        draw=3,
    )
    state["stock_unseen"] = 0
    return state


def test_lost_when_no_move_exists_draw_three():
    assert ks.solve(known_lost_draw_three(), seconds=5)["status"] == "lost"


def test_hint_on_a_lost_known_position_says_so():
    h = hint(known_lost_draw_three(), seconds=2)
    assert h["source"] == "heuristic" and h.get("winnable") is False
    assert "can no longer be won" in h["message"]


def test_hint_falls_back_to_the_heuristic():
    state = ENGINE.new_game(1, "hint-heuristic")
    h = hint(state, seconds=0)
    assert h["source"] == "heuristic" and h["action"] in ENGINE.legal_actions(state, 0)
    assert h["message"]


def test_hint_when_finish_is_possible_and_when_over():
    state = board(
        columns={"t1": ["KC"]},
        foundations={"fS": "KS", "fH": "KH", "fD": "KD", "fC": "QC"},
    )
    assert hint(state)["action"] == {"type": "finish"}
    ENGINE.apply(state, 0, {"type": "finish"})
    assert hint(state)["action"] is None


def test_winnable_rule_chooses_a_seed_the_solver_wins():
    rules = ENGINE.check_rules({"draw": 1, "winnable": True})
    seed = ENGINE.choose_seed("pick", rules)
    assert seed.startswith("pick/")
    assert ENGINE.choose_seed("pick", ENGINE.check_rules({"draw": 1})) == "pick"
    state = ENGINE.new_game(1, seed, rules)
    line = ks.solve(state, seconds=5)["line"]
    for action in line:
        ENGINE.apply(state, 0, action)
    assert ENGINE.is_over(state) and ENGINE.result(state)["winners"] == [0]


def test_lead_move_skips_draws_to_a_column_move_legal_now():
    legal = [{"type": "draw"}, {"type": "move", "from": "t3", "card": "JD", "to": "t4"}]
    column = {"type": "move", "from": "t3", "card": "JD", "to": "t4"}
    from_waste = {"type": "move", "from": "waste", "card": "5C", "to": "t1"}
    draw = {"type": "draw"}
    assert ks.lead_move([draw, draw, column], legal) == column
    assert ks.lead_move([draw, from_waste, column], legal) == draw  # waste moves don't commute
    assert ks.lead_move([draw, {**column, "to": "t6"}], legal) == draw  # not legal now
    assert ks.lead_move([column, draw], legal) == column
