"""Gin Rummy (gameplay/engine/games/gin/rules.md): every test case of §9 on stacked hands,
plus the knocker's tie-break, views, hidden cards and the computer player."""

from __future__ import annotations

from collections import Counter

import pytest

from gameplay.engine import IllegalAction, melds
from gameplay.engine.cards import deck, shuffled
from gameplay.engine.games.gin import engine as gin

from . import conformance as cf

ENGINE = gin.ENGINE
DECK = deck()


def table(
    hands: list[list[str]],
    turn: int = 0,
    step: str = "discard",
    discard: list[str] | None = None,
    stock: list[str] | None = None,
    dealer: int = 1,
    scores: list[int] | None = None,
) -> dict:
    """A game stopped at ``turn``'s ``step`` with these hands; every other card is in the
    discard pile (``discard``, top last) or the stock (the rest unless given)."""
    state = ENGINE.new_game(2, "gin-test")
    used = [c for h in hands for c in h] + (discard or [])
    rest = [c for c in DECK if c not in used]
    state.update(
        hands=[list(h) for h in hands],
        discard=list(discard or []),
        stock=rest if stock is None else list(stock),
        turn=turn,
        step=step,
        taken=None,
        took=[[], []],
        dealer=dealer,
        scores=list(scores or [0, 0]),
    )
    return state


def of_type(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


KNOCKER_11 = ["3H", "4H", "5H", "6H", "8S", "8D", "8C", "2C", "AD", "4C", "KS"]
DEFENDER_5 = ["2H", "7H", "8H", "9C", "9D", "9S", "QS", "QD", "5C", "6S"]


# ---- §9.1 the deal --------------------------------------------------------------------------


def test_deal_from_the_canonical_deck():
    state = ENGINE.new_game(2, "deal")
    state.update(dealer=0, hand_no=0)
    events = gin.deal(state, DECK)
    assert state["hands"][1] == "AS 3S 5S 7S 9S JS KS 2H 4H 6H".split()
    assert state["hands"][0] == "2S 4S 6S 8S 10S QS AH 3H 5H 7H".split()
    assert state["discard"] == ["8H"]
    assert len(state["stock"]) == 31 and state["stock"][0] == "9H"
    assert ENGINE.to_act(state) == [1]
    assert state["step"] == "draw"
    assert events[0] == {
        "type": "hand_dealt",
        "hand_no": 1,
        "dealer": 0,
        "first": 1,
        "up_card": "8H",
    }
    assert [e["seat"] for e in of_type(events, "cards_dealt")] == [1, 0]
    assert all(e["private"] == ["cards"] for e in of_type(events, "cards_dealt"))


def test_new_game_deals_from_the_seeded_shuffle():
    state = ENGINE.new_game(2, "seeded")
    dealer = gin.rng("seeded", "first-dealer", 1).randrange(2)
    order = shuffled(DECK, "seeded", "deal", 1)
    assert state["dealer"] == dealer
    assert state["hands"][1 - dealer] == order[0:20:2]
    assert state["hands"][dealer] == order[1:20:2]
    assert state["discard"] == [order[20]] and state["stock"] == order[21:]
    assert Counter(state["hands"][0] + state["hands"][1] + state["discard"] + state["stock"]) == (
        Counter(DECK)
    )


# ---- §9.2, §9.3 deadwood --------------------------------------------------------------------


def test_deadwood_and_best_split_in_the_view():
    state = table([["AS", "2S", "3S", "7H", "7D", "7C", "KC", "QC", "5D", "9H"], []], step="draw")
    you = ENGINE.view(state, 0)["you"]
    assert you["deadwood"] == 34
    cards = [item["card"] for item in you["hand"]]
    assert [[cards[i] for i in m["positions"]] for m in you["melds"]] == [
        ["AS", "2S", "3S"],
        ["7H", "7D", "7C"],
    ]
    assert [m["kind"] for m in you["melds"]] == ["run", "set"]
    assert [item["meld"] for item in you["hand"]] == [0, 0, 0, 1, 1, 1, None, None, None, None]

    state["hands"][0] = ["4S", "5S", "6S", "6H", "6D", "6C", "9C", "9D", "KH", "2C"]
    assert ENGINE.view(state, 0)["you"]["deadwood"] == 30


# ---- §9.4 knock legality ------------------------------------------------------------------


def test_knock_needs_ten_or_less():
    state = table([KNOCKER_11, DEFENDER_5])
    legal = ENGINE.legal_actions(state, 0)
    assert {"type": "knock", "card": "KS"} in legal
    assert {"type": "knock", "card": "2C"} not in legal
    assert {"type": "discard", "card": "2C"} in legal
    with pytest.raises(IllegalAction, match="10 or less deadwood.*15"):
        ENGINE.apply(state, 0, {"type": "knock", "card": "2C"})
    you = ENGINE.view(state, 0)["you"]
    after = {item["card"]: item["after"] for item in you["hand"]}
    assert after["KS"] == 7 and after["2C"] == 15
    assert [item["card"] for item in you["hand"] if item["can_knock"]] == ["KS"]


# ---- §9.5 lay-offs ------------------------------------------------------------------------


def test_lay_offs_and_a_knock():
    state = table([KNOCKER_11, DEFENDER_5])
    events = ENGINE.apply(state, 0, {"type": "knock", "card": "KS"})
    assert of_type(events, "knocked") == [
        {"type": "knocked", "seat": 0, "card": "KS", "deadwood": 7, "gin": False}
    ]
    scored = of_type(events, "hand_scored")[0]
    assert scored["outcome"] == "knock" and scored["winner"] == 0 and scored["points"] == 24
    assert scored["deadwood"] == [7, 31]
    assert state["scores"] == [24, 0]
    last = ENGINE.view(state, 1)["last_hand"]
    defender = last["hands"][1]
    assert defender["melds"] == [{"kind": "set", "cards": ["9S", "9D", "9C"]}]
    assert {item["card"] for item in defender["laid_off"]} == {"2H", "7H", "8H"}
    assert defender["deadwood_points"] == 31
    knocker = last["hands"][0]
    assert [m["cards"] for m in knocker["melds"]] == [["8S", "8D", "8C"], ["3H", "4H", "5H", "6H"]]
    run = next(i for i, m in enumerate(knocker["melds"]) if m["kind"] == "run")
    assert {item["on"] for item in defender["laid_off"] if item["card"] in ("2H", "7H")} == {run}
    # The next hand is dealt by the other seat.
    assert state["dealer"] == 0 and state["hand_no"] == 2 and ENGINE.to_act(state) == [1]


# ---- §9.6 undercut ------------------------------------------------------------------------


def test_undercut_scores():
    assert gin.score(8, 6) == ("undercut", False, 27)
    assert gin.score(8, 8) == ("undercut", False, 25)
    assert gin.score(8, 9) == ("knock", True, 1)


def test_an_undercut_at_the_table():
    knocker = ["AS", "2S", "3S", "4H", "5H", "6H", "7D", "8D", "9D", "8C", "KS"]
    defender = ["JC", "QC", "KC", "5S", "5D", "5C", "9H", "10H", "JH", "6C"]
    state = table([knocker, defender])
    events = ENGINE.apply(state, 0, {"type": "knock", "card": "KS"})
    scored = of_type(events, "hand_scored")[0]
    assert scored["outcome"] == "undercut" and scored["winner"] == 1 and scored["points"] == 27
    assert state["scores"] == [0, 27]
    assert ENGINE.facts(state, 1)["undercuts"] == 1
    assert ENGINE.facts(state, 0)["undercut_against"] == 1


# ---- §9.7, §9.8 gin -------------------------------------------------------------------------

GIN_HAND = ["AC", "2C", "3C", "4C", "7D", "7H", "7S", "JS", "QS", "KS"]


def test_gin_allows_no_lay_offs():
    defender = ["5C", "5D", "5H", "9S", "9D", "9C", "2H", "3H", "KD", "8C"]
    state = table([GIN_HAND + ["10D"], defender])
    events = ENGINE.apply(state, 0, {"type": "knock", "card": "10D"})
    assert of_type(events, "knocked")[0]["gin"] is True
    scored = of_type(events, "hand_scored")[0]
    assert scored["outcome"] == "gin" and scored["points"] == 48
    assert state["last_hand"]["hands"][1]["laid_off"] == []  # 5C would fit A-4♣ otherwise
    assert ENGINE.facts(state, 0)["gins"] == 1


def test_gin_cannot_be_undercut():
    defender = ["5C", "5D", "5H", "5S", "9S", "9D", "9C", "2H", "3H", "4H"]
    state = table([GIN_HAND + ["10D"], defender])
    events = ENGINE.apply(state, 0, {"type": "knock", "card": "10D"})
    scored = of_type(events, "hand_scored")[0]
    assert scored["outcome"] == "gin" and scored["winner"] == 0 and scored["points"] == 25


# ---- §9.9 runs ------------------------------------------------------------------------------


def test_runs_are_ace_low():
    assert melds.is_meld(["AH", "2H", "3H"])
    assert not melds.is_meld(["QH", "KH", "AH"])
    assert not melds.is_meld(["KH", "AH", "2H"])
    state = table([["QH", "KH", "AH", "5S", "6S", "7S", "2C", "3D", "4D", "9C"], []], step="draw")
    assert ENGINE.view(state, 0)["you"]["deadwood"] == 10 + 10 + 1 + 2 + 3 + 4 + 9


# ---- §9.10 no throw-back ------------------------------------------------------------------


def test_no_throw_back():
    hand = ["3H", "4H", "5H", "6H", "8S", "8D", "8C", "2C", "AD", "4C"]
    state = table([hand, DEFENDER_5], step="draw", discard=["KD", "7C"])
    events = ENGINE.apply(state, 0, {"type": "draw", "from": "discard"})
    assert events == [{"type": "discard_taken", "seat": 0, "card": "7C"}]
    legal = ENGINE.legal_actions(state, 0)
    assert {"type": "discard", "card": "7C"} not in legal
    assert {"type": "knock", "card": "7C"} not in legal
    for kind in ("discard", "knock"):
        with pytest.raises(IllegalAction, match="throw back"):
            ENGINE.apply(state, 0, {"type": kind, "card": "7C"})
    # Everyone sees what seat 0 took; seat 0's own view marks it as kept and known.
    assert ENGINE.view(state, 1)["seats"][0]["took"] == ["7C"]
    assert ENGINE.view(state, None)["seats"][0]["took"] == ["7C"]
    mine = {item["card"]: item for item in ENGINE.view(state, 0)["you"]["hand"]}
    assert mine["7C"]["keep"] and mine["7C"]["known"] and mine["7C"]["drawn"]
    assert ENGINE.view(state, 0)["discard_top"] == "KD"
    # Once discarded later it is no longer known to be held.
    ENGINE.apply(state, 0, {"type": "discard", "card": "AD"})
    ENGINE.apply(state, 1, {"type": "draw", "from": "stock"})
    ENGINE.apply(state, 1, {"type": "discard", "card": "QS"})
    ENGINE.apply(state, 0, {"type": "draw", "from": "stock"})
    ENGINE.apply(state, 0, {"type": "discard", "card": "7C"})
    assert ENGINE.view(state, 1)["seats"][0]["took"] == []


# ---- §9.11 the stock down to 2 ----------------------------------------------------------


def test_stock_down_to_two_is_a_draw_dealt_again_by_the_same_dealer():
    hand = ["3H", "4H", "5H", "6H", "8S", "8D", "8C", "2C", "AD", "KC"]
    rest = [c for c in DECK if c not in hand + DEFENDER_5]
    state = table([hand, DEFENDER_5], step="draw", discard=rest[3:], stock=rest[:3])
    state.update(deal_no=4, hand_no=6)
    ENGINE.apply(state, 0, {"type": "draw", "from": "stock"})
    assert len(state["stock"]) == 2
    before = dict(state)
    events = ENGINE.apply(state, 0, {"type": "discard", "card": "KC"})
    assert of_type(events, "hand_drawn")[0]["stock_left"] == 2
    assert state["scores"] == [0, 0] and state["draws"] == 1 and state["sheet"] == []
    assert state["dealer"] == before["dealer"] == 1
    assert state["deal_no"] == 5 and state["hand_no"] == 7
    order = shuffled(DECK, "gin-test", "deal", 5)
    assert state["hands"][0] == order[0:20:2] and state["discard"] == [order[20]]
    assert state["last_hand"]["outcome"] == "draw"


def test_a_knock_with_two_left_is_scored():
    hand = ["3H", "4H", "5H", "6H", "8S", "8D", "8C", "2C", "AD", "KC"]
    rest = [c for c in DECK if c not in hand + DEFENDER_5 + ["4C"]]
    state = table([hand, DEFENDER_5], step="draw", discard=rest[2:], stock=["4C", *rest[:2]])
    ENGINE.apply(state, 0, {"type": "draw", "from": "stock"})
    events = ENGINE.apply(state, 0, {"type": "knock", "card": "KC"})
    assert of_type(events, "hand_scored")[0]["points"] == 24


# ---- §9.12 winning ------------------------------------------------------------------------


def test_reaching_100_wins():
    state = table([KNOCKER_11, DEFENDER_5], scores=[95, 0])
    events = ENGINE.apply(state, 0, {"type": "knock", "card": "KS"})
    assert state["scores"] == [119, 0]
    assert ENGINE.is_over(state)
    assert ENGINE.result(state) == {"scores": [119, 0], "winners": [0], "ranking": [[0], [1]]}
    assert of_type(events, "game_ended") == [
        {"type": "game_ended", "winners": [0], "scores": [119, 0]}
    ]
    cf.check_after_end(ENGINE, state)
    assert ENGINE.facts(state, 0) == {
        "won": 1,
        "points": 119,
        "hands_won": 1,
        "gins": 0,
        "undercuts": 0,
        "knocks": 1,
        "undercut_against": 0,
        "best_hand": 24,
    }


def test_an_undercut_can_win_the_game():
    knocker = ["AS", "2S", "3S", "4H", "5H", "6H", "7D", "8D", "9D", "8C", "KS"]
    defender = ["JC", "QC", "KC", "5S", "5D", "5C", "9H", "10H", "JH", "6C"]
    state = table([knocker, defender], scores=[0, 80])
    ENGINE.apply(state, 0, {"type": "knock", "card": "KS"})
    assert state["scores"] == [0, 107]
    assert ENGINE.result(state)["winners"] == [1]


# ---- the knocker's arrangement among ties (§3) --------------------------------------------

TIED = ["5S", "6S", "7S", "8S", "9S", "10S", "AH", "5H", "5D", "5C"]


def test_the_knocker_keeps_the_arrangement_that_leaves_the_defender_most():
    # Run 5-10♠ + three fives, or four fives + run 6-10♠: both leave 1. The defender holds
    # 4S, which only the first lets it lay off; the engine takes the second.
    defender = ["4S", "QH", "QD", "2C", "3C", "9H", "JC", "8D", "3D", "KH"]
    state = table([TIED + ["KD"], defender])
    ENGINE.apply(state, 0, {"type": "knock", "card": "KD"})
    shown = state["last_hand"]["hands"][0]["melds"]
    assert [m["cards"] for m in shown] == [
        ["5S", "5H", "5D", "5C"],
        ["6S", "7S", "8S", "9S", "10S"],
    ]
    assert state["last_hand"]["hands"][1]["laid_off"] == []


def test_otherwise_the_first_in_card_order():
    defender = ["2H", "QH", "QD", "2C", "3C", "9H", "JC", "8D", "3D", "KH"]
    arrangement, _ = gin.settle(TIED, defender)
    assert arrangement.melds == (("5S", "6S", "7S", "8S", "9S", "10S"), ("5H", "5D", "5C"))


# ---- turns, refusals, views ----------------------------------------------------------------


def test_turn_order_and_refusals():
    state = table([KNOCKER_11[:10], DEFENDER_5], step="draw", discard=["KS"])
    with pytest.raises(IllegalAction, match="not your turn"):
        ENGINE.apply(state, 1, {"type": "draw", "from": "stock"})
    with pytest.raises(IllegalAction, match="Draw a card first"):
        ENGINE.apply(state, 0, {"type": "discard", "card": "3H"})
    with pytest.raises(IllegalAction, match='"stock" or "discard"'):
        ENGINE.apply(state, 0, {"type": "draw", "from": "deck"})
    events = ENGINE.apply(state, 0, {"type": "draw", "from": "stock"})
    assert events[0]["private"] == ["card"] and events[0]["stock_left"] == 30
    with pytest.raises(IllegalAction, match="already drawn"):
        ENGINE.apply(state, 0, {"type": "draw", "from": "stock"})
    with pytest.raises(IllegalAction, match="don't hold"):
        ENGINE.apply(state, 0, {"type": "discard", "card": "QS"})
    ENGINE.apply(state, 0, {"type": "discard", "card": "2C"})
    assert ENGINE.to_act(state) == [1] and state["discard"][-1] == "2C"


def test_empty_discard_pile_means_the_stock():
    state = table([KNOCKER_11[:10], DEFENDER_5], step="draw", discard=[])
    assert ENGINE.legal_actions(state, 0) == [{"type": "draw", "from": "stock"}]
    with pytest.raises(IllegalAction, match="discard pile is empty"):
        ENGINE.apply(state, 0, {"type": "draw", "from": "discard"})


def test_views_hide_the_other_hand_and_the_stock():
    state = ENGINE.new_game(2, "views")
    first = ENGINE.to_act(state)[0]
    for seat in (None, 0, 1):
        view = cf.check_view(ENGINE, state, seat)
        assert view["stock_count"] == 31 and view["seats"][0]["cards"] == 10
        text = str(view)
        for s in (0, 1):
            if s != seat:
                assert not any(f"'{c}'" in text for c in state["hands"][s])
        assert state["stock"][0] not in text
    assert "you" not in ENGINE.view(state, None)
    assert ENGINE.view(state, first)["you"]["your_turn"]


def test_the_end_of_a_hand_shows_both_hands_to_everyone():
    state = table([KNOCKER_11, DEFENDER_5])
    ENGINE.apply(state, 0, {"type": "knock", "card": "KS"})
    for seat in (None, 0, 1):
        view = cf.check_view(ENGINE, state, seat)
        last = view["last_hand"]
        shown = [c for hand in last["hands"] for m in hand["melds"] for c in m["cards"]]
        shown += [i["card"] for hand in last["hands"] for i in hand["laid_off"]]
        shown += [c for hand in last["hands"] for c in hand["deadwood"]]
        assert sorted(shown) == sorted(KNOCKER_11[:10] + DEFENDER_5)
        assert view["sheet"][0]["points"] == 24 and view["sheet"][0]["outcome"] == "knock"


# ---- the computer player --------------------------------------------------------------------


def test_bot_takes_a_discard_that_melds_and_otherwise_draws():
    hand = ["3H", "4H", "5H", "8S", "8D", "2C", "AD", "4C", "KS", "QD"]
    state = table([hand, DEFENDER_5], step="draw", discard=["8C"])
    assert ENGINE.bot_action(state, 0) == {"type": "draw", "from": "discard"}
    state = table([hand, DEFENDER_5], step="draw", discard=["JC"])
    assert ENGINE.bot_action(state, 0) == {"type": "draw", "from": "stock"}


def test_bot_goes_gin_and_knocks_early():
    state = table([GIN_HAND + ["10D"], DEFENDER_5])
    assert ENGINE.bot_action(state, 0) == {"type": "knock", "card": "10D"}
    state = table([KNOCKER_11, DEFENDER_5])
    assert ENGINE.bot_action(state, 0) == {"type": "knock", "card": "KS"}
    # Late in the hand, 7 is too much to risk an undercut.
    state["stock"] = state["stock"][:6]
    assert ENGINE.bot_action(state, 0)["type"] == "discard"


def test_bot_keeps_pairs_and_avoids_feeding():
    hand = ["3H", "4H", "5H", "8S", "8D", "8C", "AD", "2C", "KS", "KD", "QC"]
    state = table([hand, DEFENDER_5])
    assert ENGINE.bot_action(state, 0) == {"type": "discard", "card": "QC"}  # not a king
    hand = ["3H", "4H", "5H", "8S", "8D", "8C", "AD", "2C", "KS", "QD", "JC"]
    state = table([hand, DEFENDER_5])
    assert ENGINE.bot_action(state, 0) == {"type": "discard", "card": "JC"}
    # The opponent took the JH: the bot keeps its jack away from it.
    state["stock"].remove("JH")
    state["hands"][1][0] = "JH"
    state["took"][1] = ["JH"]
    assert ENGINE.bot_action(state, 0) == {"type": "discard", "card": "KS"}


# ---- what the table shows -----------------------------------------------------------------


def test_every_view_tells_the_latest_turns_and_shows_the_other_hand_face_down():
    hand = ["3H", "4H", "5H", "6H", "8S", "8D", "8C", "2C", "AD", "4C"]
    state = table([hand, DEFENDER_5], step="draw", discard=["KD", "7C"])
    ENGINE.apply(state, 0, {"type": "draw", "from": "discard"})
    ENGINE.apply(state, 0, {"type": "discard", "card": "AD"})
    ENGINE.apply(state, 1, {"type": "draw", "from": "stock"})
    for seat in (None, 0, 1):
        view = cf.check_view(ENGINE, state, seat)
        assert view["turns"] == [
            {"seat": 0, "drew": "discard", "took": "7C", "discarded": "AD"},
            {"seat": 1, "drew": "stock", "took": None, "discarded": None},
        ]
    # The other hand: what it took from the pile face up, a face-down card for each other one.
    assert ENGINE.view(state, 1)["seats"][0]["took"] == ["7C"]
    assert ENGINE.view(state, 1)["seats"][0]["down"] == ["??"] * 9
    assert ENGINE.view(state, None)["seats"][1]["down"] == ["??"] * 11
    assert ENGINE.view(state, 0)["seats"][0]["down"] == []
    # A seat's new turn replaces its last one; a new hand starts with none.
    ENGINE.apply(state, 1, {"type": "discard", "card": "QS"})
    ENGINE.apply(state, 0, {"type": "draw", "from": "stock"})
    assert ENGINE.view(state, 1)["turns"] == [
        {"seat": 1, "drew": "stock", "took": None, "discarded": "QS"},
        {"seat": 0, "drew": "stock", "took": None, "discarded": None},
    ]
    state = table([KNOCKER_11, DEFENDER_5])
    ENGINE.apply(state, 0, {"type": "knock", "card": "KS"})
    assert cf.check_view(ENGINE, state, 1)["turns"] == []


def test_hint_is_the_computer_players_choice_in_words():
    state = table([KNOCKER_11, DEFENDER_5])
    assert ENGINE.hint(state, 0) == {
        "action": {"type": "knock", "card": "KS"},
        "message": "Knock, discarding the K♠: 7 deadwood.",
    }
    assert ENGINE.hint(state, 1) is None  # not its turn
    state = table([GIN_HAND + ["10D"], DEFENDER_5])
    assert ENGINE.hint(state, 0)["message"] == "Go gin: discard the 10♦."
    hand = ["3H", "4H", "5H", "8S", "8D", "2C", "AD", "4C", "KS", "QD"]
    state = table([hand + ["JC"], DEFENDER_5])
    assert ENGINE.hint(state, 0) == {
        "action": {"type": "discard", "card": "JC"},
        "message": "Discard the J♣: 43 deadwood left.",
    }
    state = table([hand, DEFENDER_5], step="draw", discard=["8C"])
    assert ENGINE.hint(state, 0)["message"] == "Take the 8♣: it goes into a meld."
    state = table([hand, DEFENDER_5], step="draw", discard=["JC"])
    assert ENGINE.hint(state, 0)["message"] == "Draw from the stock."


# ---- the game length option -----------------------------------------------------------------


def bot_game(seed: str, rules: dict | None = None) -> dict:
    state = ENGINE.new_game(2, seed, rules)
    while not ENGINE.is_over(state):
        seat = ENGINE.to_act(state)[0]
        ENGINE.apply(state, seat, ENGINE.bot_action(state, seat))
    return state


@pytest.mark.parametrize("target", [25, 50])
def test_a_shorter_game_ends_at_the_first_hand_that_reaches_its_target(target):
    state = bot_game(f"gin-target-{target}", {"target": target})
    totals = [e["scores"][e["winner"]] for e in state["sheet"] if e["winner"] is not None]
    assert totals[-1] >= target and all(t < target for t in totals[:-1])
    assert ENGINE.result(state)["winners"] == [state["winner"]]
    assert ENGINE.view(state, 0)["target"] == target


def test_the_game_length_is_first_to_100_by_default_and_one_of_the_offered_targets():
    assert ENGINE.default_rules() == {"target": 100}
    assert ENGINE.view(ENGINE.new_game(2, "gin-default"), 0)["target"] == 100
    with pytest.raises(IllegalAction, match="Game length must be one of"):
        ENGINE.new_game(2, "gin-odd", {"target": 30})


def test_a_game_begun_before_the_option_plays_to_100():
    state = table([KNOCKER_11[:10], DEFENDER_5], scores=[90, 0])
    state["rules"] = {}
    assert gin.target(state) == 100 and ENGINE.view(state, 0)["target"] == 100
