"""Gridcannon: every test case of gameplay/engine/games/gridcannon/rules.md §9, on stacked
decks, plus properties."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameplay.engine import IllegalAction
from gameplay.engine.cards import deck
from gameplay.engine.games.gridcannon import engine as gc

E = gc.ENGINE


# ---- helpers --------------------------------------------------------------------------------


def stacked(top: list[str]) -> list[str]:
    """A full 54-card pile starting with ``top``, then the rest in canonical order."""
    rest = [c for c in deck(jokers=2) if c not in top]
    return list(top) + rest


def dealt(pile: list[str], rules: dict | None = None) -> dict:
    """A new game whose deal came from ``pile`` (index 0 = top)."""
    state = E.new_game(1, "stacked", rules)
    state.update(gc.deal(pile, state["rules"]))
    return state


def grid(rows: str, **stacks: list[str]) -> dict[str, list[str]]:
    """'5H 9C 2S / 7D 10H 3C / 8S 4D 6C' -> one card per position ('--' = empty);
    keyword stacks (bottom -> top) override a position."""
    cards = rows.replace("/", " ").split()
    assert len(cards) == 9
    out = {p: ([] if c == "--" else [c]) for p, c in zip(gc.POSITIONS, cards, strict=True)}
    out.update({p: list(s) for p, s in stacks.items()})
    return out


def royal(card: str, dead: bool = False, armour: tuple[str, ...] = ()) -> dict:
    return {"royal": card, "armour": list(armour), "dead": dead}


def table(
    rows: str,
    spots: dict[str, str | dict],
    pile: list[str],
    ploys: tuple[str, ...] = (),
    waiting: str | None = None,
    rules: dict | None = None,
    **stacks: list[str],
) -> dict:
    """A game in play with the given table (no deal)."""
    state = E.new_game(1, "table", rules)
    state.update(
        phase="play",
        stage=None,
        grid=grid(rows, **stacks),
        spots={s: None for s in gc.SPOTS},
        pile=list(pile),
        ploys=[{"card": c, "spent": False} for c in ploys],
        set_aside=[],
        waiting=waiting,
        refill=None,
        outcome=None,
        reason=None,
        last=[],
    )
    for spot, entry in spots.items():
        state["spots"][spot] = royal(entry) if isinstance(entry, str) else entry
    return state


def act(state: dict, **action) -> list[dict]:
    return E.apply(state, 0, action)


def legal_set(state: dict, kind: str, key: str) -> set[str]:
    return {a[key] for a in E.legal_actions(state, 0) if a["type"] == kind}


def types(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


TEST1 = ["5H", "KS", "9C", "AD", "2S", "JK1", "7D", "10H", "3C", "8S", "4D", "6C", "QH", "6D"]


# ---- §9 test cases -----------------------------------------------------------------------------


def test_1_setup():
    state = dealt(stacked(TEST1))
    g = E.view(state, 0)["grid"]
    rows = [[g[f"r{r}c{c}"]["top"] for c in range(3)] for r in range(3)]
    assert rows == [["5H", "9C", "2S"], ["7D", "10H", "3C"], ["8S", "4D", "6C"]]
    assert [p["card"] for p in state["ploys"]] == ["AD", "JK1"]
    assert state["waiting"] == "KS"  # set aside, now being placed
    assert state["pile"][0] == "QH"
    assert state["phase"] == "setup"
    assert legal_set(state, "place_royal", "spot") == {"L2", "B0"}
    assert E.legal_actions(state, 0)[-1] == {"type": "resign"}
    assert not legal_set(state, "extract", "pos"), "Ploys wait until play begins"


def test_2_replacement():
    state = dealt(stacked(TEST1))
    act(state, type="place_royal", spot="B0")
    assert state["stage"] == "replace"
    assert legal_set(state, "replace", "pos") == set(gc.POSITIONS)
    events = act(state, type="replace", pos="r1c1")
    assert state["pile"][-1] == "10H"
    assert state["waiting"] == "QH"
    assert "card_drawn" in types(events)
    assert legal_set(state, "place_royal", "spot") == {"T0", "L0"}
    act(state, type="place_royal", spot="T0")
    assert state["grid"]["r1c1"] == ["6D"]
    assert state["phase"] == "play"
    assert state["spots"]["T0"]["royal"] == "QH" and state["spots"]["B0"]["royal"] == "KS"


def test_3_placement():
    state = dealt(stacked(TEST1))
    act(state, type="place_royal", spot="B0")
    act(state, type="keep")
    act(state, type="draw")  # QH: 5H at r0c0 is its only heart (10H is the centre)
    assert legal_set(state, "place_royal", "spot") == {"T0", "L0"}
    act(state, type="place_royal", spot="T0")
    act(state, type="draw")
    assert state["waiting"] == "6D"
    assert legal_set(state, "place", "pos") == {"r0c0", "r0c2", "r1c2", "r2c1", "r2c2"}
    for pos in ("r0c1", "r1c0", "r1c1", "r2c0"):
        before = copy.deepcopy(state)
        with pytest.raises(IllegalAction, match="same or lower value"):
            act(state, type="place", pos=pos)
        assert state == before
    act(state, type="place", pos="r2c2")
    assert state["grid"]["r2c2"] == ["6C", "6D"]


def test_4_jack_kill():
    state = table("2C 5C 7C / 8C 6D 9C / 10C 3S 4C", {"T1": "JH"}, ["9H", "10D", "KD"])
    act(state, type="draw")
    view = E.view(state, 0)
    assert {"pos": "r2c1", "kills": ["T1"]} in view["placements"]
    events = act(state, type="place", pos="r2c1")
    assert "royal_killed" in types(events)
    assert state["spots"]["T1"]["dead"] is True
    assert E.view(state, 0)["spots"]["T1"]["dead"] is True
    # T1 stays blocked for good: a new jack cannot go there.
    assert "T1" not in gc.royal_spots(gc.tops_of(state["grid"]), state["spots"], "JC")


def test_5_king_needs_its_suit():
    rows = "9S 5S 2D / 2C 3C 4D / 5D 6D 7D"
    state = table(rows, {"L0": "KS"}, ["10H", "KD"], waiting="4C")
    act(state, type="place", pos="r0c2")
    assert state["spots"]["L0"]["dead"] is True

    state = table(rows.replace("5S", "5C"), {"L0": "KS"}, ["10H"], waiting="4C")
    events = act(state, type="place", pos="r0c2")
    assert state["spots"]["L0"]["dead"] is False
    assert state["grid"]["r0c2"] == ["2D", "4C"]
    assert "royal_killed" not in types(events)


def test_6_queen_needs_her_colour():
    state = table("2C 4C 3S / 5C 6C 7H / 8C 9C 6D", {"B2": "QD"}, ["10H", "KD"], waiting="8C")
    act(state, type="place", pos="r0c2")
    assert state["spots"]["B2"]["dead"] is True

    # the same sum with a black card in the line does not count
    state = table("2C 4C 3S / 5C 6C 7S / 8C 9C 6D", {"B2": "QD"}, ["10H"], waiting="8C")
    act(state, type="place", pos="r0c2")
    assert state["spots"]["B2"]["dead"] is False


def test_7_too_weak():
    state = table("6C 7C 8C / 2H 4H 5D / 9C 10C 9S", {"R1": "JC"}, ["10H"], waiting="3S")
    events = act(state, type="place", pos="r1c0")
    attack = next(e for e in events if e["type"] == "royal_attacked")
    assert attack["attack"] == 9 and attack["health"] == 11 and attack["killed"] is False
    assert state["spots"]["R1"]["dead"] is False
    assert state["grid"]["r1c0"] == ["2H", "3S"]


def test_8_corner_and_centre():
    assert gc.FIRES["r2c0"] == ["T0", "R2"]
    assert gc.LINES["T0"] == ("r2c0", "r1c0", "r0c0")
    assert gc.LINES["R2"] == ("r2c0", "r2c1", "r2c2")
    assert gc.FIRES["r1c1"] == []
    assert all(len(gc.FIRES[p]) == 1 for p in ("r0c1", "r1c0", "r1c2", "r2c1"))

    state = table(
        "6C 2C 3C / 5S 2D 4C / 2H 9D 8H", {"T0": "JH", "R2": "JD"}, ["10H", "KD"], waiting="10S"
    )
    kills = {p["pos"]: p["kills"] for p in E.view(state, 0)["placements"]}
    assert kills["r2c0"] == ["T0", "R2"]
    assert kills["r1c1"] == []
    events = act(state, type="place", pos="r2c0")
    assert [e["spot"] for e in events if e["type"] == "royal_killed"] == ["T0", "R2"]


def test_9_armour_and_natural_loss():
    rows = "7S 8S 9S / 7H 8H 9H / 10S 10H 10D"
    state = table(rows, {"T0": "KC", "L1": "QS", "R2": "JH"}, ["4C", "3C", "5D"])
    act(state, type="draw")
    assert E.legal_actions(state, 0) == [
        {"type": "armour", "spot": "T0"},
        {"type": "resign"},
    ]
    view = E.view(state, 0)
    assert view["must_armour"] is True
    assert view["armour_targets"] == [{"spot": "T0", "health_after": 17, "fatal": False}]
    act(state, type="armour", spot="T0")
    assert E.view(state, 0)["spots"]["T0"]["health"] == 17
    assert not E.is_over(state)
    act(state, type="draw")
    assert state["waiting"] == "3C"
    events = act(state, type="armour", spot="T0")
    assert gc.health(state["spots"]["T0"]) == 20
    assert E.is_over(state) and state["outcome"] == "lost"
    assert types(events)[-1] == "game_lost"
    assert E.result(state)["scores"] == [0]
    assert E.result(state)["winners"] == []


def test_10_armour_by_colour():
    rows = "7S 8S 9S / 7H 8H 9H / 10S 10H 10D"
    state = table(rows, {"T0": "JS", "L1": "QC", "R2": "KD"}, ["3H", "5D"])
    act(state, type="draw")
    assert legal_set(state, "armour", "spot") == {"R2"}
    act(state, type="armour", spot="R2")
    assert gc.health(state["spots"]["R2"]) == 16
    assert state["spots"]["R2"]["armour"] == ["3H"]


def test_11_extraction():
    state = table(
        "5C 6C 7C / 8C -- 9C / 10C 3C 4D",
        {"T1": "JH"},
        ["2D", "10S", "5H"],
        ploys=("AS", "AH"),
        r1c1=["4C", "7H", "9S"],
    )
    assert E.view(state, 0)["aces_left"] == 2
    act(state, type="extract", pos="r1c1")
    assert state["pile"] == ["2D", "10S", "5H", "4C", "7H", "9S"]
    assert state["grid"]["r1c1"] == []
    view = E.view(state, 0)
    assert view["aces_left"] == 1
    assert view["grid"]["r1c1"] == {"top": None, "size": 0, "value": 0}
    assert view["pile_count"] == 6
    act(state, type="draw")
    assert state["waiting"] == "2D"
    assert "r1c1" in legal_set(state, "place", "pos")
    act(state, type="place", pos="r1c1")
    assert state["grid"]["r1c1"] == ["2D"]


def test_12_reassignment_kills():
    rows = "6C 2C 3C / 5S 10H 4C / 8H 7D 9D"
    start = table(rows, {"T0": "JD"}, ["10S", "KD"], ploys=("JK1",), r2c2=["2H", "9D"])
    assert {"type": "reassign", "from": "r2c2", "to": "r2c0"} in E.legal_actions(start, 0)
    reassign = next(
        r for r in E.view(start, 0)["reassigns"] if r["to"] == "r2c0" and r["from"] == "r2c2"
    )
    assert reassign["kills"] == ["T0"]

    state = copy.deepcopy(start)
    events = act(state, **{"type": "reassign", "from": "r2c2", "to": "r2c0"})
    assert state["spots"]["T0"]["dead"] is True
    assert state["grid"]["r2c0"] == ["8H", "9D"] and state["grid"]["r2c2"] == ["2H"]
    assert state["ploys"] == [{"card": "JK1", "spent": True}]
    assert "royal_killed" in types(events)

    state = copy.deepcopy(start)
    with pytest.raises(IllegalAction):
        act(state, **{"type": "reassign", "from": "r2c2", "to": "r1c1"})
    assert state == start


def test_13_placement_fallback():
    rows = "2C 10H 3C / 4C 5C 6C / 7C 8C 4H"
    spots = {"T1": royal("JC", dead=True), "L0": "KS"}
    state = table(rows, spots, ["QH", "9S"])
    act(state, type="draw")
    assert state["waiting"] == "QH"
    assert legal_set(state, "place_royal", "spot") == {"B2", "R2"}
    with pytest.raises(IllegalAction, match="most like"):
        act(state, type="place_royal", spot="T1")


def test_14_centre_ignored_and_tie():
    state = table("3S 2C 4C / 5C 10S 6C / 7C 8C 9C", {"B1": "KH"}, ["JS", "2D"])
    act(state, type="draw")
    assert legal_set(state, "place_royal", "spot") == {"T0", "L0"}

    state = table("2C 9C 3C / 4S 10C 5S / 6C 9S 7S", {"L1": "KH"}, ["QH", "2D"])
    act(state, type="draw")
    assert legal_set(state, "place_royal", "spot") == {"T1", "B1"}


def test_15_cycling():
    spots = {"T0": royal("JC", dead=True), "T2": royal("JD", dead=True), "T1": "JH"}
    rest = ["2C", "3D", "4S"]
    state = table(
        "2S 5S 7C / 8C 6D 9C / 10C 3S 4C", spots, ["5C", "AS", "8D", "KH", *rest], waiting="9H"
    )
    events = act(state, type="place", pos="r2c1")
    assert state["spots"]["T1"]["dead"] is True
    cycled = next(e for e in events if e["type"] == "cards_cycled")
    assert cycled["cards"] == ["5C", "8D"] and cycled["royal"] == "KH"
    assert [p["card"] for p in state["ploys"]] == ["AS"]
    # KH's only heart is 9H at r2c1, whose one spot is B1.
    assert state["spots"]["B1"]["royal"] == "KH"
    assert state["pile"] == [*rest, "5C", "8D"]
    assert legal_set(state, "draw", "type") == {"draw"}


def test_16_win_and_score():
    spots = {s: royal("JC", dead=True) for s in gc.SPOTS if s != "T1"}
    spots["T1"] = "JH"
    state = table(
        "2S 5C 7C / 8C 6D 9C / 10C 3S 4C",
        spots,
        ["2H"],
        ploys=("AD", "AS", "JK2"),
        waiting="9H",
    )
    state["ploys"][1]["spent"] = True
    events = act(state, type="place", pos="r2c1")
    assert types(events)[-1] == "game_won"
    assert E.is_over(state) and state["outcome"] == "won"
    assert E.result(state)["scores"] == [2]
    assert E.result(state)["winners"] == [0]
    assert E.result(state)["ranking"] == [[0]]
    assert E.result(state)["stats"] == {"dead_royals": 12}
    assert E.facts(state, 0) == {"royals_killed": 12, "score": 2}
    assert E.to_act(state) == [] and E.legal_actions(state, 0) == []


def test_17_out_of_cards():
    rows = "2S 5C 7C / 8C 6D 9C / 10C 3S 4C"
    state = table(rows, {"T0": "KH"}, [], waiting="5H")
    events = act(state, type="place", pos="r0c0")
    assert types(events)[-1] == "game_lost"
    assert E.result(state)["scores"] == [0]

    state = table(rows, {"T0": "KH"}, [], ploys=("AC",), waiting="5H")
    act(state, type="place", pos="r0c0")
    assert not E.is_over(state)
    legal = E.legal_actions(state, 0)
    assert {"type": "draw"} not in legal
    assert {"type": "extract", "pos": "r0c0"} in legal
    act(state, type="extract", pos="r0c0")
    assert state["pile"] == ["2S", "5H"]
    assert {"type": "draw"} in E.legal_actions(state, 0)
    act(state, type="draw")
    assert state["waiting"] == "2S"


def test_18_variant_without_armour():
    rows = "7S 8S 9S / 7H 8H 9H / 10S 10H 10D"
    state = table(rows, {"T0": "KC"}, ["4C", "5D"], rules={"armour": False})
    events = act(state, type="draw")
    assert types(events)[-1] == "game_lost"
    assert E.is_over(state)
    assert E.result(state)["scores"] == [0]


# ---- more rules ---------------------------------------------------------------------------


def test_setup_royals_placed_in_order_drawn_and_auto_when_unique():
    # KH and then JD are drawn during the deal; KH's only heart is 5H at the edge r0c1.
    top = ["2C", "5H", "KH", "3C", "JD", "4C", "6C", "7C", "8C", "9C", "10C"]
    state = dealt(stacked(top))
    assert state["spots"]["T1"]["royal"] == "KH"  # placed by itself: one legal spot
    # JD: no diamond, the red card is 5H whose only spot is taken -> next tier: the highest
    # card among candidates, 10C at r2c2 (B2, R2).
    assert state["waiting"] == "JD"
    assert legal_set(state, "place_royal", "spot") == {"B2", "R2"}


def test_refill_aces_and_jokers_become_ploys():
    top = ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "AH", "JK2", "5D", "KD"]
    state = dealt(stacked(top))
    assert state["stage"] == "replace"
    act(state, type="replace", pos="r0c0")
    assert [p["card"] for p in state["ploys"]] == ["AH", "JK2"]
    assert state["grid"]["r0c0"] == ["5D"]
    assert state["pile"][-1] == "2C"


def test_no_living_royal_at_start_cycles():
    top = ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "2H", "AH", "QD", "3H"]
    state = dealt(stacked(top))
    act(state, type="keep")
    # 2H goes to the cycled pile, AH becomes a Ploy, QD is placed.
    assert state["pile"][-1] == "2H"
    assert [p["card"] for p in state["ploys"]] == ["AH"]
    assert state["waiting"] == "QD" or any(
        e is not None and e["royal"] == "QD" for e in state["spots"].values()
    )


def test_ploys_first_not_armour_when_a_joker_helps():
    # 4C fits nowhere, but moving 8H (r0c1) off 3D leaves 3D on top, which takes it.
    state = table(
        "7S 9S 9S / 7H 8D 9H / 10S 10H 10D",
        {"T0": "KC"},
        ["4C", "5D"],
        ploys=("JK1",),
        r0c1=["3D", "8H"],
    )
    state["grid"]["r0c2"] = ["9C"]
    act(state, type="draw")
    legal = E.legal_actions(state, 0)
    assert not any(a["type"] == "armour" for a in legal)
    assert not E.view(state, 0)["must_armour"]
    helping = [r for r in E.view(state, 0)["reassigns"] if r["makes_placeable"]]
    assert {"from": "r0c1", "to": "r1c1", "kills": [], "makes_placeable": True} in helping
    with pytest.raises(IllegalAction, match="can still be placed"):
        act(state, type="armour", spot="T0")


def test_unplaceable_card_with_no_living_royal_goes_under_the_pile():
    # a Reassignment kills the last living royal while an unplaceable 2D waits
    state = table(
        "6C 7C 8C / 5S 10H 9C / 8H 10C 9D",
        {"T0": "JD"},
        ["3H", "KS"],
        ploys=("JK1",),
        waiting="2D",
        r2c2=["9S", "9D"],
    )
    assert gc.placements(gc.tops_of(state["grid"]), "2D") == []
    events = act(state, **{"type": "reassign", "from": "r2c2", "to": "r2c0"})
    assert "card_returned" in types(events)
    assert "cards_cycled" in types(events)
    assert state["pile"][-1] == "2D" or "2D" in state["pile"]


def test_bad_input_is_refused_and_leaves_state_unchanged():
    state = table("2S 5C 7C / 8C 6D 9C / 10C 3S 4C", {"T0": "KH"}, ["5H", "6H"], ploys=("JK1",))
    bad = [
        {"type": "place", "pos": "r0c0"},  # nothing drawn
        {"type": "place_royal", "spot": "T1"},
        {"type": "armour", "spot": "T0"},
        {"type": "extract", "pos": "r0c0"},  # no ace
        {"type": "reassign", "from": "r0c0"},
        {"type": "reassign", "from": "r0c0", "to": "r0c0"},
        {"type": "reassign", "from": 3, "to": "r0c0"},
        {"type": "keep"},
        {"type": "replace", "pos": "r0c0"},
        {"type": "fly"},
        {"type": None},
        "draw",
    ]
    for action in bad:
        before = copy.deepcopy(state)
        with pytest.raises(IllegalAction) as err:
            E.apply(state, 0, action)
        assert err.value.message.endswith(".")
        assert state == before
    act(state, type="draw")
    for action in (
        {"type": "draw"},
        {"type": "place"},
        {"type": "place", "pos": "x9"},
        {"type": "place", "pos": ["r0c0"]},
        {"type": "place", "pos": "r1c0"},
    ):
        before = copy.deepcopy(state)
        with pytest.raises(IllegalAction):
            E.apply(state, 0, action)
        assert state == before
    with pytest.raises(IllegalAction):
        E.apply(state, 1, {"type": "resign"})


def test_resign():
    state = E.new_game(1, "resign")
    events = E.apply(state, 0, {"type": "resign"})
    assert types(events) == ["resigned", "game_lost"]
    assert E.result(state) == {
        "scores": [0],
        "winners": [],
        "ranking": [[0]],
        "stats": {"dead_royals": 0},
    }


def test_deal_uses_the_deal_purpose():
    from gameplay.engine.cards import shuffled

    state = E.new_game(1, "abc")
    pile = shuffled(deck(jokers=2), "abc", "deal", 1)
    numbers = [c for c in pile if gc.is_number(c)][:9]
    assert [state["grid"][p][0] for p in gc.POSITIONS] == numbers


def test_view_hides_the_pile_and_the_seed():
    state = E.new_game(1, "secret-seed")
    for seat in (0, None):
        view = E.view(state, seat)
        text = json.dumps(view)
        assert "secret-seed" not in text
        assert view["pile_count"] == len(state["pile"])
        shown = [c for c in _walk(view) if gc.ROLE.get(c)]
        allowed = E.visible_cards(state, seat)
        for card in set(shown):
            assert shown.count(card) <= allowed[card]


def _walk(node):
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for v in node.values():
            yield from _walk(v)
    elif isinstance(node, list):
        for v in node:
            yield from _walk(v)


@pytest.mark.parametrize("seed", [f"bot{i}" for i in range(12)])
def test_bot_games_end_and_replay(seed):
    state = E.new_game(1, seed)
    log, events = [], []
    while not E.is_over(state):
        action = E.bot_action(state, 0)
        assert action in E.legal_actions(state, 0)
        assert action["type"] != "resign"
        log.append(action)
        events.append(E.apply(state, 0, action))
        json.dumps(E.view(state, 0))
        assert len(log) < 2000
    again = E.new_game(1, seed)
    replayed = [E.apply(again, 0, a) for a in log]
    assert again == state and replayed == events
    assert E.result(state)["stats"]["dead_royals"] in range(13)


# ---- properties -------------------------------------------------------------------------------

NUMBERS = [c for c in deck() if gc.is_number(c)]
ROYALS = [c for c in deck() if gc.is_royal(c)]


@st.composite
def tables(draw):
    cards = draw(st.lists(st.sampled_from(NUMBERS), min_size=9, max_size=9, unique=True))
    empty = draw(st.sets(st.sampled_from(gc.POSITIONS), max_size=4))
    g = {p: ([] if p in empty else [c]) for p, c in zip(gc.POSITIONS, cards, strict=True)}
    taken = draw(st.sets(st.sampled_from(gc.SPOTS), max_size=11))
    spots = {s: (royal("JC", dead=True) if s in taken else None) for s in gc.SPOTS}
    return g, spots, draw(st.sampled_from(ROYALS))


@settings(max_examples=200, deadline=None)
@given(tables())
def test_royal_spots_are_most_similar(table_):
    g, spots, card = table_
    legal = gc.royal_spots(gc.tops_of(g), spots, card)
    free = [s for s in gc.SPOTS if spots[s] is None]
    assert legal and set(legal) <= set(free)
    candidates = [
        p
        for p in gc.POSITIONS
        if p != "r1c1" and g[p] and any(spots[s] is None for s in gc.POSITION_SPOTS[p])
    ]
    if not candidates:
        assert set(legal) == set(free)
        return
    chosen = {gc.SPOT_POSITION[s] for s in legal}
    tops = {p: g[p][-1] for p in candidates}

    def rank_of(p):  # (tier, value): lower tier is more similar
        c = tops[p]
        tier = 0 if c[-1] == card[-1] else 1 if gc.COLOUR[c] == gc.COLOUR[card] else 2
        return (tier, -gc.VALUE[c])

    best = min(rank_of(p) for p in candidates)
    assert chosen == {p for p in candidates if rank_of(p) == best}
    # every free spot of every chosen card is legal
    assert set(legal) == {s for p in chosen for s in gc.POSITION_SPOTS[p] if spots[s] is None}


@settings(max_examples=200, deadline=None)
@given(tables(), st.sampled_from(NUMBERS))
def test_kills_match_the_attack_rule(table_, landing):
    g, _, card = table_
    spots = {s: royal(card) for s in gc.SPOTS}
    for pos in gc.placements(gc.tops_of(g), landing):
        kills = gc.kills_from(gc.tops_of(g), spots, pos)
        for s in gc.FIRES[pos]:
            _, near, far = gc.LINES[s]
            a, b = (g[near][-1] if g[near] else None), (g[far][-1] if g[far] else None)
            ok = (
                a is not None
                and b is not None
                and gc.counts(card, a)
                and gc.counts(card, b)
                and gc.VALUE[a] + gc.VALUE[b] >= gc.BASE_HEALTH[card[0]]
            )
            assert (s in kills) == ok


def test_the_log_speaks_in_places_not_internal_names():
    """ "7♠ placed on the middle right", never "placed on r1c2" or "the royal at L1"."""
    import re

    internal = re.compile(r"\b(r[0-2]c[0-2]|[TLRB][0-2])\b")
    for seed in ("words-1", "words-2", "words-3"):
        state = E.new_game(players=1, seed=seed)
        lines = []
        while not E.is_over(state):
            E.apply(state, 0, E.bot_action(state, 0))
            lines += E.view(state, 0)["last"]
        assert lines and not [line for line in lines if internal.search(line)]
    assert gc.describe({"type": "royal_killed", "royal": "QC", "spot": "L1"}) == (
        "The Queen of Clubs left of the middle left dies."
    )
