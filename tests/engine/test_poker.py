"""Poker (gameplay/engine/games/poker/rules.md): every test case of §9 on stacked decks, plus
the engine's rules, views, illegal input, the bot and a property test over random games."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameplay.engine import IllegalAction, registry
from gameplay.engine.cards import deck, rng, shuffled
from gameplay.engine.core import redact_event
from gameplay.engine.games.poker import engine as poker
from gameplay.engine.games.poker import evaluator as pe
from gameplay.engine.games.poker import holds as ph
from gameplay.engine.games.poker.engine import ENGINE, deal_hand, split_pot

DECK = deck(jokers=2)


def stacked(chips, dealer, hands, draws=()):
    """A game at the start of a hand: stacks before the ante, the dealer, each seat's five
    cards (None for a seat with no chips) and the next cards of the deck after the deal."""
    n = len(chips)
    state = ENGINE.new_game(n, "stacked")
    state["chips"] = list(chips)
    state["out"] = [c == 0 for c in chips]
    state["hand_no"] = 0
    order = [(dealer + i) % n for i in range(1, n + 1) if chips[(dealer + i) % n]]
    dealt = [hands[s][k] for k in range(5) for s in order]
    used = set(dealt) | set(draws)
    cards = dealt + list(draws) + [c for c in DECK if c not in used]
    assert len(cards) == 54 and len(set(cards)) == 54
    deal_hand(state, dealer=dealer, cards=cards)
    return state


def act(state, seat, kind, **fields):
    return ENGINE.apply(state, seat, {"type": kind, **fields})


def types(events):
    return [e["type"] for e in events]


def legal_types(state, seat):
    return [a["type"] for a in ENGINE.legal_actions(state, seat)]


def value(cards):
    return pe.evaluate_cards(cards)


# ---- §9 cases 1-7: hand ranking ------------------------------------------------------------


def test_case_1_five_aces_beat_the_ace_high_straight_flush():
    five = value(["JK1", "JK2", "AS", "AH", "AD"])
    assert pe.decode(five) == (pe.FIVE_OF_A_KIND, (14,))
    royal = value(["10H", "JH", "QH", "KH", "AH"])
    assert pe.decode(royal) == (pe.STRAIGHT_FLUSH, (14,))
    assert five > royal


def test_case_2_joker_completes_the_ace_high_straight_flush():
    assert pe.decode(value(["JK1", "10H", "JH", "QH", "KH"])) == (pe.STRAIGHT_FLUSH, (14,))


def test_case_3_joker_makes_a_six_high_straight_not_a_wheel():
    assert pe.decode(value(["JK1", "2S", "3D", "4C", "5H"])) == (pe.STRAIGHT, (6,))


def test_case_4_the_wheel_is_lowest_and_there_is_no_wrap():
    wheel = value(["AS", "2D", "3C", "4H", "5S"])
    assert pe.decode(wheel) == (pe.STRAIGHT, (5,))
    assert wheel < value(["2C", "3H", "4S", "5D", "6C"])
    assert pe.decode(value(["QH", "KD", "AS", "2C", "3S"]))[0] == pe.HIGH_CARD


def test_case_5_joker_makes_nines_full_of_fours():
    assert pe.decode(value(["JK1", "9S", "9D", "4C", "4H"])) == (pe.FULL_HOUSE, (9, 4))


def test_case_6_joker_is_a_second_ace_of_spades_in_a_flush():
    flush = value(["JK1", "AS", "KS", "9S", "4S"])
    assert pe.decode(flush) == (pe.FLUSH_CATEGORY, (14, 14, 13, 9, 4))
    assert flush > value(["AH", "KH", "QH", "JH", "9H"])


def test_case_7_kicker_and_tie():
    assert value(["KS", "KD", "7H", "7C", "2S"]) < value(["KH", "KC", "7S", "7D", "AS"])
    assert value(["10S", "JD", "QC", "KH", "AS"]) == value(["10H", "JS", "QD", "KC", "AH"])


def test_case_7_the_tie_splits_the_pot():
    state = stacked(
        [100, 100],
        dealer=0,
        hands=[["10S", "JD", "QC", "KH", "AS"], ["10H", "JS", "QD", "KC", "AH"]],
    )
    for seat in (1, 0):
        act(state, seat, "check")
    for seat in (1, 0):
        act(state, seat, "draw", hold=list(state["hands"][seat]))
    act(state, 1, "check")
    events = act(state, 0, "check")
    won = [e for e in events if e["type"] == "pot_won"]
    assert [(e["seat"], e["amount"]) for e in won] == [(0, 2), (1, 2)]
    assert state["last_hand"]["winners"] == [0, 1]
    assert state["last_hand"]["hand_name"] == "Straight"
    assert state["chips"][:2] == [98, 98]  # back to 100 each, less the next hand's ante


# ---- §9 case 8: the cap and the raise limits -------------------------------------------------


def test_case_8_cap_and_raise_limits():
    state = stacked(
        [135, 135, 30],
        dealer=0,
        hands=[
            ["AS", "AH", "AD", "AC", "KS"],
            ["2S", "3D", "5C", "8H", "9D"],
            ["KH", "KD", "7C", "4H", "2C"],
        ],
    )
    assert state["cap"] == 30 and state["pot"] == 6 and state["round"]["room"] == 28
    assert ENGINE.to_act(state) == [1]

    act(state, 1, "raise")
    assert state["round"]["level"] == 5
    act(state, 2, "raise")
    assert state["round"]["level"] == 10
    act(state, 0, "raise")
    assert state["round"]["level"] == 15
    assert "raise" not in legal_types(state, 1)
    with pytest.raises(IllegalAction, match="3 raises"):
        act(state, 1, "raise")
    assert act(state, 1, "call")[0]["amount"] == 10
    assert act(state, 2, "call")[0]["amount"] == 5
    assert state["pot"] == 51 and state["bets"] == [17, 17, 17]
    assert state["phase"] == "draw"

    for seat in (1, 2, 0):
        act(state, seat, "draw", hold=list(state["hands"][seat]))
    assert state["phase"] == "bet2" and state["round"]["room"] == 13

    act(state, 1, "raise")
    assert state["round"]["level"] == 10
    act(state, 2, "raise")
    assert state["round"]["level"] == 13  # cut down to the room
    assert state["chips"][2] == 0
    assert "raise" not in legal_types(state, 0)
    with pytest.raises(IllegalAction, match="table limit"):
        act(state, 0, "raise")
    assert act(state, 0, "call")[0]["amount"] == 13
    events = act(state, 1, "call")
    assert events[0]["amount"] == 3
    assert state["last_hand"]["pot"] == 90
    assert [(e["seat"], e["amount"]) for e in events if e["type"] == "pot_won"] == [(0, 90)]
    assert {"type": "player_out", "seat": 2, "hand_no": 1} in events
    assert state["out"] == [False, False, True]
    assert state["hand_no"] == 2 and state["hands"][2] == []


# ---- §9 case 9: a cap of 1 -------------------------------------------------------------------


def test_case_9_cap_of_one_means_checks_only():
    state = stacked(
        [1, 199],
        dealer=0,
        hands=[["2S", "3D", "5C", "8H", "9D"], ["AS", "AH", "7D", "4C", "2C"]],
    )
    assert state["cap"] == 1 and state["ante"] == 1 and state["pot"] == 2
    for phase_seats in ((1, 0),):
        for seat in phase_seats:
            assert legal_types(state, seat) == ["check", "fold"]
            act(state, seat, "check")
    for seat in (1, 0):
        act(state, seat, "draw", hold=list(state["hands"][seat]))
    assert state["round"]["room"] == 0
    assert legal_types(state, 1) == ["check", "fold"]
    act(state, 1, "check")
    assert legal_types(state, 0) == ["check", "fold"]
    events = act(state, 0, "check")
    assert state["last_hand"]["pot"] == 2 and state["last_hand"]["winners"] == [1]
    assert "hands_shown" in types(events)
    assert ENGINE.is_over(state)
    assert ENGINE.result(state) == {"scores": [0, 200], "winners": [1], "ranking": [[1], [0]]}


# ---- §9 case 10: everyone folds --------------------------------------------------------------


def test_case_10_everyone_folds():
    state = stacked(
        [100, 100, 100],
        dealer=0,
        hands=[
            ["AS", "AH", "AD", "AC", "KS"],
            ["2S", "3D", "5C", "8H", "9D"],
            ["KH", "KD", "7C", "4H", "2C"],
        ],
    )
    act(state, 1, "raise")
    act(state, 2, "fold")
    events = act(state, 0, "fold")
    assert types(events)[:2] == ["folded", "pot_won"]
    assert events[1] == {
        "type": "pot_won",
        "seat": 1,
        "amount": 11,
        "by_fold": True,
        "hand": None,
    }
    assert "draw_started" not in types(events) and "hands_shown" not in types(events)
    last = state["last_hand"]
    assert last["by_fold"] and last["shown"] == [None, None, None] and last["hand_name"] is None
    # The next hand is dealt at once, the button moved left.
    assert state["hand_no"] == 2 and state["dealer"] == 1 and state["phase"] == "bet1"
    assert state["chips"] == [98 - 2, 104 - 2, 98 - 2]
    for seat in (0, 1, 2, None):
        assert ENGINE.visible_cards(state, seat) == Counter(
            state["hands"][seat] if seat is not None else []
        )


# ---- §9 case 11: the odd chip ------------------------------------------------------------------


def test_case_11_odd_chip_goes_left_of_the_dealer():
    assert split_pot(13, [0, 2], dealer=0, players=3) == [6, 0, 7]
    assert split_pot(13, [0, 2], dealer=2, players=3) == [7, 0, 6]
    assert split_pot(14, [0, 1, 3], dealer=3, players=4) == [5, 5, 0, 4]


def test_case_11_odd_chip_in_play():
    # Cap 3: the ante is 2 and the room 1, so a pot of 9 when all three call the raise.
    state = stacked(
        [3, 100, 100],
        dealer=0,
        hands=[
            ["10S", "JD", "QC", "KH", "AS"],
            ["2S", "3D", "5C", "8H", "9D"],
            ["10H", "JS", "QD", "KC", "AH"],
        ],
    )
    act(state, 1, "raise")
    assert state["round"]["level"] == 1
    act(state, 2, "call")
    act(state, 0, "call")
    for seat in (1, 2, 0):
        act(state, seat, "draw", hold=list(state["hands"][seat]))
    act(state, 1, "fold")
    act(state, 2, "check")
    events = act(state, 0, "check")
    assert [(e["seat"], e["amount"]) for e in events if e["type"] == "pot_won"] == [
        (0, 4),
        (2, 5),
    ]


def test_facts_count_the_hands_and_the_biggest_pot_each_seat_won():
    state = stacked(
        [3, 100, 100],
        dealer=0,
        hands=[
            ["10S", "JD", "QC", "KH", "AS"],
            ["2S", "3D", "5C", "8H", "9D"],
            ["10H", "JS", "QD", "KC", "AH"],
        ],
    )
    act(state, 1, "raise")
    act(state, 2, "call")
    act(state, 0, "call")
    for seat in (1, 2, 0):
        act(state, seat, "draw", hold=list(state["hands"][seat]))
    act(state, 1, "fold")
    act(state, 2, "check")
    act(state, 0, "check")  # the pot of 9 is split 4 and 5
    assert [ENGINE.facts(state, s)["biggest_pot"] for s in range(3)] == [4, 0, 5]
    assert [ENGINE.facts(state, s)["hands_won"] for s in range(3)] == [1, 0, 1]
    assert ENGINE.facts(state, 1)["chips"] == state["chips"][1]


def test_facts_count_five_of_a_kind_shown_at_a_showdown_win_or_lose():
    state = stacked(
        [100, 100, 100],
        dealer=0,
        hands=[
            ["JK1", "JK2", "KS", "KH", "KD"],  # five Kings
            ["9S", "9H", "9D", "9C", "2S"],  # four Nines: shown, not five
            ["AS", "AH", "AD", "AC", "3S"],  # folds: never shown
        ],
    )
    act(state, 1, "check")
    act(state, 2, "fold")
    act(state, 0, "check")
    for seat in (1, 0):
        act(state, seat, "draw", hold=list(state["hands"][seat]))
    act(state, 1, "check")
    act(state, 0, "check")
    assert [ENGINE.facts(state, s)["five_of_a_kind"] for s in range(3)] == [1, 0, 0]


# ---- §9 case 12: the draw ---------------------------------------------------------------------


def test_case_12_draw_replaces_the_discards_from_the_top():
    state = stacked(
        [100, 100],
        dealer=0,
        hands=[["AS", "AH", "AD", "QC", "JS"], ["KS", "KD", "7C", "4H", "2S"]],
        draws=["2C", "9H", "4D"],
    )
    act(state, 1, "check")
    act(state, 0, "check")
    assert state["phase"] == "draw" and ENGINE.to_act(state) == [1]
    events = act(state, 1, "draw", hold=["KS", "KD"])
    assert state["hands"][1] == ["KS", "KD", "2C", "9H", "4D"]
    drawn = events[0]
    assert drawn["type"] == "cards_drawn" and drawn["count"] == 3
    assert drawn["discarded"] == ["7C", "4H", "2S"] and drawn["drawn"] == ["2C", "9H", "4D"]
    hidden = redact_event(drawn, 0)
    assert hidden["drawn"] == ["??"] * 3 and hidden["discarded"] == ["??"] * 3
    assert ENGINE.view(state, 0)["drawn"] == [None, 3]
    # Standing pat draws nothing.
    act(state, 0, "draw", hold=["AS", "AH", "AD", "QC", "JS"])
    assert state["hands"][0] == ["AS", "AH", "AD", "QC", "JS"] and state["drawn"][0] == 0
    assert state["phase"] == "bet2"


def test_draw_keeps_the_hand_order_whatever_order_the_hold_is_named_in():
    state = stacked(
        [100, 100],
        dealer=0,
        hands=[["AS", "AH", "AD", "QC", "JS"], ["KS", "KD", "7C", "4H", "2S"]],
        draws=["2C", "9H", "4D"],
    )
    act(state, 1, "check")
    act(state, 0, "check")
    act(state, 1, "draw", hold=["4H", "KS"])
    assert state["hands"][1] == ["KS", "4H", "2C", "9H", "4D"]


# ---- §9 case 13: Suggest holds -------------------------------------------------------------------

SUGGEST_CASES = [
    (["KS", "KD", "7C", "4H", "2S"], ["KS", "KD"]),
    (["JK1", "9D", "7H", "4C", "2S"], ["JK1", "9D"]),
    (["AS", "KS", "9S", "4S", "2H"], ["AS", "KS", "9S", "4S"]),
    (["5C", "6D", "7H", "8S", "KD"], ["5C", "6D", "7H", "8S"]),
    (["2S", "3S", "4S", "5S", "6S"], ["2S", "3S", "4S", "5S", "6S"]),
    (["AH", "9C", "7D", "4S", "2H"], ["AH"]),
    (["9H", "8C", "6D", "4S", "2H"], []),
]


@pytest.mark.parametrize("hand, hold", SUGGEST_CASES)
def test_case_13_suggest_holds(hand, hold):
    assert ph.rule_hold(hand) == hold


@pytest.mark.parametrize(
    "hand, hold",
    [
        (["JK1", "9S", "9D", "7C", "2H"], ["JK1", "9S", "9D"]),  # 2: trips with the joker
        (["JK1", "JK2", "KD", "7C", "2H"], ["JK1", "JK2", "KD"]),  # 2: two jokers
        (["8H", "8D", "5C", "5S", "KD"], ["8H", "8D", "5C", "5S"]),  # 3: two pair
        (["JK1", "QH", "8H", "3H", "5C"], ["JK1", "QH", "8H", "3H"]),  # 4: joker as a heart
        (["10C", "JD", "QH", "KS", "3D"], ["10C", "JD", "QH", "KS"]),  # 6: 10-J-Q-K
        (["JC", "QD", "KH", "AS", "3D"], ["AS"]),  # J-Q-K-A is not open-ended
        (["2C", "3D", "4H", "6S", "8D"], []),  # no four in a row
        (["3C", "4D", "5H", "6S", "7D"], ["3C", "4D", "5H", "6S", "7D"]),  # 1: a straight
    ],
)
def test_suggest_holds_other_rules(hand, hold):
    assert ph.rule_hold(hand) == hold


def test_case_13_suggested_hold_is_in_the_view_during_the_draw():
    state = stacked(
        [100, 100],
        dealer=0,
        hands=[["AS", "KS", "9S", "4S", "2H"], ["JK1", "9D", "7H", "4C", "2S"]],
    )
    assert ENGINE.view(state, 1)["suggested_hold"] is None
    act(state, 1, "check")
    act(state, 0, "check")
    view = ENGINE.view(state, 1)
    assert view["suggested_hold"] == [0, 1]  # positions in the hand: JK1 9D
    assert view["you"]["best_hold"]["positions"] == [0]  # the exact adviser keeps the joker
    assert 0 < view["you"]["best_hold"]["expected_strength"] < 1
    assert ENGINE.view(state, 0)["suggested_hold"] == [0, 1, 2, 3]
    assert ENGINE.view(state, None).get("suggested_hold") is None


# ---- §9 case 14: elimination -------------------------------------------------------------------


def test_case_14_elimination_and_ranking():
    # Seat 0 (20 chips) goes all in and loses; seat 2 antes and folds: [0, 120, 180].
    state = stacked(
        [20, 98, 182],
        dealer=0,
        hands=[
            ["KH", "KD", "7C", "4H", "2C"],
            ["AS", "AH", "AD", "AC", "KS"],
            ["2S", "3D", "5C", "8H", "9D"],
        ],
    )
    act(state, 1, "raise")
    act(state, 2, "fold")
    act(state, 0, "raise")
    act(state, 1, "raise")
    act(state, 0, "call")
    for seat in (1, 0):
        act(state, seat, "draw", hold=list(state["hands"][seat]))
    act(state, 1, "raise")
    events = act(state, 0, "call")
    assert state["out"] == [True, False, False]
    assert state["eliminated"] == [[0]]
    assert [c + b for c, b in zip(state["chips"], state["bets"], strict=True)] == [0, 120, 180]
    # The next hand has 2 seats.
    assert state["hand_no"] == 2 and state["hands"][0] == [] and state["dealer"] == 1
    started = next(e for e in events if e["type"] == "hand_started")
    assert started["seats"] == [2, 1]
    assert ENGINE.result(state)["ranking"] == [[2], [1], [0]]
    assert not ENGINE.is_over(state)

    # Seat 1 is left with 5 chips and loses them: seat 2 wins the game.
    state["chips"] = [0, 5, 295]
    state["hand_no"] = 2
    deal_hand(
        state,
        dealer=1,
        cards=["AS", "2S", "AH", "3D", "AD", "5C", "AC", "8H", "KS", "9D"]
        + [
            c for c in DECK if c not in {"AS", "2S", "AH", "3D", "AD", "5C", "AC", "8H", "KS", "9D"}
        ],
    )
    assert state["hands"][2] == ["AS", "AH", "AD", "AC", "KS"] and state["cap"] == 5
    act(state, 2, "raise")
    act(state, 1, "call")
    act(state, 2, "draw", hold=list(state["hands"][2]))
    act(state, 1, "draw", hold=list(state["hands"][1]))
    act(state, 2, "check")
    events = act(state, 1, "check")
    assert ENGINE.is_over(state)
    assert events[-1]["type"] == "game_won" and events[-1]["seat"] == 2
    assert ENGINE.result(state) == {
        "scores": [0, 0, 300],
        "winners": [2],
        "ranking": [[2], [1], [0]],
    }
    assert ENGINE.to_act(state) == [] and ENGINE.legal_actions(state, 2) == []


def test_seats_out_in_the_same_hand_rank_together():
    state = stacked(
        [10, 10, 200],
        dealer=2,
        hands=[
            ["KH", "KD", "7C", "4H", "2C"],
            ["QS", "QD", "6C", "5H", "3C"],
            ["AS", "AH", "AD", "AC", "KS"],
        ],
    )
    # Order: 0, 1, 2. Cap 10: the room is 8, then 0.
    act(state, 0, "raise")
    act(state, 1, "call")
    act(state, 2, "raise")
    act(state, 0, "call")
    act(state, 1, "call")
    assert state["bets"] == [10, 10, 10] and state["chips"][:2] == [0, 0]
    for seat in (0, 1, 2):
        act(state, seat, "draw", hold=list(state["hands"][seat]))
    assert state["round"]["room"] == 0
    for seat in (0, 1, 2):
        act(state, seat, "check")
    assert ENGINE.is_over(state)
    assert ENGINE.result(state) == {
        "scores": [0, 0, 220],
        "winners": [2],
        "ranking": [[2], [0, 1]],
    }


# ---- dealing, the button, randomness ------------------------------------------------------------


def test_first_dealer_and_deal_come_from_the_seed():
    for players in (2, 3, 4):
        seed = f"deal-{players}"
        state = ENGINE.new_game(players, seed)
        dealer = rng(seed, "first-dealer", 1).randrange(players)
        assert state["dealer"] == dealer
        cards = shuffled(DECK, seed, "deal", 1)
        order = [(dealer + i) % players for i in range(1, players + 1)]
        for k, seat in enumerate(order):
            assert state["hands"][seat] == cards[k : 5 * players : players]
        assert state["deck"] == cards[5 * players :]
        assert state["pot"] == 2 * players and state["chips"] == [98] * players
        assert ENGINE.to_act(state) == [order[0]]


def test_the_button_moves_left_past_seats_that_are_out():
    state = stacked(
        [100, 0, 100, 100],
        dealer=0,
        hands=[
            ["2S", "3D", "5C", "8H", "9D"],
            None,
            ["KH", "KD", "7C", "4H", "2C"],
            ["QS", "QD", "6C", "5H", "3C"],
        ],
    )
    assert ENGINE.to_act(state) == [2]
    act(state, 2, "fold")
    act(state, 3, "fold")
    assert state["dealer"] == 2 and ENGINE.to_act(state) == [3]
    act(state, 3, "fold")
    act(state, 0, "fold")
    assert state["dealer"] == 3 and ENGINE.to_act(state) == [0]
    act(state, 0, "fold")
    act(state, 2, "fold")
    assert state["dealer"] == 0 and state["hand_no"] == 4


def test_fold_is_allowed_when_checking_is_free():
    state = ENGINE.new_game(2, "fold-free")
    seat = ENGINE.to_act(state)[0]
    assert legal_types(state, seat) == ["check", "raise", "fold"]


# ---- illegal input ------------------------------------------------------------------------------


def test_illegal_actions_say_why_and_change_nothing():
    state = stacked(
        [100, 100],
        dealer=0,
        hands=[["AS", "AH", "AD", "QC", "JS"], ["KS", "KD", "7C", "4H", "2S"]],
    )
    cases = [
        (0, {"type": "check"}, "not your turn"),
        (1, {"type": "call"}, "no bet to call"),
        (1, {"type": "draw", "hold": []}, "can't draw now"),
        (1, {"type": "bet"}, "no action 'bet'"),
    ]
    for seat, action, message in cases:
        before = repr(state)
        with pytest.raises(IllegalAction, match=message):
            ENGINE.apply(state, seat, action)
        assert repr(state) == before
    act(state, 1, "raise")
    with pytest.raises(IllegalAction, match="costs 5 to call"):
        act(state, 0, "check")
    act(state, 0, "call")
    assert state["phase"] == "draw"
    draw_cases = [
        ({"type": "draw"}, "Say which cards to hold"),
        ({"type": "draw", "hold": "KS"}, "Say which cards to hold"),
        ({"type": "draw", "hold": ["ZZ"]}, "not a card"),
        ({"type": "draw", "hold": [7]}, "not a card"),
        ({"type": "draw", "hold": ["AS"]}, "don't hold the A♠"),
        ({"type": "draw", "hold": ["KS", "KS"]}, "twice"),
        ({"type": "draw", "hold": ["KS"] * 6}, "at most"),
        ({"type": "check"}, "It is the draw"),
    ]
    for action, message in draw_cases:
        before = repr(state)
        with pytest.raises(IllegalAction, match=message):
            ENGINE.apply(state, 1, action)
        assert repr(state) == before


def test_legal_draws_are_all_32_holds_in_hand_order():
    state = stacked(
        [100, 100],
        dealer=0,
        hands=[["AS", "AH", "AD", "QC", "JS"], ["KS", "KD", "7C", "4H", "2S"]],
    )
    act(state, 1, "check")
    act(state, 0, "check")
    legal = ENGINE.legal_actions(state, 1)
    assert len(legal) == 32 and legal[0]["hold"] == state["hands"][1]
    assert legal[-1]["hold"] == [] and ENGINE.legal_actions(state, 0) == []


# ---- views ------------------------------------------------------------------------------------


def test_view_shows_own_hand_only_until_the_showdown():
    state = stacked(
        [100, 100, 100],
        dealer=0,
        hands=[
            ["AS", "AH", "AD", "AC", "KS"],
            ["2S", "3D", "5C", "8H", "9D"],
            ["KH", "KD", "7C", "4H", "2C"],
        ],
    )
    view = ENGINE.view(state, 1)
    assert view["hands"] == [["??"] * 5, ["2S", "3D", "5C", "8H", "9D"], ["??"] * 5]
    assert view["hand_name"] == "High card" and view["you"]["hand_description"] == "High card, Nine"
    assert view["to_call"] == 0 and view["pot"] == 6 and view["turn"] == 1
    assert view["phase"] == "bet1" and view["chips"] == [98, 98, 98] and view["bets"] == [2, 2, 2]
    spectator = ENGINE.view(state, None)
    assert spectator["hands"] == [["??"] * 5] * 3 and "you" not in spectator
    act(state, 1, "raise")
    assert ENGINE.view(state, 2)["to_call"] == 5
    act(state, 2, "fold")
    assert ENGINE.view(state, 0)["hands"][2] == []
    act(state, 0, "call")
    for seat in (1, 0):
        act(state, seat, "draw", hold=list(state["hands"][seat]))
    act(state, 1, "check")
    act(state, 0, "check")
    last = ENGINE.view(state, 2)["last_hand"]
    assert last["winners"] == [0] and last["hand_name"] == "Four of a kind"
    assert last["description"] == "Four Aces"
    assert last["shown"] == [["AS", "AH", "AD", "AC", "KS"], ["2S", "3D", "5C", "8H", "9D"], None]
    assert last["names"][1] == "High card, Nine"
    # Shown cards are visible to everyone; the folded seat's cards never were.
    seen = ENGINE.visible_cards(state, None)
    assert seen["AS"] == 1 and seen["KH"] == 0


def test_views_never_name_a_card_twice_or_leak():
    from tests.engine import conformance as cf

    rng_ = random.Random(4)
    state = ENGINE.new_game(4, "leaks")
    for _ in range(300):
        if ENGINE.is_over(state):
            break
        cf.check_views(ENGINE, state)
        seat = ENGINE.to_act(state)[0]
        ENGINE.apply(state, seat, rng_.choice(ENGINE.legal_actions(state, seat)))


# ---- the bot ------------------------------------------------------------------------------------


def bot_at(state, seat):
    return ENGINE.bot_action(state, seat)


def test_bot_draws_with_the_exact_best_hold():
    state = stacked(
        [100, 100],
        dealer=0,
        hands=[["AS", "KS", "9S", "4S", "2H"], ["QC", "QD", "7H", "4C", "2S"]],
    )
    act(state, 1, "check")
    act(state, 0, "check")
    assert bot_at(state, 1) == {"type": "draw", "hold": ["QC", "QD"]}


def test_bot_stands_pat_with_a_straight_and_raises_with_it():
    state = stacked(
        [100, 100],
        dealer=0,
        hands=[["2S", "3D", "5C", "8H", "9D"], ["5S", "6D", "7H", "8S", "9C"]],
    )
    assert bot_at(state, 1) == {"type": "raise"}
    act(state, 1, "raise")
    act(state, 0, "call")
    assert bot_at(state, 1) == {"type": "draw", "hold": ["5S", "6D", "7H", "8S", "9C"]}


def test_bot_follows_the_betting_hints():
    junk = ["2S", "3D", "5C", "8H", "JD"]
    state = stacked([100, 100], dealer=0, hands=[["KH", "KD", "7C", "4H", "2C"], junk])
    assert bot_at(state, 1) == {"type": "check"}  # high card: check
    act(state, 1, "check")
    assert bot_at(state, 0) == {"type": "raise"}  # a pair of kings, no raise yet
    # A pair of jacks or better raises once only.
    state = stacked([100, 100], dealer=0, hands=[["KH", "KD", "7C", "4H", "2C"], junk])
    act(state, 1, "raise")
    assert bot_at(state, 0) == {"type": "call"}


def test_bot_folds_a_weak_hand_to_a_raise_after_the_draw():
    state = stacked(
        [100, 100],
        dealer=0,
        hands=[["AS", "AH", "AD", "AC", "KS"], ["2S", "3D", "5C", "8H", "9D"]],
        draws=["10C", "7D", "4H", "QD", "6S"],
    )
    act(state, 1, "check")
    act(state, 0, "check")
    act(state, 1, "draw", hold=[])
    act(state, 0, "draw", hold=list(state["hands"][0]))
    assert pe.decode(value(state["hands"][1]))[0] == pe.HIGH_CARD
    act(state, 1, "check")
    act(state, 0, "raise")
    assert bot_at(state, 1) == {"type": "fold"}


def test_bot_bluffs_rarely():
    pats = 0
    for seed in range(400):
        state = stacked(
            [100, 100],
            dealer=0,
            hands=[["AS", "AH", "AD", "AC", "KS"], ["2S", "3D", "5C", "8H", "JD"]],
        )
        state["seed"] = f"bluff-{seed}"
        act(state, 1, "check")
        act(state, 0, "check")
        action = bot_at(state, 1)
        pats += len(action["hold"]) == 5
    assert 5 <= pats <= 40  # about 5% of 400


# ---- a property test over whole random games ----------------------------------------------------


@settings(max_examples=15, deadline=None)
@given(st.integers(2, 4), st.text(min_size=1, max_size=8), st.randoms(use_true_random=False))
def test_chips_are_conserved_and_nobody_bets_past_the_cap(players, seed, chooser):
    state = ENGINE.new_game(players, seed)
    total = 100 * players
    for _ in range(400):
        if ENGINE.is_over(state):
            break
        assert sum(state["chips"]) + state["pot"] == total
        live = [s for s in range(players) if not state["out"][s]]
        assert all(state["bets"][s] <= state["cap"] for s in live)
        assert all(state["chips"][s] >= 0 for s in range(players))
        seat = ENGINE.to_act(state)[0]
        legal = ENGINE.legal_actions(state, seat)
        ENGINE.apply(state, seat, chooser.choice(legal))
    if ENGINE.is_over(state):
        assert sum(state["chips"]) == total
        assert ENGINE.result(state)["winners"] == [state["winner"]]


def test_registered():
    assert registry.get("poker") is ENGINE
    assert poker.START_CHIPS == 100 and poker.ANTE == 2


def test_a_showdown_stays_on_the_table_before_the_next_hands_first_move():
    """pause() asks the table to wait after a showdown (not after a win by folding), until
    the next hand's first action."""
    engine = registry.get("poker")
    state = engine.new_game(players=2, seed="showdown-pause")
    seen = {"showdown": 0, "fold": 0}
    while not engine.is_over(state) and min(seen.values()) == 0:
        hand = state["hand_no"]
        seat = engine.to_act(state)[0]
        engine.apply(state, seat, engine.bot_action(state, seat))
        if state["hand_no"] != hand and not engine.is_over(state):
            by_fold = state["last_hand"]["by_fold"]
            seen["fold" if by_fold else "showdown"] += 1
            assert engine.pause(state) == (0.0 if by_fold else poker.SHOWDOWN_PAUSE)
            seat = engine.to_act(state)[0]
            engine.apply(state, seat, engine.bot_action(state, seat))
            assert engine.pause(state) == 0.0
    assert seen["showdown"]


@pytest.mark.parametrize("chips", [30, 50])
def test_a_shorter_game_starts_everyone_with_its_stack_and_plays_to_one_winner(chips):
    state = ENGINE.new_game(3, f"poker-chips-{chips}", {"chips": chips})
    ante = poker.ANTE * 3
    assert sum(state["chips"]) + state["pot"] == chips * 3 and state["pot"] == ante
    while not ENGINE.is_over(state):
        seat = ENGINE.to_act(state)[0]
        ENGINE.apply(state, seat, ENGINE.bot_action(state, seat))
    assert sorted(state["chips"]) == [0, 0, chips * 3]
    assert ENGINE.result(state)["winners"] == [state["chips"].index(chips * 3)]


def test_the_stack_is_100_by_default_and_one_of_the_offered_stacks():
    assert ENGINE.default_rules() == {"chips": 100}
    assert sum(ENGINE.new_game(2, "poker-default")["chips"]) == 2 * (100 - poker.ANTE)
    with pytest.raises(IllegalAction, match="Game length must be one of"):
        ENGINE.new_game(2, "poker-odd", {"chips": 40})
