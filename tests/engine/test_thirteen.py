"""Thirteen (gameplay/engine/games/thirteen/rules.md): every test case of §9 on stacked hands,
plus rebuilding the stock, the rounds, views and the computer player."""

from __future__ import annotations

from collections import Counter

import pytest

from gameplay.engine import IllegalAction, melds
from gameplay.engine.cards import deck, label, shuffled
from gameplay.engine.games.thirteen import engine as thirteen
from gameplay.engine.games.thirteen.hands import wild_name

from . import conformance as cf

ENGINE = thirteen.ENGINE
DECK = deck()


def table(
    hands: list[list[str]],
    round_no: int = 1,
    turn: int = 0,
    step: str = "discard",
    discard: list[str] | None = None,
    stock: list[str] | None = None,
    totals: list[int] | None = None,
) -> dict:
    """A game stopped at ``turn``'s ``step`` in round ``round_no`` with these hands; every
    other card is in the discard pile (``discard``, top last) or the stock."""
    state = ENGINE.new_game(len(hands), "thirteen-test")
    used = [c for h in hands for c in h] + (discard or [])
    rest = [c for c in DECK if c not in used]
    state.update(
        round=round_no,
        hands=[list(h) for h in hands],
        discard=list(discard or []),
        stock=rest if stock is None else list(stock),
        turn=turn,
        step=step,
        taken=None,
        took=[[] for _ in hands],
        totals=list(totals or [0] * len(hands)),
    )
    return state


def of_type(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


OTHER = ["KS", "QC", "JD", "8C", "6H", "3D", "AC"]


# ---- §9.1 the wild rank ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("round_no", "wild"), [(1, "A"), (2, "2"), (10, "10"), (11, "J"), (13, "K")]
)
def test_wild_rank(round_no, wild):
    assert wild_name(round_no) == wild
    state = table([OTHER, ["2S", "3S", "4S", "5S", "6S", "7S", "8S"]], round_no=round_no)
    assert ENGINE.view(state, None)["wild"] == wild


# ---- §9.2, §9.3 combinations ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "wild", "valid"),
    [
        (["7S", "7H", "3D"], 3, True),
        (["7S", "3D", "3C"], 3, True),
        (["3S", "3H", "3D"], 3, False),
        (["7S", "7H"], 3, False),
        (["4H", "5C", "6H"], 5, True),
        (["AC", "2C", "3C"], 5, True),
        (["9S", "10S", "5D", "QS"], 5, True),
        (["QD", "KD", "AD"], 5, False),
        (["KS", "AS", "2S"], 5, False),
        (["9S", "10H", "JS"], 5, False),
    ],
)
def test_combinations(cards, wild, valid):
    assert melds.is_meld(cards, wild) is valid


# ---- §9.4 going out ------------------------------------------------------------------------


def test_going_out():
    hand = ["4S", "5S", "6S", "9D", "9H", "9C", "9S"]
    others = ["KS", "KH", "7D", "3C", "10C", "10D", "4H"]
    state = table([hand, others], round_no=2, step="draw", discard=["JH"])
    state["stock"].remove("QH")
    state["stock"].insert(0, "QH")
    ENGINE.apply(state, 0, {"type": "draw", "from": "stock"})
    assert {"type": "go_out", "card": "QH"} in ENGINE.legal_actions(state, 0)
    events = ENGINE.apply(state, 0, {"type": "go_out", "card": "QH"})
    assert of_type(events, "went_out") == [{"type": "went_out", "seat": 0, "card": "QH"}]
    scored = of_type(events, "round_scored")[0]
    leftover = 10 + 10 + 7 + 3 + 10 + 10 + 4  # round 2: no combination among the others
    assert scored["points"] == [0, leftover] and scored["out"] == 0
    assert state["totals"] == [0, leftover]
    assert state["round"] == 3 and ENGINE.view(state, 0)["wild"] == "3"
    assert ENGINE.facts(state, 0)["rounds_out"] == 1


# ---- §9.5 cannot go out ---------------------------------------------------------------------


def test_cannot_go_out_with_two_cards_left_over():
    state = table([["4S", "5S", "6S", "9D", "9H", "2D", "KC", "7H"], OTHER], round_no=2)
    legal = ENGINE.legal_actions(state, 0)
    assert not [a for a in legal if a["type"] == "go_out"]
    assert {"type": "discard", "card": "KC"} in legal
    with pytest.raises(IllegalAction, match="every card left after your discard"):
        ENGINE.apply(state, 0, {"type": "go_out", "card": "KC"})
    you = ENGINE.view(state, 0)["you"]
    assert you["leftover"] == 17 and you["leftover_cards"] == 2


# ---- §9.6 a discard is still required ---------------------------------------------------


def test_a_discard_is_still_required():
    state = table([["4S", "5S", "6S", "7S", "9D", "9H", "9C", "9S"], OTHER], round_no=2)
    going_out = {a["card"] for a in ENGINE.legal_actions(state, 0) if a["type"] == "go_out"}
    assert "7S" in going_out
    assert ENGINE.view(state, 0)["you"]["leftover"] == 0  # all 8 meld, yet one must go


# ---- §9.7, §9.8 scoring the others -------------------------------------------------------


def test_scoring_uses_the_best_arrangement():
    out = ["4H", "5H", "6H", "JC", "JD", "JH", "JS", "QH"]
    state = table([out, ["KS", "KH", "7D", "2C", "9C", "9D", "4S"]], round_no=7)
    events = ENGINE.apply(state, 0, {"type": "go_out", "card": "QH"})
    # KS KH 7D as a set leaves 2 + 9 + 9 + 4 = 24; 9C 9D 7D would leave 26.
    assert of_type(events, "round_scored")[0]["points"] == [0, 24]
    shown = state["last_round"]["hands"][1]
    assert shown["melds"] == [{"kind": "set", "cards": ["KS", "KH", "7D"]}]
    assert shown["leftover"] == ["4S", "9D", "2C", "9C"] and shown["leftover_points"] == 24


def test_a_wild_left_over_counts_25():
    out = ["4S", "5S", "6S", "10D", "10H", "10C", "10S", "QH"]
    state = table([out, ["AS", "5H", "9C", "QD", "KS", "3D", "2C"]], round_no=1)
    events = ENGINE.apply(state, 0, {"type": "go_out", "card": "QH"})
    assert of_type(events, "round_scored")[0]["points"] == [0, 64]
    shown = state["last_round"]["hands"][1]
    assert shown["melds"] == [] and shown["leftover_points"] == 64


# ---- §9.9 no throw-back -----------------------------------------------------------------


def test_no_throw_back():
    state = table([OTHER, ["2S", "3S", "4S", "5S", "6S", "7S", "9S"]], step="draw", discard=["8H"])
    ENGINE.apply(state, 0, {"type": "draw", "from": "discard"})
    assert {"type": "discard", "card": "8H"} not in ENGINE.legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="throw back"):
        ENGINE.apply(state, 0, {"type": "discard", "card": "8H"})
    assert ENGINE.view(state, 1)["seats"][0]["took"] == ["8H"]


# ---- §9.10 who goes first ---------------------------------------------------------------


def test_first_player_pick():
    assert thirteen.first_player(["9C", "4H"], 2)[0] == 1
    seat, picks = thirteen.first_player(["5S", "5D", "2C", "KD"], 2)
    assert seat == 0 and len(picks) == 2
    assert picks[1] == [{"seat": 0, "card": "2C"}, {"seat": 1, "card": "KD"}]
    assert thirteen.first_player(["AH", "2C"], 2)[0] == 0
    assert thirteen.first_player(["2C", "AH"], 2)[0] == 1
    # Only the tied seats draw again, in seat order.
    seat, picks = thirteen.first_player(["3S", "7D", "3H", "QC", "9S", "4D"], 4)
    assert seat == 2 and picks[1] == [{"seat": 0, "card": "9S"}, {"seat": 2, "card": "4D"}]


def test_the_pick_comes_from_its_own_deck():
    state = ENGINE.new_game(2, "pick")
    seat, picks = thirteen.first_player(shuffled(DECK, "pick", "first", 1), 2)
    assert state["first"] == seat and ENGINE.to_act(state) == [seat]
    assert ENGINE.view(state, None)["pick"] == picks


# ---- §9.11 the deal ---------------------------------------------------------------------------


def test_deal_with_four_seats():
    state = ENGINE.new_game(4, "four")
    assert [len(h) for h in state["hands"]] == [7, 7, 7, 7]
    assert len(state["discard"]) == 1 and len(state["stock"]) == 23
    order = shuffled(DECK, "four", "deal", 1)
    dealer = state["dealer"]
    assert state["hands"][(dealer + 1) % 4][:2] == [order[0], order[4]]
    assert state["discard"] == [order[28]] and state["stock"] == order[29:]
    every = sum(state["hands"], []) + state["discard"] + state["stock"]
    assert Counter(every) == Counter(DECK)


def test_the_deal_passes_left():
    out = ["4S", "5S", "6S", "9D", "9H", "9C", "9S", "QH"]
    state = table([out, OTHER, ["2H", "3H", "4H", "5H", "7H", "8H", "10H"]])
    dealer = state["dealer"]
    ENGINE.apply(state, 0, {"type": "go_out", "card": "QH"})
    assert state["dealer"] == (dealer + 1) % 3 and state["round"] == 2


# ---- §9.12 the final result ---------------------------------------------------------------


def test_two_tied_all_tied():
    state = table([OTHER, OTHER, OTHER])
    state.update(over=True, totals=[40, 40, 55])
    assert ENGINE.result(state) == {"scores": [40, 40, 55], "winners": [], "ranking": [[0, 1], [2]]}
    state["totals"] = [38, 40, 55]
    assert ENGINE.result(state) == {
        "scores": [38, 40, 55],
        "winners": [0],
        "ranking": [[0], [1], [2]],
    }


def test_round_13_ends_the_game():
    out = ["4S", "5S", "6S", "9D", "9H", "9C", "9S", "QH"]
    state = table([out, ["AS", "5H", "8C", "QD", "KS", "3D", "2C"]], round_no=13, totals=[50, 20])
    events = ENGINE.apply(state, 0, {"type": "go_out", "card": "QH"})
    # Kings are wild in round 13, and the KS finds no partner: 1 + 5 + 8 + 10 + 25 + 3 + 2.
    assert state["totals"] == [50, 74]
    assert ENGINE.is_over(state)
    assert of_type(events, "game_ended") == [
        {"type": "game_ended", "winners": [0], "scores": [50, 74]}
    ]
    cf.check_after_end(ENGINE, state)
    assert ENGINE.facts(state, 0)["won"] == 1 and ENGINE.facts(state, 1)["total"] == 74


# ---- §9.13 the stock limit --------------------------------------------------------------------


def test_the_stock_is_rebuilt_twice_then_the_round_ends():
    hands = [OTHER, ["2S", "3S", "4S", "5S", "6S", "KD", "QC"]]
    rest = [c for c in DECK if c not in sum(hands, [])]
    state = table(hands, round_no=4, step="draw", discard=rest, stock=[])
    state["reshuffles"] = 3
    events = ENGINE.apply(state, 0, {"type": "draw", "from": "stock"})
    rebuilt = of_type(events, "stock_rebuilt")[0]
    assert rebuilt == {"type": "stock_rebuilt", "round": 4, "rebuild": 1, "cards": len(rest) - 1}
    assert state["discard"] == [rest[-1]]
    expected = shuffled(rest[:-1], "thirteen-test", "reshuffle", 4)
    assert state["hands"][0][-1] == expected[0] and state["stock"] == expected[1:]
    assert ENGINE.view(state, 0)["rebuilds_left"] == 1

    state["rebuilds"] = 2
    state["discard"] = state["stock"] + state["discard"]
    state["stock"] = []
    ENGINE.apply(state, 0, {"type": "discard", "card": "KS"})
    events = ENGINE.apply(state, 1, {"type": "draw", "from": "stock"})
    assert of_type(events, "stock_exhausted") == [{"type": "stock_exhausted", "round": 4}]
    scored = of_type(events, "round_scored")[0]
    assert scored["out"] is None and scored["reason"] == "stock"
    # Fours are wild: 2S 3S 4S 5S 6S is a run; KD and QC are left over.
    assert scored["points"][1] == 20 and scored["points"][0] > 0
    assert state["round"] == 5 and state["rebuilds"] == 0


# ---- views and the computer player -------------------------------------------------------


def test_views_hide_other_hands_and_show_the_arrangement():
    state = table([["4S", "5S", "6S", "9D", "9H", "2D", "KC", "7H"], OTHER], round_no=2)
    for seat in (None, 0, 1):
        cf.check_view(ENGINE, state, seat)
    you = ENGINE.view(state, 0)["you"]
    cards = [item["card"] for item in you["hand"]]
    groups = [[cards[i] for i in m["positions"]] for m in you["melds"]]
    assert sorted(map(sorted, groups)) == [["2D", "9D", "9H"], ["4S", "5S", "6S"]]
    assert {item["card"] for item in you["hand"] if item["wild"]} == {"2D"}
    assert {item["card"]: item["after"] for item in you["hand"]}["KC"] == 7
    assert "KC" not in str(ENGINE.view(state, 1))


def test_bot_goes_out_and_never_throws_a_wild():
    state = table([["4S", "5S", "6S", "7S", "9D", "9H", "9C", "9S"], OTHER], round_no=2)
    assert ENGINE.bot_action(state, 0)["type"] == "go_out"
    state = table([["2S", "KC", "QD", "9H", "7C", "4D", "JS", "5H"], OTHER], round_no=2)
    action = ENGINE.bot_action(state, 0)
    assert action["type"] == "discard" and action["card"] != "2S"


def test_bot_takes_a_wild_or_a_card_that_melds():
    hand = ["KS", "KH", "JD", "8C", "6H", "3D", "AC"]
    seven = ["2S", "3S", "4S", "5S", "6S", "8S", "10S"]
    state = table([hand, seven], step="draw", discard=["AH"])
    assert ENGINE.bot_action(state, 0) == {"type": "draw", "from": "discard"}  # aces are wild
    state = table([hand, seven], round_no=2, step="draw", discard=["KD"])
    assert ENGINE.bot_action(state, 0) == {"type": "draw", "from": "discard"}  # three kings
    state = table([hand, seven], round_no=2, step="draw", discard=["9H"])
    assert ENGINE.bot_action(state, 0) == {"type": "draw", "from": "stock"}


# ---- what the table shows -----------------------------------------------------------------


def test_every_view_tells_the_latest_turns_and_shows_other_hands_face_down():
    hands = [
        OTHER,
        ["2S", "3S", "4S", "5S", "6S", "KD", "QC"],
        ["2H", "3H", "4H", "9C", "9D", "9S", "JC"],
    ]
    state = table(hands, round_no=3, step="draw", discard=["10H", "7D"])
    ENGINE.apply(state, 0, {"type": "draw", "from": "discard"})
    ENGINE.apply(state, 0, {"type": "discard", "card": "KS"})
    ENGINE.apply(state, 1, {"type": "draw", "from": "stock"})
    ENGINE.apply(state, 1, {"type": "discard", "card": "KD"})
    ENGINE.apply(state, 2, {"type": "draw", "from": "stock"})
    for seat in (None, 0, 1, 2):
        view = cf.check_view(ENGINE, state, seat)
        assert view["turns"] == [
            {"seat": 0, "drew": "discard", "took": "7D", "discarded": "KS"},
            {"seat": 1, "drew": "stock", "took": None, "discarded": "KD"},
            {"seat": 2, "drew": "stock", "took": None, "discarded": None},
        ]
    assert ENGINE.view(state, 1)["seats"][0]["took"] == ["7D"]
    assert ENGINE.view(state, 1)["seats"][0]["down"] == ["??"] * 6
    assert ENGINE.view(state, 0)["seats"][2]["down"] == ["??"] * 8
    assert ENGINE.view(state, 0)["seats"][0]["down"] == []


def test_a_rebuilt_stock_forgets_the_turns_whose_discards_it_took():
    hands = [OTHER, ["2S", "3S", "4S", "5S", "6S", "KD", "QC"]]
    rest = [c for c in DECK if c not in sum(hands, [])]
    state = table(hands, round_no=4, step="draw", discard=rest[:-1], stock=rest[-1:])
    ENGINE.apply(state, 0, {"type": "draw", "from": "stock"})
    ENGINE.apply(state, 0, {"type": "discard", "card": "KS"})
    ENGINE.apply(state, 1, {"type": "draw", "from": "stock"})  # rebuilt: KS stays on top
    for seat in (None, 0, 1):
        view = cf.check_view(ENGINE, state, seat)
        assert view["turns"] == [{"seat": 1, "drew": "stock", "took": None, "discarded": None}]


def test_hint_is_the_computer_players_choice_in_words():
    state = table([["4S", "5S", "6S", "7S", "9D", "9H", "9C", "9S"], OTHER], round_no=2)
    hint = ENGINE.hint(state, 0)
    assert hint["action"]["type"] == "go_out"
    assert hint["message"].startswith("Go out: discard the ")
    assert ENGINE.hint(state, 1) is None  # not its turn
    state = table([["2S", "KC", "QD", "9H", "7C", "4D", "JS", "5H"], OTHER], round_no=2)
    hint = ENGINE.hint(state, 0)
    assert hint["action"] == ENGINE.bot_action(state, 0)
    card = hint["action"]["card"]
    after = {i["card"]: i["after"] for i in ENGINE.view(state, 0)["you"]["hand"]}[card]
    assert hint["message"] == f"Discard the {label(card)}: {after} points left over."
    hand = ["KS", "KH", "JD", "8C", "6H", "3D", "AC"]
    seven = ["2S", "3S", "4S", "5S", "6S", "8S", "10S"]
    state = table([hand, seven], step="draw", discard=["AH"])
    assert ENGINE.hint(state, 0)["message"] == "Take the A♥: it is wild this round."
    state = table([hand, seven], round_no=2, step="draw", discard=["KD"])
    assert ENGINE.hint(state, 0)["message"] == "Take the K♦: it goes into a combination."
    state = table([hand, seven], round_no=2, step="draw", discard=["9H"])
    assert ENGINE.hint(state, 0)["message"] == "Draw from the stock."


# ---- the game length option -----------------------------------------------------------------


@pytest.mark.parametrize("rounds", [3, 7])
def test_a_shorter_game_ends_after_its_last_round(rounds):
    state = ENGINE.new_game(2, f"thirteen-rounds-{rounds}", {"rounds": rounds})
    assert ENGINE.view(state, 0)["rounds"] == rounds
    while not ENGINE.is_over(state):
        seat = ENGINE.to_act(state)[0]
        ENGINE.apply(state, seat, ENGINE.bot_action(state, seat))
    assert [e["round"] for e in state["sheet"]] == list(range(1, rounds + 1))
    assert ENGINE.result(state)["scores"] == state["sheet"][-1]["totals"]


def test_the_game_length_is_13_rounds_by_default_and_for_a_game_begun_before_the_option():
    assert ENGINE.default_rules() == {"rounds": 13}
    state = ENGINE.new_game(2, "thirteen-default")
    assert ENGINE.view(state, 0)["rounds"] == 13
    state["rules"] = {}
    assert ENGINE.view(state, 0)["rounds"] == 13
    with pytest.raises(IllegalAction, match="Game length must be one of"):
        ENGINE.new_game(2, "thirteen-odd", {"rounds": 5})
