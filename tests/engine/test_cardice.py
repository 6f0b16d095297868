"""Cardice (gameplay/engine/games/cardice/rules.md): the rules' test cases on stacked hands,
properties of whole hands, the view, and the computer player."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameplay.engine import IllegalAction, registry
from gameplay.engine.cards import rng, shuffled
from gameplay.engine.games.cardice import engine as cardice
from gameplay.engine.games.cardice import strategy, tricks

from . import conformance as cf

ENGINE = cardice.ENGINE
PARTNERS = {"partnerships": True}


# ---- helpers ---------------------------------------------------------------------------------


def game(players: int, dealer: int, rules: dict | None = None) -> dict:
    """A new game whose cut made ``dealer`` the first dealer (the first seed that does)."""
    for i in range(500):
        state = ENGINE.new_game(players, f"dealer-{dealer}-{i}", rules)
        if state["dealer"] == dealer:
            return state
    raise AssertionError("no seed found")


def roll(state: dict, trump: str = "X") -> None:
    """The roller rolls; the test then fixes the face (the die's own mapping is tested apart)."""
    ENGINE.apply(state, ENGINE.to_act(state)[0], {"type": "roll"})
    state["die"] = trump


def bid_all(state: dict, first: dict[int, int], final: dict[int, int] | None = None) -> list:
    """Both rounds of bidding, each seat when its turn comes."""
    events = []
    for bids in (first, final or first):
        for _ in range(len(state["seats"])):
            seat = ENGINE.to_act(state)[0]
            events += ENGINE.apply(state, seat, {"type": "bid", "n": bids[seat]})
    return events


def stack(state: dict, hands: dict[int, list[str]], tricks_done: int = 0) -> None:
    """Give the seats these hands; ``tricks_done`` tricks (of 12) already played."""
    for seat, hand in hands.items():
        state["hands"][seat] = sorted(hand, key=tricks.hand_order)
    state["tricks"] = [{"leader": 0, "cards": [], "winner": 0} for _ in range(tricks_done)]


def play(state: dict, *cards: str) -> list[dict]:
    """Each card in turn by the seat to act."""
    events = []
    for card in cards:
        events += ENGINE.apply(state, ENGINE.to_act(state)[0], {"type": "play", "card": card})
    return events


def of_type(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


def playing(players: int, dealer: int, trump: str, rules: dict | None = None) -> dict:
    """A game in its first hand, rolled (trump fixed) and bid 1 all round, ready to play."""
    state = game(players, dealer, rules)
    roll(state, trump)
    bid_all(state, dict.fromkeys(range(players), 1))
    assert state["phase"] == "play"
    return state


def last_trick(state: dict, won: list[int], hands: dict[int, list[str]]) -> None:
    """Jump to the hand's last trick: 11 tricks done with ``won`` tricks per seat."""
    stack(state, hands, tricks_done=state["hand_size"] - 1)
    state["won"] = list(won)


# ---- who the game is -------------------------------------------------------------------------


def test_registered_with_its_options():
    assert registry.get("cardice") is ENGINE
    assert (ENGINE.min_players, ENGINE.max_players, ENGINE.rated) == (2, 6, True)
    assert ENGINE.default_rules() == {"partnerships": False, "nil_bonus": True, "length": "full"}
    assert tuple(ENGINE.moves) == ("roll", "bid", "play")
    assert len(tricks.DECK) == 66 and tricks.DECK[-1] == "JK1"
    assert sum(c.endswith("B") for c in tricks.DECK) == 13


@pytest.mark.parametrize("players", [2, 3, 5])
def test_partnerships_need_four_or_six_seats(players):
    with pytest.raises(IllegalAction, match="Partnerships need 4 or 6 seats"):
        ENGINE.new_game(players, "teams", PARTNERS)


def test_teams_sit_opposite():
    assert ENGINE.new_game(4, "t", PARTNERS)["teams"] == [[0, 2], [1, 3]]
    assert ENGINE.new_game(6, "t", PARTNERS)["teams"] == [[0, 3], [1, 4], [2, 5]]
    assert ENGINE.new_game(4, "t")["teams"] == [[0], [1], [2], [3]]


# ---- §9.1 first dealer, §9.2 rounds and deals ------------------------------------------------


def test_first_dealer_is_the_highest_cut_card():
    assert cardice.cut_winner(["KH", "KS", "9C"]) == 1  # KS outranks KH by suit
    assert cardice.cut_winner(["2S", "3B", "2H"]) == 1
    assert cardice.cut_winner(["AB", "KS"]) == 0


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_cut_comes_from_the_seed(players):
    state = ENGINE.new_game(players, "cut-seed")
    cut = shuffled(tricks.SUITED, "cut-seed", "cut", 1)[:players]
    assert state["cut"] == cut and "JK1" not in cut
    assert state["dealer"] == state["first_dealer"] == cardice.cut_winner(cut)
    assert ENGINE.view(state, None)["cut"] == cut


def bot_game(players: int, seed: str, rules: dict | None = None) -> tuple[dict, list[dict]]:
    state = ENGINE.new_game(players, seed, rules)
    events = []
    while not ENGINE.is_over(state):
        seat = ENGINE.to_act(state)[0]
        events += ENGINE.apply(state, seat, ENGINE.bot_action(state, seat))
    return state, events


@pytest.mark.parametrize(
    "players, rounds, size, stockpile, deals",
    [
        (2, 12, 12, 42, 6),
        (3, 12, 12, 30, 4),
        (4, 12, 12, 18, 3),
        (5, 10, 12, 6, 2),
        (6, 12, 10, 6, 2),
    ],
)
def test_rounds_hand_sizes_and_equal_deals(players, rounds, size, stockpile, deals):
    state = ENGINE.new_game(players, f"deals-{players}")
    assert (state["rounds"], state["hand_size"], len(state["stockpile"])) == (
        rounds,
        size,
        stockpile,
    )
    assert all(len(state["hands"][s]) == size for s in range(players))
    assert sorted(sum(state["hands"], []) + state["stockpile"]) == sorted(tricks.DECK)
    state, events = bot_game(players, f"deals-{players}")
    normal = [row for row in state["sheet"] if not row["decider"]]
    assert len(normal) == rounds
    assert Counter(row["dealer"] for row in normal) == dict.fromkeys(range(players), deals)
    # The deal passes to the left.
    assert [row["dealer"] for row in normal] == [
        (state["first_dealer"] + i) % players for i in range(rounds)
    ]
    for dealt in of_type(events, "cards_dealt"):
        if not dealt["decider"]:
            assert (dealt["hand_size"], dealt["stockpile"]) == (size, stockpile)


# ---- §9.3, §9.4 who rolls, bids and leads ----------------------------------------------------


def test_two_seats_the_non_dealer_rolls_bids_first_and_leads():
    state = game(2, dealer=0)
    assert ENGINE.to_act(state) == [1]
    assert ENGINE.legal_actions(state, 1) == [{"type": "roll"}]
    assert ENGINE.legal_actions(state, 0) == []
    with pytest.raises(IllegalAction, match="dealer's right rolls"):
        ENGINE.apply(state, 0, {"type": "roll"})
    roll(state)
    order = []
    for n in (2, 3, 2, 3):
        seat = ENGINE.to_act(state)[0]
        order.append(seat)
        ENGINE.apply(state, seat, {"type": "bid", "n": n})
    assert order == [1, 0, 1, 0]
    assert ENGINE.to_act(state) == [1] and state["phase"] == "play"


def test_four_seats_dealer_two():
    state = game(4, dealer=2)
    assert ENGINE.to_act(state) == [1]
    assert ENGINE.view(state, None)["roller"] == 1
    roll(state)
    assert ENGINE.to_act(state) == [3]
    order = []
    for _ in range(8):
        seat = ENGINE.to_act(state)[0]
        order.append(seat)
        ENGINE.apply(state, seat, {"type": "bid", "n": 1})
    assert order == [3, 0, 1, 2, 3, 0, 1, 2]
    assert ENGINE.to_act(state) == [3] and state["trick"]["leader"] == 3


def test_the_deal_starts_at_the_dealers_left():
    state = game(4, dealer=2)
    cards = shuffled(tricks.DECK, state["seed"], "deal", 1)
    assert state["hands"][3] == sorted(cards[0:48:4], key=tricks.hand_order)
    assert state["hands"][0] == sorted(cards[1:48:4], key=tricks.hand_order)
    assert state["stockpile"] == cards[48:]


# ---- §9.5 the die ----------------------------------------------------------------------------


def test_die_faces_come_from_the_seeded_rng():
    assert cardice.FACES == ["X", "S", "H", "D", "C", "B"]
    faces = set()
    for i in range(60):
        state = ENGINE.new_game(3, f"die-{i}")
        roller = ENGINE.to_act(state)[0]
        [event] = ENGINE.apply(state, roller, {"type": "roll"})
        face = cardice.FACES[rng(f"die-{i}", "die", 1).randrange(6)]
        assert event == {
            "type": "die_rolled",
            "seat": roller,
            "round": 1,
            "face": face,
            "trump": None if face == "X" else face,
        }
        view = ENGINE.view(state, None)
        assert (view["die"], view["trump"]) == (face, event["trump"])
        faces.add(face)
    assert faces == set(cardice.FACES)


def test_the_die_is_rolled_once_and_before_bidding():
    state = game(3, dealer=0)
    with pytest.raises(IllegalAction, match="rolls the die"):
        ENGINE.apply(state, 1, {"type": "bid", "n": 1})
    with pytest.raises(IllegalAction, match="rolls the die"):
        ENGINE.apply(state, 1, {"type": "play", "card": state["hands"][1][0]})
    roll(state)
    with pytest.raises(IllegalAction, match="already been rolled: it is time to bid"):
        ENGINE.apply(state, 2, {"type": "roll"})
    bid_all(state, {0: 1, 1: 1, 2: 1})
    with pytest.raises(IllegalAction, match="Bidding is over"):
        ENGINE.apply(state, 1, {"type": "bid", "n": 2})


# ---- §9.6 – §9.11 tricks ---------------------------------------------------------------------


def test_trumping():
    state = playing(4, dealer=0, trump="H")
    stack(state, {1: ["5S", "3D"], 2: ["KS", "4D"], 3: ["2H", "5D"], 0: ["AS", "6D"]})
    events = play(state, "5S", "KS", "2H", "AS")
    assert of_type(events, "trick_won")[0]["seat"] == 3
    assert state["won"] == [0, 0, 0, 1] and ENGINE.to_act(state) == [3]


def test_trumping_is_never_compulsory():
    state = playing(4, dealer=0, trump="H")
    stack(state, {1: ["5S"], 2: ["KS"], 3: ["2H", "5D"], 0: ["AS"]})
    play(state, "5S", "KS")
    assert {a["card"] for a in ENGINE.legal_actions(state, 3)} == {"2H", "5D"}


def test_no_trump():
    state = playing(3, dealer=2, trump="X")
    stack(state, {0: ["9B", "2C"], 1: ["QB", "3C"], 2: ["AH", "4C"]})
    events = play(state, "9B", "QB", "AH")
    assert of_type(events, "trick_won")[0]["seat"] == 1


def test_follow_suit():
    state = playing(4, dealer=0, trump="X")
    stack(state, {1: ["5S", "9H"], 2: ["3S", "7D", "JK1"]})
    play(state, "5S")
    assert [a["card"] for a in ENGINE.legal_actions(state, 2)] == ["JK1", "3S"]
    with pytest.raises(IllegalAction, match=r"You must follow suit \(♠ Spades\)"):
        ENGINE.apply(state, 2, {"type": "play", "card": "7D"})
    hand = ENGINE.view(state, 2)["you"]["hand"]
    assert [(h["card"], h["playable"]) for h in hand] == [
        ("JK1", True),
        ("3S", True),
        ("7D", False),
    ]


def test_joker_beats_trump():
    state = playing(4, dealer=0, trump="H")
    stack(state, {1: ["5S", "2C"], 2: ["KS", "JK1"], 3: ["AH", "3C"], 0: ["4S", "4C"]})
    events = play(state, "5S", "JK1", "AH", "4S")
    assert of_type(events, "trick_won")[0]["seat"] == 2


def test_joker_lead_only_in_the_final_hand():
    state = playing(4, dealer=0, trump="S")
    state["round"] = 5
    stack(state, {1: ["JK1", "4C"], 2: ["2D", "3S"], 3: ["5H", "6H"], 0: ["7H", "8H"]})
    assert ENGINE.legal_actions(state, 1) == [{"type": "play", "card": "4C"}]
    with pytest.raises(IllegalAction, match="joker can't be led"):
        ENGINE.apply(state, 1, {"type": "play", "card": "JK1"})
    for final in (12, 13):  # the last hand, and a decider
        state["round"] = final
        assert {"type": "play", "card": "JK1"} in ENGINE.legal_actions(state, 1)
    state["round"] = 12
    play(state, "JK1")
    # Nothing to follow after a joker lead: seat 2 holds a spade (trump) and may play 2D.
    assert {a["card"] for a in ENGINE.legal_actions(state, 2)} == {"2D", "3S"}
    events = play(state, "2D", "5H", "7H")
    assert of_type(events, "trick_won")[0]["seat"] == 1


def test_forced_joker_lead():
    state = playing(4, dealer=0, trump="D")
    state["round"] = 3
    last_trick(state, [3, 3, 3, 2], {1: ["JK1"], 2: ["AD"], 3: ["KD"], 0: ["QD"]})
    assert ENGINE.legal_actions(state, 1) == [{"type": "play", "card": "JK1"}]
    events = play(state, "JK1", "AD", "KD", "QD")
    assert of_type(events, "trick_won")[0]["seat"] == 1


# ---- §9.12 – §9.13 scoring -------------------------------------------------------------------


@pytest.mark.parametrize(
    "bid, won, bonus, score",
    [
        (4, 3, True, -1),
        (4, 6, True, 4),
        (4, 4, True, 4),
        (12, 0, True, -12),
        (0, 0, True, 5),
        (0, 0, False, 0),
        (0, 2, True, -2),
        (0, 2, False, -2),
    ],
)
def test_contract_scores(bid, won, bonus, score):
    assert cardice.contract_score(bid, won, bonus) == score


def test_a_hand_is_scored_after_its_last_trick():
    state = game(4, dealer=0)
    roll(state, "X")
    bid_all(state, {0: 1, 1: 5, 2: 4, 3: 0}, {0: 1, 1: 4, 2: 4, 3: 0})
    last_trick(state, [5, 3, 3, 0], {1: ["2S"], 2: ["3S"], 3: ["4S"], 0: ["AS"]})
    events = play(state, "2S", "3S", "4S", "AS")
    [scored] = of_type(events, "round_scored")
    assert scored["won"] == [6, 3, 3, 0]
    assert scored["points"] == [1, -1, -1, 5]
    assert state["totals"] == [1, -1, -1, 5]
    assert [c["made"] for c in scored["contracts"]] == [True, False, False, True]
    # The next hand is dealt, by the next seat to the left.
    dealt = of_type(events, "cards_dealt")[0]
    assert (dealt["round"], dealt["dealer"]) == (2, 1)
    assert state["round"] == 2 and state["phase"] == "roll" and ENGINE.to_act(state) == [0]
    view = ENGINE.view(state, None)
    assert view["sheet"][0]["points"] == [1, -1, -1, 5]
    assert view["sheet"][0]["totals"] == [1, -1, -1, 5]
    # Each line names its contracts (one per seat here), so the table marks made and broken.
    assert [(c["seats"], c["made"]) for c in view["sheet"][0]["contracts"]] == [
        ([0], True),
        ([1], False),
        ([2], False),
        ([3], True),
    ]


def test_nil_bonus_off():
    state = game(4, dealer=0, rules={"partnerships": False, "nil_bonus": False})
    roll(state, "X")
    bid_all(state, {0: 1, 1: 5, 2: 4, 3: 0})
    last_trick(state, [5, 3, 3, 0], {1: ["2S"], 2: ["3S"], 3: ["4S"], 0: ["AS"]})
    play(state, "2S", "3S", "4S", "AS")
    assert state["totals"] == [1, -2, -1, 0]


def test_partnerships_score_one_team_contract():
    state = game(4, dealer=0, rules=PARTNERS)
    roll(state, "X")
    bid_all(state, {0: 3, 1: 4, 2: 0, 3: 4})
    view = ENGINE.view(state, 0)
    assert [(c["seats"], c["bid"]) for c in view["contracts"]] == [([0, 2], 3), ([1, 3], 8)]
    assert view["you"]["team"] == [0, 2]
    last_trick(state, [2, 4, 1, 4], {1: ["2S"], 2: ["AS"], 3: ["4S"], 0: ["3S"]})
    events = play(state, "2S", "AS", "4S", "3S")
    [scored] = of_type(events, "round_scored")
    assert scored["contracts"] == [
        {"seats": [0, 2], "bid": 3, "won": 4, "points": 3, "made": True},
        {"seats": [1, 3], "bid": 8, "won": 8, "points": 8, "made": True},
    ]
    assert state["totals"] == [3, 8, 3, 8]


def test_partnerships_team_nil():
    state = game(4, dealer=0, rules=PARTNERS)
    roll(state, "X")
    bid_all(state, {0: 6, 1: 0, 2: 5, 3: 0})
    last_trick(state, [6, 0, 5, 0], {1: ["2S"], 2: ["AS"], 3: ["4S"], 0: ["3S"]})
    play(state, "2S", "AS", "4S", "3S")
    assert state["totals"] == [11, 5, 11, 5]


def test_a_lone_nil_in_a_team_earns_nothing_extra():
    state = game(4, dealer=0, rules=PARTNERS)
    roll(state, "X")
    bid_all(state, {0: 3, 1: 0, 2: 0, 3: 4})
    last_trick(state, [3, 0, 0, 8], {1: ["2S"], 2: ["3S"], 3: ["AS"], 0: ["4S"]})
    play(state, "2S", "3S", "AS", "4S")
    assert state["totals"] == [3, 4, 3, 4]


# ---- §9.14, §9.15 bids -----------------------------------------------------------------------


def test_bid_limits():
    state = game(6, dealer=0)
    roll(state)
    seat = ENGINE.to_act(state)[0]
    assert [a["n"] for a in ENGINE.legal_actions(state, seat)] == list(range(11))
    with pytest.raises(IllegalAction, match="at most 10 tricks"):
        ENGINE.apply(state, seat, {"type": "bid", "n": 11})
    with pytest.raises(IllegalAction, match="below 0"):
        ENGINE.apply(state, seat, {"type": "bid", "n": -1})
    with pytest.raises(IllegalAction, match="no action 'pass'"):
        ENGINE.apply(state, seat, {"type": "pass"})
    for bad in ("3", 2.0, True, None):
        with pytest.raises(IllegalAction, match="whole number"):
            ENGINE.apply(state, seat, {"type": "bid", "n": bad})
    with pytest.raises(IllegalAction, match="not your turn to bid"):
        ENGINE.apply(state, (seat + 1) % 6, {"type": "bid", "n": 1})


def test_changed_bid():
    state = game(4, dealer=3)
    roll(state)
    events = bid_all(state, {0: 3, 1: 2, 2: 2, 3: 2}, {0: 1, 1: 2, 2: 2, 3: 2})
    assert state["first_bids"][0] == 3 and state["bids"][0] == 1
    made = [e for e in of_type(events, "bid_made") if e["seat"] == 0]
    assert made == [
        {"type": "bid_made", "seat": 0, "bid": 3, "bid_round": 1},
        {"type": "bid_made", "seat": 0, "bid": 1, "bid_round": 2, "changed": True},
    ]
    [closed] = of_type(events, "bidding_closed")
    assert closed["bids"] == [1, 2, 2, 2]


def test_bids_are_public_as_soon_as_made():
    state = game(3, dealer=0)
    roll(state)
    ENGINE.apply(state, 1, {"type": "bid", "n": 4})
    for viewer in (None, 0, 1, 2):
        view = ENGINE.view(state, viewer)
        assert view["first_bids"] == [None, 4, None] and view["bid_round"] == 1


# ---- §9.16 deciders --------------------------------------------------------------------------


def to_decider() -> tuple[dict, list[dict]]:
    """Three seats finish hand 12 on [14, 14, 9]: seats 0 and 1 play a decider."""
    state = game(3, dealer=1)
    state["round"] = 12
    state["totals"] = [13, 13, 8]
    roll(state, "X")
    bid_all(state, {0: 1, 1: 1, 2: 1})
    last_trick(state, [5, 5, 1], {2: ["2S"], 0: ["3S"], 1: ["AS"]})
    return state, play(state, "2S", "3S", "AS")


def test_decider():
    state, events = to_decider()
    assert state["totals"] == [14, 14, 9]
    [called] = of_type(events, "decider_called")
    assert called == {"type": "decider_called", "decider": 1, "seats": [0, 1]}
    assert state["seats"] == [0, 1] and state["round"] == 13
    assert state["dealer"] == 0  # the next seat in it, left of the last dealer (1)
    assert [len(h) for h in state["hands"]] == [12, 12, 0] and len(state["stockpile"]) == 42
    assert ENGINE.to_act(state) == [1] and ENGINE.view(state, None)["final_hand"]
    assert ENGINE.view(state, 2)["in_round"] == [True, True, False]
    with pytest.raises(IllegalAction, match="not in this decider"):
        ENGINE.apply(state, 2, {"type": "roll"})
    roll(state, "H")
    bid_all(state, {1: 3, 0: 2})
    last_trick(state, [9, 2, 0], {1: ["2C"], 0: ["AC"]})
    events = play(state, "2C", "AC")
    assert state["totals"] == [16, 13, 9]
    assert ENGINE.is_over(state)
    result = ENGINE.result(state)
    assert result == {"scores": [16, 13, 9], "winners": [0], "ranking": [[0], [1], [2]]}
    assert of_type(events, "game_ended")[0]["winners"] == [0]


def test_decider_seats_stay_ahead_of_the_rest():
    state, _ = to_decider()
    roll(state, "X")
    bid_all(state, {1: 12, 0: 10})
    last_trick(state, [5, 6, 0], {1: ["2C"], 0: ["AC"]})
    play(state, "2C", "AC")
    assert state["totals"] == [10, 8, 9]
    assert ENGINE.result(state) == {
        "scores": [10, 8, 9],
        "winners": [0],
        "ranking": [[0], [1], [2]],
    }


def test_three_deciders_then_a_shared_win():
    state = game(2, dealer=0)
    state.update(round=12, totals=[10, 10])
    for decider in range(4):
        roll(state, "X")
        bid_all(state, {0: 1, 1: 1})
        last_trick(state, [5, 6], {0: ["2S"], 1: ["AS"]})
        leader = ENGINE.to_act(state)[0]
        events = play(state, *(["2S", "AS"] if leader == 0 else ["AS", "2S"]))
        if decider < 3:
            assert of_type(events, "decider_called")[0]["decider"] == decider + 1
    assert ENGINE.is_over(state) and state["shared"]
    assert state["totals"] == [14, 14]
    assert ENGINE.result(state) == {"scores": [14, 14], "winners": [0, 1], "ranking": [[0, 1]]}


def test_tied_teams_play_the_decider_with_both_partners():
    state = game(6, dealer=5, rules=PARTNERS)
    state.update(round=12, totals=[20, 20, 5, 20, 20, 5])
    roll(state, "X")
    bid_all(state, dict.fromkeys(range(6), 0))
    last_trick(
        state,
        [3, 2, 1, 1, 2, 0],
        {s: [c] for s, c in enumerate(["2S", "3S", "4S", "5S", "6S", "AS"])},
    )
    events = play(state, "2S", "3S", "4S", "5S", "6S", "AS")  # seat 0 leads (dealer 5's left)
    # Teams {0,3} and {1,4} each broke a team nil by 4 tricks: still tied on 16.
    assert state["totals"] == [16, 16, 3, 16, 16, 3]
    assert of_type(events, "decider_called")[0]["seats"] == [0, 1, 3, 4]
    assert state["hand_size"] == 12 and [len(h) for h in state["hands"]] == [12, 12, 0, 12, 12, 0]
    assert state["dealer"] == 0
    assert ENGINE.view(state, 2)["you"]["in_round"] is False


# ---- §9.17 and whole hands -------------------------------------------------------------------


def random_hand(seed: str, players: int, rules: dict | None, nil_with_joker: bool):
    """Play one hand with random legal actions (the joker's holder bids 0 when asked to),
    checking that every card played follows suit unless it may not."""
    state = ENGINE.new_game(players, seed, rules)
    chooser = rng(seed, "test", 1)
    holder = next((s for s in range(players) if "JK1" in state["hands"][s]), None)
    events = []
    while state["round"] == 1:
        seat = ENGINE.to_act(state)[0]
        legal = ENGINE.legal_actions(state, seat)
        action = chooser.choice(legal)
        if legal[0]["type"] == "bid" and nil_with_joker and seat == holder:
            action = {"type": "bid", "n": 0}
        trick, hand = list(state["trick"]["cards"]), list(state["hands"][seat])
        if action["type"] == "play" and trick and "JK1" not in (trick[0], action["card"]):
            led = trick[0][-1]
            assert action["card"][-1] == led or not any(c[-1] == led for c in hand)
        events += ENGINE.apply(state, seat, action)
    return state, holder, events


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([2, 3, 4, 5, 6]))
def test_the_jokers_holder_never_makes_nil(n, players):
    state, holder, events = random_hand(f"nil-{n}", players, None, nil_with_joker=True)
    [scored] = of_type(events, "round_scored")
    if holder is None:
        return  # the joker stayed in the stockpile
    assert scored["bids"][holder] == 0
    assert scored["won"][holder] >= 1 and scored["points"][holder] <= -1


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([(2, None), (4, PARTNERS), (5, None), (6, PARTNERS)]))
def test_every_trick_goes_to_the_right_card(n, setup):
    players, rules = setup
    state, _, events = random_hand(f"tricks-{n}", players, rules, nil_with_joker=False)
    trump = of_type(events, "die_rolled")[0]["trump"]
    won = of_type(events, "trick_won")
    assert len(won) == cardice.hand_size_for(players)
    for trick in won:
        cards = {p["card"]: p["seat"] for p in trick["plays"]}
        led = trick["plays"][0]["card"]
        if "JK1" in cards:
            expected = cards["JK1"]
        else:
            pool = [c for c in cards if c[-1] == trump] or [c for c in cards if c[-1] == led[-1]]
            expected = cards[max(pool, key=tricks.power)]
        assert trick["seat"] == expected
    [scored] = of_type(events, "round_scored")
    assert sum(w for w in scored["won"] if w is not None) == cardice.hand_size_for(players)


# ---- the view --------------------------------------------------------------------------------


def test_view_shows_the_table_and_hides_other_hands():
    state = playing(4, dealer=0, trump="S")
    play(state, ENGINE.legal_actions(state, 1)[0]["card"])
    cf.check_views(ENGINE, state)  # no card beyond the seat's hand, the cut and the trick
    view = ENGINE.view(state, 2)
    hidden = set(state["hands"][0] + state["stockpile"]) - set(state["cut"])
    assert not hidden & set(cf.cards_in(view))
    assert [h["card"] for h in view["you"]["hand"]] == state["hands"][2]
    assert view["hand_counts"] == [12, 11, 12, 12]
    assert view["stockpile"] == 18
    assert (view["die"], view["trump"], view["trump_name"]) == ("S", "S", "Spades")
    assert view["phase"] == "play" and view["turn"] == 2 and view["you"]["must"] == "play"
    assert view["trick"]["leader"] == 1 and view["trick"]["winning"] == 1
    assert view["trick"]["number"] == 1 and view["tricks_left"] == 12
    assert view["round"] == 1 and view["rounds"] == 12 and view["dealer"] == 0
    assert view["contracts"][2] == {
        "seats": [2],
        "bid": 1,
        "won": 0,
        "needed": 1,
        "status": "short",
        "total": 0,
    }
    assert all(h["trump"] == h["card"].endswith("S") for h in view["you"]["hand"])
    assert "you" not in ENGINE.view(state, None)


def test_the_view_marks_trumps_played():
    state = playing(4, dealer=0, trump="H")
    stack(state, {1: ["2S", "9C"], 2: ["5H", "3D"], 3: ["KS", "4D"], 0: ["JK1", "AS"]})
    play(state, "2S", "5H", "KS", "AS")  # Hearts trump: the 5 of Hearts takes it
    view = ENGINE.view(state, 0)
    [done] = view["tricks"]
    assert done["winner"] == 2
    assert [(p["card"], p["trump"]) for p in done["plays"]] == [
        ("2S", False),
        ("5H", True),
        ("KS", False),
        ("AS", False),
    ]
    play(state, "3D", "4D", "JK1")
    plays = ENGINE.view(state, None)["trick"]["plays"]
    assert [(p["card"], p["trump"]) for p in plays] == [
        ("3D", False),
        ("4D", False),
        ("JK1", False),
    ]


def test_contract_status():
    assert cardice.contract_status(None, 0, 12) == "bidding"
    assert cardice.contract_status(0, 0, 3) == "nil"
    assert cardice.contract_status(0, 1, 3) == "broken"
    assert cardice.contract_status(3, 1, 4) == "short"
    assert cardice.contract_status(3, 1, 1) == "broken"
    assert cardice.contract_status(3, 3, 1) == "made"


def test_facts_of_a_finished_game():
    state, _ = bot_game(4, "facts")
    for seat in range(4):
        facts = ENGINE.facts(state, seat)
        assert set(facts) == {"points", "contracts_made", "made_nils", "tricks", "wins"}
        assert facts["points"] == state["totals"][seat]
        assert facts["tricks"] == sum(row["won"][seat] or 0 for row in state["sheet"])
        assert 0 <= facts["made_nils"] <= facts["contracts_made"] <= len(state["sheet"])
    assert sum(ENGINE.facts(state, s)["wins"] for s in range(4)) == len(
        ENGINE.result(state)["winners"]
    )
    assert {r.fact for r in ENGINE.records} <= set(ENGINE.facts(state, 0))


# ---- the computer player ---------------------------------------------------------------------


def test_bid_estimate_follows_the_hand():
    strong = ["AS", "KS", "QS", "AH", "KH", "AD", "AC", "AB", "JK1", "5S", "4S", "3S"]
    weak = ["2S", "3S", "4H", "5H", "2D", "3D", "4D", "2C", "3C", "5C", "2B", "3B"]
    for trump in ("S", None):
        assert strategy.estimate(strong, trump, 4, 12) >= 6
        assert strategy.estimate(weak, trump, 4, 12) < 0.5
    assert strategy.nil_ok(weak, "H", strategy.estimate(weak, "H", 4, 12), 4)
    joker_weak = [*weak[:-1], "JK1"]
    assert not strategy.nil_ok(joker_weak, "H", 0.0, 4)


def bot_bid_in(state: dict, hand: list[str]) -> int:
    seat = ENGINE.to_act(state)[0]
    state["hands"][seat] = sorted(hand, key=tricks.hand_order)
    return ENGINE.bot_action(state, seat)["n"]


def test_bot_bids_by_its_hand_and_never_nil_with_the_joker():
    state = game(4, dealer=0)
    roll(state, "S")
    strong = ["AS", "KS", "QS", "JS", "10S", "AH", "AD", "AC", "KH", "9S", "8S", "7S"]
    assert bot_bid_in(state, strong) >= 7
    weak = ["2H", "3H", "4H", "5D", "2D", "3D", "4C", "2C", "3C", "5B", "2B", "3B"]
    assert bot_bid_in(state, weak) == 0
    assert bot_bid_in(state, [*weak[:-1], "JK1"]) >= 1


def test_bot_lowers_a_team_bid_above_its_share():
    state = game(4, dealer=3, rules=PARTNERS)
    roll(state, "S")
    strong = ["AS", "KS", "QS", "JS", "10S", "AH", "AD", "AC", "KH", "9S", "8S", "7S"]
    state["hands"][0] = sorted(strong, key=tricks.hand_order)
    for seat, n in ((0, 8), (1, 1), (2, 4), (3, 1)):
        ENGINE.apply(state, seat, {"type": "bid", "n": n})
    assert ENGINE.bot_action(state, 0) == {"type": "bid", "n": 7}  # 8 + 4 > 6 tricks


def test_bot_wins_cheaply_when_short_and_ducks_when_made():
    state = playing(4, dealer=0, trump="H")
    stack(state, {1: ["9S", "2C"], 2: ["QS", "AS", "8S", "3S"], 3: ["4S"], 0: ["5S"]})
    play(state, "9S")
    assert ENGINE.bot_action(state, 2) == {"type": "play", "card": "AS"}  # the safe winner
    state["won"][2] = 1  # bid 1: made
    assert ENGINE.bot_action(state, 2) == {"type": "play", "card": "8S"}  # the highest loser


def test_bot_as_last_player_takes_with_the_cheapest_winner():
    state = playing(4, dealer=0, trump="H")
    stack(state, {1: ["9S"], 2: ["10S"], 3: ["2S"], 0: ["JS", "KS", "AS", "3S"]})
    play(state, "9S", "10S", "2S")
    assert ENGINE.bot_action(state, 0) == {"type": "play", "card": "JS"}


def test_bot_cashes_the_joker_when_tricks_run_out():
    state = playing(4, dealer=0, trump="H")
    # Two tricks left; seat 0 (bid 1) has none yet.
    stack(state, {1: ["AS", "KD"], 2: ["2S", "3D"], 3: ["3S", "4D"], 0: ["JK1", "2D"]}, 10)
    state["won"] = [0, 4, 3, 3]
    play(state, "AS", "2S", "3S")
    assert ENGINE.bot_action(state, 0) == {"type": "play", "card": "JK1"}


def test_bot_protects_a_nil():
    state = game(4, dealer=0)
    roll(state, "C")
    bid_all(state, {0: 1, 1: 1, 2: 0, 3: 1})
    stack(state, {1: ["9D", "2C"], 2: ["KD", "8D", "2D", "AB"], 3: ["4S"], 0: ["5S"]})
    play(state, "9D")
    assert ENGINE.bot_action(state, 2) == {"type": "play", "card": "8D"}  # highest below 9D


# ---- the game length option -----------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 5])
def test_a_quick_game_is_one_hand_then_the_end(players):
    state, events = bot_game(players, f"cardice-one-{players}", {"length": "one"})
    assert state["rounds"] == 1
    ended = [e for e in events if e["type"] == "game_ended"]
    assert len(ended) == 1 and events[-1] is ended[0]
    assert state["round"] == 1 or state["decider"]  # a tie for first place plays its decider


def test_a_full_game_is_the_default_length():
    assert ENGINE.default_rules()["length"] == "full"
    assert ENGINE.new_game(5, "cardice-full")["rounds"] == 10
    with pytest.raises(IllegalAction, match="Game length must be one of"):
        ENGINE.new_game(2, "cardice-odd", {"length": "two"})
