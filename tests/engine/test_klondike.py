"""Klondike (gameplay/engine/games/klondike/rules.md): every case of §9 on stacked boards,
plus undo, views and bot."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameplay.engine import IllegalAction, registry
from gameplay.engine.cards import HIDDEN, deck, shuffled
from gameplay.engine.games.klondike.board import COLUMNS, FOUNDATIONS, deal_state
from gameplay.engine.games.klondike.engine import ENGINE

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def board(
    columns: dict[str, tuple[list[str], list[str]] | list[str]] | None = None,
    stock: list[str] = (),
    waste: list[str] = (),
    foundations: dict[str, str] | None = None,
    draw: int = 1,
) -> dict:
    """A game whose piles are exactly these. A column is (face down, face up) bottom -> top,
    or a plain list of face-up cards; a foundation is given by its top card."""
    state = ENGINE.new_game(1, "stacked", {"draw": draw})
    for name in COLUMNS:
        spec = (columns or {}).get(name, ([], []))
        down, up = ([], spec) if isinstance(spec, list) else spec
        state["columns"][name] = {"down": list(down), "up": list(up)}
    state["stock"] = list(stock)
    state["stock_unseen"] = len(stock)
    state["waste"] = list(waste)
    state["waste_fan"] = min(len(waste), draw)
    for f in FOUNDATIONS:
        top = (foundations or {}).get(f)
        n = RANKS.index(top[:-1]) + 1 if top else 0
        state["foundations"][f] = [r + f[1] for r in RANKS[:n]]
    return state


def canonical(draw: int = 1) -> dict:
    """A game dealt from the unshuffled deck (§9.1)."""
    state = ENGINE.new_game(1, "canonical", {"draw": draw})
    state.update(deal_state(deck(), draw))
    return state


def move(state: dict, frm: str, card: str, to: str) -> list[dict]:
    return ENGINE.apply(state, 0, {"type": "move", "from": frm, "card": card, "to": to})


def refused(state: dict, action: dict) -> str:
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as info:
        ENGINE.apply(state, 0, action)
    assert state == before
    return info.value.message


def column(state: dict, name: str) -> list[str]:
    """A column as the player sees it: "??" for face-down cards."""
    return ENGINE.view(state, 0)["columns"][name]


def test_registered_and_rules():
    assert registry.get("klondike") is ENGINE
    assert (ENGINE.min_players, ENGINE.max_players) == (1, 1)
    assert ENGINE.default_rules() == {"draw": 1, "winnable": False}
    assert ENGINE.new_game(1, "x", {"draw": 3})["draw"] == 3
    with pytest.raises(IllegalAction):
        ENGINE.new_game(1, "x", {"draw": 2})
    with pytest.raises(IllegalAction):
        ENGINE.new_game(2, "x")


# ---- §9.1 the deal ---------------------------------------------------------------------------


def test_deal_layout_from_the_canonical_deck():
    state = deal_state(deck())
    expect = {
        "t1": ([], ["AS"]),
        "t2": (["2S"], ["8S"]),
        "t3": (["3S", "9S"], ["AH"]),
        "t4": (["4S", "10S", "2H"], ["6H"]),
        "t5": (["5S", "JS", "3H", "7H"], ["10H"]),
        "t6": (["6S", "QS", "4H", "8H", "JH"], ["KH"]),
        "t7": (["7S", "KS", "5H", "9H", "QH", "AD"], ["2D"]),
    }
    for name, (down, up) in expect.items():
        assert state["columns"][name] == {"down": down, "up": up}
    assert state["stock"] == [r + "D" for r in RANKS[2:]] + [r + "C" for r in RANKS]
    assert len(state["stock"]) == 24 and state["waste"] == []
    assert all(state["foundations"][f] == [] for f in FOUNDATIONS)


def test_new_game_deals_the_seeded_shuffle():
    state = ENGINE.new_game(1, "seed-1")
    dealt = deal_state(shuffled(deck(), "seed-1", "deal", 1))
    assert state["columns"] == dealt["columns"] and state["stock"] == dealt["stock"]
    view = ENGINE.view(state, 0)
    assert view["columns"]["t7"][:6] == [HIDDEN] * 6
    assert view["stock_count"] == 24 and view["waste"] == []
    text = json.dumps(view)
    assert not any(c in text for c in state["stock"])
    assert "seed-1" not in text


# ---- §9.2, §9.3 the stock --------------------------------------------------------------------


def test_draw_three():
    state = canonical(draw=3)
    ENGINE.apply(state, 0, {"type": "draw"})
    assert state["waste"] == ["3D", "4D", "5D"] and state["stock"][0] == "6D"
    view = ENGINE.view(state, 0)
    assert view["waste"] == ["3D", "4D", "5D"]
    from_waste = [card for card, m in movable(view).items() if m["from"] == "waste"]
    assert from_waste == ["5D"]
    legal = ENGINE.legal_actions(state, 0)
    assert all(a.get("card") == "5D" for a in legal if a.get("from") == "waste")
    assert "top card of the waste" in refused(
        state, {"type": "move", "from": "waste", "card": "4D", "to": "t3"}
    )


def test_short_stock_then_recycle():
    state = board(stock=["QC", "KC"], waste=["3D", "4D", "5D"], draw=3)
    assert "only when the stock is empty" in refused(state, {"type": "recycle"})
    events = ENGINE.apply(state, 0, {"type": "draw"})
    assert events[0]["cards"] == ["QC", "KC"]
    assert state["waste"] == ["3D", "4D", "5D", "QC", "KC"] and state["stock"] == []
    assert ENGINE.view(state, 0)["waste"] == ["QC", "KC"]
    assert "stock is empty" in refused(state, {"type": "draw"})
    ENGINE.apply(state, 0, {"type": "recycle"})
    assert state["stock"] == ["3D", "4D", "5D", "QC", "KC"] and state["waste"] == []
    assert ENGINE.view(state, 0)["stock_count"] == 5


def test_nothing_to_draw_or_recycle():
    state = board(columns={"t1": ["KS"]})
    legal = {a["type"] for a in ENGINE.legal_actions(state, 0)}
    assert not legal & {"draw", "recycle"}
    refused(state, {"type": "draw"})
    assert "both empty" in refused(state, {"type": "recycle"})


# ---- §9.4 - §9.8 moves -----------------------------------------------------------------------


def test_column_builds():
    state = board(
        columns={"t1": ["8S"], "t2": ["8H"], "t3": ["9H"], "t4": ["9D"], "t5": ["KC", "QH"]},
        waste=["7D", "8C", "7S", "7H"],
    )
    move(copy.deepcopy(state), "waste", "7H", "t1")  # red 7 on black 8
    state["waste"] = ["7D"]
    assert "alternating colours" in refused(
        state, {"type": "move", "from": "waste", "card": "7D", "to": "t2"}
    )
    state["waste"] = ["7S"]
    assert "doesn't fit" in refused(
        state, {"type": "move", "from": "waste", "card": "7S", "to": "t3"}
    )
    state["waste"] = ["8C"]
    move(state, "waste", "8C", "t4")
    assert state["columns"]["t4"]["up"] == ["9D", "8C"]


def test_empty_column_takes_only_a_king():
    state = board(columns={"t1": ["QH"], "t5": (["2C"], ["KC", "QH", "JC"])})
    state["columns"]["t1"]["up"] = ["QD"]
    assert "Only a King" in refused(state, {"type": "move", "from": "t1", "card": "QD", "to": "t3"})
    move(state, "t5", "KC", "t3")
    assert state["columns"]["t3"]["up"] == ["KC", "QH", "JC"]
    assert state["columns"]["t5"] == {"down": [], "up": ["2C"]}


def test_auto_flip_and_undo():
    state = board(columns={"t4": (["4S"], ["6H"]), "t2": ["7C"]})
    events = move(state, "t4", "6H", "t2")
    assert column(state, "t4") == ["4S"]
    assert events[-1] == {"type": "card_turned", "seat": 0, "pile": "t4", "card": "4S"}
    ENGINE.apply(state, 0, {"type": "undo"})
    assert column(state, "t4") == [HIDDEN, "6H"]
    assert state["columns"]["t4"] == {"down": ["4S"], "up": ["6H"]}
    assert state["columns"]["t2"]["up"][-1] == "7C"


def test_foundations():
    state = board(columns={"t1": ["AS"], "t2": ["2S"], "t3": ["3S"], "t4": ["2H"]})
    assert "starts with its Ace" in refused(
        state, {"type": "move", "from": "t2", "card": "2S", "to": "fS"}
    )
    move(state, "t1", "AS", "fS")
    assert "needs the 2♠" in refused(
        state, {"type": "move", "from": "t3", "card": "3S", "to": "fS"}
    )
    assert "♠ foundation" in refused(
        state, {"type": "move", "from": "t4", "card": "2H", "to": "fS"}
    )
    move(state, "t2", "2S", "fS")
    assert state["foundations"]["fS"] == ["AS", "2S"]


def test_only_one_card_at_a_time_to_a_foundation():
    state = board(columns={"t1": ["2S", "AH"]}, foundations={"fS": "AS"})
    assert "one card at a time" in refused(
        state, {"type": "move", "from": "t1", "card": "2S", "to": "fS"}
    )


def test_double_tap_priority():
    # 2S goes to its foundation first.
    state = board(columns={"t6": ["3H", "2S"], "t1": ["3D"]}, foundations={"fS": "AS"})
    events = ENGINE.apply(state, 0, {"type": "auto", "card": "2S"})
    assert events[0]["to"] == "fS" and events[0]["auto"] is True
    # 7H: no foundation move, the leftmost legal column.
    state = board(columns={"t1": ["9D"], "t2": ["8C"], "t3": ["KH"], "t5": ["8S"], "t7": ["7H"]})
    assert ENGINE.apply(state, 0, {"type": "auto", "card": "7H"})[0]["to"] == "t2"
    # KD: the first empty column, never its own.
    state = board(
        columns={"t1": ["9D"], "t2": ["8C"], "t3": ["QD"], "t5": ["2S"], "t7": ["3H"]},
        waste=["KD"],
    )
    for name in ("t4", "t6"):
        assert not state["columns"][name]["up"]
    assert ENGINE.apply(state, 0, {"type": "auto", "card": "KD"})[0]["to"] == "t4"
    # A card with nowhere to go.
    state = board(columns={"t1": ["9D"], "t2": ["5C"]})
    assert "nowhere to go" in refused(state, {"type": "auto", "card": "5C"})


def test_double_tap_moves_a_group_and_from_a_foundation():
    state = board(columns={"t1": ["10S", "9H", "8C"], "t2": ["JD"], "t3": ["5S"]})
    state["foundations"]["fH"] = ["AH", "2H", "3H", "4H"]
    assert ENGINE.apply(state, 0, {"type": "auto", "card": "10S"})[0]["cards"] == [
        "10S",
        "9H",
        "8C",
    ]
    assert ENGINE.apply(state, 0, {"type": "auto", "card": "4H"})[0]["to"] == "t3"


# ---- §9.9 finish -------------------------------------------------------------------------------


def finishing_board(draw: int = 1) -> dict:
    """Every card face up, the stock empty, 9C on the waste."""
    return board(
        columns={
            "t1": ["KC", "QH", "JC", "10H"],
            "t2": ["KD"],
            "t3": ["QC", "JH", "10C"],
            "t4": ["KS", "QD"],
            "t5": ["KH"],
        },
        waste=["9C"],
        foundations={"fS": "QS", "fH": "9H", "fD": "JD", "fC": "8C"},
        draw=draw,
    )


def test_finish_available_and_wins():
    state = finishing_board()
    assert ENGINE.view(state, 0)["can_finish"]
    assert {"type": "finish"} in ENGINE.legal_actions(state, 0)
    events = ENGINE.apply(state, 0, {"type": "finish"})
    moved = [e for e in events if e["type"] == "card_moved"]
    assert len(moved) == 12 and all(e["to"].startswith("f") and e["finish"] for e in moved)
    assert [e["card"] for e in moved][:3] == ["9C", "10H", "10C"]
    assert events[-1]["type"] == "game_won"
    assert ENGINE.is_over(state) and ENGINE.result(state)["winners"] == [0]
    moves = state["moves"]
    assert ENGINE.facts(state, 0) == {"cards_home": 52, "moves": moves, "winning_moves": moves}


def test_a_resigned_deal_has_no_winning_moves():
    state = ENGINE.new_game(1, "facts")
    ENGINE.apply(state, 0, {"type": "draw"})
    ENGINE.apply(state, 0, {"type": "resign"})
    assert ENGINE.facts(state, 0) == {"cards_home": 0, "moves": 1}


def test_finish_refused_with_a_face_down_card_or_a_stock():
    state = finishing_board()
    state["columns"]["t7"] = {"down": ["JC"], "up": ["KH"]}
    state["columns"]["t1"]["up"] = ["KC", "QH"]
    assert not ENGINE.view(state, 0)["can_finish"]
    assert "face up" in refused(state, {"type": "finish"})
    state = finishing_board()
    state["stock"], state["waste"] = ["9C"], []
    assert "face up" in refused(state, {"type": "finish"})


def test_draw_three_finish_is_offered_only_when_the_simulation_wins():
    # 2S lies under 3S in the waste: in Draw 3 they are always turned together.
    state = board(
        columns={
            "t1": ["KS", "QH"],
            "t2": ["QS", "JH"],
            "t3": ["JS", "10H"],
            "t4": ["10S", "9H"],
            "t5": ["9S", "8H"],
            "t6": ["8S", "7H", "6S", "5H", "4S"],
            "t7": ["7S", "6H", "5S", "4H"],
        },
        waste=["KH", "2S", "3S", "AS"],
        foundations={"fH": "3H", "fD": "KD", "fC": "KC"},
        draw=3,
    )
    assert not ENGINE.view(state, 0)["can_finish"]
    assert "face up" in refused(state, {"type": "finish"})
    state["draw"] = 1
    assert ENGINE.view(state, 0)["can_finish"]
    ENGINE.apply(state, 0, {"type": "finish"})
    assert state["won"]


# ---- §9.10, §9.11 ------------------------------------------------------------------------------


def test_foundation_back_to_a_column():
    state = board(columns={"t1": ["6S"]}, foundations={"fH": "5H"})
    move(state, "fH", "5H", "t1")
    assert state["foundations"]["fH"][-1] == "4H"
    assert state["columns"]["t1"]["up"] == ["6S", "5H"]
    assert ENGINE.view(state, 0)["foundations"]["fH"] == "4H"


def test_win():
    state = board(
        columns={"t1": ["KC"]},
        foundations={"fS": "KS", "fH": "KH", "fD": "KD", "fC": "QC"},
    )
    events = move(state, "t1", "KC", "fC")
    assert events[-1]["type"] == "game_won"
    assert ENGINE.is_over(state)
    assert ENGINE.result(state) == {"scores": [52], "winners": [0], "ranking": [[0]]}
    assert ENGINE.legal_actions(state, 0) == []
    assert "over" in refused(state, {"type": "undo"})


# ---- undo, counters, resign -------------------------------------------------------------------


def test_undo_takes_back_draw_recycle_and_moves_one_by_one():
    state = ENGINE.new_game(1, "undo")
    start = copy.deepcopy(state)
    for _ in range(24):
        ENGINE.apply(state, 0, {"type": "draw"})
    ENGINE.apply(state, 0, {"type": "recycle"})
    ENGINE.apply(state, 0, {"type": "draw"})
    legal = [a for a in ENGINE.legal_actions(state, 0) if a["type"] == "move"]
    for action in legal[:1]:
        ENGINE.apply(state, 0, action)
    n = len(state["history"])
    assert state["moves"] == n
    for _ in range(n):
        ENGINE.apply(state, 0, {"type": "undo"})
    for key in ("stock", "waste", "columns", "foundations", "history", "waste_fan"):
        assert state[key] == start[key], key
    assert state["moves"] == n  # undos are not counted, and undone actions stay counted
    assert "nothing to undo" in refused(state, {"type": "undo"})


def test_resign_ends_the_game_not_won():
    state = ENGINE.new_game(1, "resign")
    ENGINE.apply(state, 0, {"type": "resign"})
    assert ENGINE.is_over(state)
    assert ENGINE.result(state) == {"scores": [0], "winners": [], "ranking": [[0]]}


def test_recycles_since_progress_counts_idle_passes():
    state = board(columns={"t1": ["KS"]}, stock=["2H", "3H"])
    for _ in range(2):
        ENGINE.apply(state, 0, {"type": "draw"})
    ENGINE.apply(state, 0, {"type": "recycle"})
    assert ENGINE.view(state, 0)["recycles_since_progress"] == 1
    ENGINE.apply(state, 0, {"type": "undo"})
    assert ENGINE.view(state, 0)["recycles_since_progress"] == 0


# ---- input checks -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "action",
    [
        {"type": "move"},
        {"type": "move", "from": "t1", "to": "t2"},
        {"type": "move", "from": "t9", "card": "AS", "to": "t2"},
        {"type": "move", "from": "t1", "card": "ZZ", "to": "t2"},
        {"type": "move", "from": "t1", "card": "JK1", "to": "t2"},
        {"type": "move", "from": "t1", "card": "7B", "to": "t2"},
        {"type": "move", "from": "t1", "card": ["AS"], "to": "t2"},
        {"type": "move", "from": "stock", "card": "3D", "to": "t2"},
        {"type": "move", "from": "t7", "card": "AD", "to": "fD"},  # face down
        {"type": "move", "from": "t1", "card": "AS", "to": "waste"},
        {"type": "move", "from": "t1", "card": "AS", "to": "t1"},
        {"type": "auto"},
        {"type": "auto", "card": "AD"},
        {"type": "finish"},
    ],
)
def test_bad_input_is_refused_with_a_sentence(action):
    state = canonical()
    message = refused(state, action)
    assert message.endswith(".")


# ---- views, visibility, no more moves, bot ---------------------------------------------------


def movable(view: dict) -> dict[str, dict]:
    """The view's movable entries by card (the card is ``count``-th from the pile's top)."""
    out = {}
    for m in view["movable"]:
        if m["from"] in COLUMNS:
            pile = view["columns"][m["from"]]
        elif m["from"] == "waste":
            pile = view["waste"]
        else:
            pile = [view["foundations"][m["from"]]]
        out[pile[-m["count"]]] = m
    return out


def test_view_lists_movable_cards_with_their_destinations():
    state = canonical()
    view = ENGINE.view(state, 0)
    by_card = movable(view)
    assert by_card["AS"]["to"] == ["fS", "t7"] and by_card["AS"]["auto"] == "fS"
    assert by_card["AH"]["to"] == ["fH"]
    assert by_card["6H"]["to"] == [] and by_card["6H"]["auto"] is None
    listed = {(a["from"], a["card"], a["to"]) for a in ENGINE.legal_actions(state, 0) if "to" in a}
    assert listed == {(m["from"], c, to) for c, m in by_card.items() for to in m["to"]}
    assert view["columns"]["t2"] == [HIDDEN, "8S"]
    assert ENGINE.visible_cards(state, 0) == ENGINE.visible_cards(state, None)
    assert sum(ENGINE.visible_cards(state, 0).values()) == 7
    # A group in a column and the waste's top card.
    state = board(columns={"t1": ["10S", "9H", "8C"], "t2": ["JD"]}, waste=["7D", "QC"])
    by_card = movable(ENGINE.view(state, 0))
    assert by_card["10S"] == {"from": "t1", "count": 3, "to": ["t2"], "auto": "t2"}
    assert by_card["QC"]["count"] == 1 and "7D" not in by_card


def test_no_moves_flag():
    # Nothing fits anywhere.
    state = board(columns={"t1": (["2C"], ["5H"]), "t2": (["AD"], ["9S"])}, stock=["3C", "QC"])
    assert not ENGINE.view(state, 0)["no_moves"]  # the stock holds cards never seen
    for _ in range(2):
        ENGINE.apply(state, 0, {"type": "draw"})
    assert ENGINE.view(state, 0)["no_moves"]
    ENGINE.apply(state, 0, {"type": "recycle"})
    assert ENGINE.view(state, 0)["no_moves"]
    # 6H may come back onto 7S, but that leads nowhere: still stuck.
    state = board(
        columns={"t1": (["2C"], ["5H"]), "t2": (["AD"], ["7S"])}, foundations={"fH": "6H"}
    )
    assert ENGINE.view(state, 0)["no_moves"]
    # 5H back onto 6S, then 4S onto 5H turns over 2C: not stuck.
    state = board(columns={"t1": (["2C"], ["4S"]), "t2": ["6S"]}, foundations={"fH": "5H"})
    assert not ENGINE.view(state, 0)["no_moves"]
    # A waste card that fits somewhere: not stuck.
    state = board(columns={"t1": (["2C"], ["5H"])}, waste=["4C"])
    assert not ENGINE.view(state, 0)["no_moves"]


def test_bot_follows_the_rule_order():
    state = canonical()
    assert ENGINE.bot_action(state, 0) == {"type": "move", "from": "t1", "card": "AS", "to": "fS"}
    state = board(columns={"t1": (["2C"], ["5H"])}, stock=["9C"])
    actions = []
    while not ENGINE.is_over(state):
        action = ENGINE.bot_action(state, 0)
        actions.append(action["type"])
        ENGINE.apply(state, 0, action)
    assert actions == ["draw", "recycle", "draw", "recycle", "draw", "resign"]


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([1, 3]))
def test_random_play_keeps_every_card_once_and_undo_restores(seed, draw):
    state = ENGINE.new_game(1, f"prop-{seed}", {"draw": draw})
    rng = random.Random(seed)
    snapshots = []
    for _ in range(60):
        legal = [a for a in ENGINE.legal_actions(state, 0) if a["type"] not in ("resign", "undo")]
        if not legal:
            break
        snapshots.append(copy.deepcopy(state))
        ENGINE.apply(state, 0, rng.choice(legal))
        cards = state["stock"] + state["waste"]
        for name in COLUMNS:
            col = state["columns"][name]
            cards += col["down"] + col["up"]
            assert col["up"] or not col["down"]
        for f in FOUNDATIONS:
            cards += state["foundations"][f]
        assert sorted(cards) == sorted(deck())
        if ENGINE.is_over(state):
            return
    while snapshots:
        ENGINE.apply(state, 0, {"type": "undo"})
        before = snapshots.pop()
        for key in ("stock", "waste", "columns", "foundations", "waste_fan"):
            assert state[key] == before[key]
